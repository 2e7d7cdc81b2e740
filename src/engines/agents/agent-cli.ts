/**
 * The contract of one agent CLI adapter (`opencode.ts`, `claude-code.ts`,
 * `pi.ts`): where the CLI is installed, the command line and environment
 * of one headless run (its config confined under `DATA_DIR/agents/<engine>/`,
 * mindlink's MCP server its only tool source, the prompt on stdin), and a
 * reader of its JSON event stream that gathers the run's text, session id,
 * usage and cost, and tells a refusal (out of credit, not signed in) from a
 * provider that is only unavailable. Shared pieces of the three live here.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Logger } from 'pino';
import { REFUSAL_CODES, REFUSAL_STATUSES } from '../llm/transport.ts';
import type { EngineKind } from '../kinds.ts';
import type { CliCommand, CliExit } from './run-cli.ts';

/** The agent engines. */
export const AGENT_KINDS = ['opencode', 'claude-code', 'pi'] as const satisfies readonly EngineKind[];
/** One agent engine. */
export type AgentKind = (typeof AGENT_KINDS)[number];

/** Whether an engine name is an agent engine. */
export function isAgentKind(kind: string): kind is AgentKind {
  return (AGENT_KINDS as readonly string[]).includes(kind);
}

/** An OpenAI-compatible endpoint (the llm engine's `LLM_*`), which opencode and pi can use as their provider. */
export interface OpenAiEndpoint {
  baseURL: string;
  model: string;
  apiKey?: string | undefined;
  /** USD per million tokens, for the CLI's own cost figure. */
  priceIn?: number | undefined;
  priceOut?: number | undefined;
}

/** How the agent engines are set up (from config). */
export interface AgentSetup {
  /** Where `npm run agents:install` puts the CLIs (`agents/` of the checkout). */
  agentsDir: string;
  dataDir: string;
  /** A turn's time limit: the CLI is killed past it. */
  timeoutMs: number;
  /** The model each CLI uses, in its own naming (`provider/model` for opencode and pi); absent: its default, or `openai`. */
  models: Partial<Record<AgentKind, string>>;
  /** opencode's and pi's provider when no model is named for them. */
  openai?: OpenAiEndpoint | undefined;
  /** Claude Code's key and endpoint when given; absent: the CLI's own sign-in. */
  anthropic: { apiKey?: string | undefined; baseURL?: string | undefined };
  /** The environment a CLI starts from (PATH, locale, proxies): nothing of mindlink's own secrets. */
  baseEnv: Record<string, string>;
}

/** The folders of one run. */
export interface AgentDirs {
  /** `DATA_DIR/agents/<engine>`: the CLI's HOME, config, sessions and sign-in. */
  home: string;
  /** `DATA_DIR/agents/<engine>/tmp/<avatar>`: its TMPDIR, emptied after every run. */
  tmp: string;
  /** The avatar's folder (TASK.md, lab log): the run's working directory. */
  work: string;
}

/** One run to start. */
export interface RunSpec {
  avatar: string;
  dirs: AgentDirs;
  /** The standing instructions (`system-prompt.ts`). */
  system: string;
  /** The turn's prompt, written to stdin. */
  prompt: string;
  /** mindlink's MCP server for this run. */
  mcp: { url: string; secret: string };
  /** The session to resume, or undefined for a new one. */
  resume: string | undefined;
  /** A question: it continues from the session (a fork where the CLI can) and keeps nothing. */
  ephemeral: boolean;
  setup: AgentSetup;
}

/** The run's model usage. */
export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  /** Model requests. */
  requests: number;
  /** USD, as the CLI reported it (its own estimate from list prices, or the prices it was given). */
  costUsd?: number;
}

/** Why a run did not give a reply. */
export interface RunFailure {
  /** `refused`: out of credit or not signed in (the avatar stops); `unavailable`: rate limited or down after the CLI's retries (the turn ends as working); `no_session`: the session to resume is gone; `failed`: anything else. */
  kind: 'refused' | 'unavailable' | 'no_session' | 'failed';
  message: string;
}

/** What a run said and cost. */
export interface RunResult {
  sessionId?: string | undefined;
  /** The agent's text parts, in order (the last one is its reply). */
  texts: string[];
  usage: RunUsage;
  /** What the whole session cost so far, for a CLI that reports that rather than the run's cost (Claude Code). */
  sessionCostUsd?: number | undefined;
  /** Tokens of the last request's context. */
  contextTokens?: number | undefined;
  failure?: RunFailure | undefined;
}

/** Reads one run's output. */
export interface RunReader {
  /** One line of stdout; true when the run should end now (a refusal the CLI would only retry). */
  stdout(line: string): boolean;
  /** One line of stderr; true when the run should end now. */
  stderr(line: string): boolean;
  /** What the run gave, once it ended. */
  result(exit: CliExit): RunResult;
}

/** How a CLI is started. */
export interface CliLocation {
  command: string;
  /** Arguments before the CLI's own (`cli.js` of a Node CLI). */
  prefix: string[];
}

/** One agent CLI. */
export interface AgentCli {
  kind: AgentKind;
  /** The npm package and the version `npm run agents:install` pins. */
  npm: { name: string; version: string };
  /** The CLI in `agentsDir/<kind>/node_modules`, else on PATH; null when it is in neither. */
  locate(setup: Pick<AgentSetup, 'agentsDir' | 'baseEnv'>): CliLocation | null;
  /** The run's command (its config files are written under `spec.dirs.home` first). */
  command(spec: RunSpec, cli: CliLocation, log: Logger): CliCommand;
  /**
   * The interactive sign-in (`npm run agents:login -- <engine>`), in the same confined folders as the runs, so the
   * credentials land under `DATA_DIR/agents/<engine>/`; `hint` says what to do in it. No prompt, no stdin.
   */
  signIn(setup: AgentSetup, dirs: Pick<AgentDirs, 'home' | 'tmp'>, cli: CliLocation): { command: Omit<CliCommand, 'input'>; hint: string };
  reader(log: Logger): RunReader;
}

/** Words of a refusal in an error message, where no code is given. */
const REFUSAL_WORDS =
  /insufficient[_ ]quota|exceeded your current quota|credit balance|insufficient (credits|balance|funds)|billing|payment required|invalid[_ ]api[_ ]key|incorrect api key|invalid x-api-key|authentication[_ ](error|failed)|not logged in|please run \/login|no api key|api key (is )?(missing|not (found|set))/i;

/**
 * What an error from the model provider means: a refusal (no credit, no access: by its error code, a 401/402/403,
 * or its words), unavailable for now (429, 408, 5xx), or a failure of the request itself.
 *
 * @example
 * judgeProviderError(429, 'insufficient_quota', 'You exceeded your current quota') // → 'refused'
 * judgeProviderError(429, undefined, 'Rate limit reached')                         // → 'unavailable'
 */
export function judgeProviderError(status: number | undefined, code: string | undefined, message: string): 'refused' | 'unavailable' | 'failed' {
  if ((code !== undefined && REFUSAL_CODES.has(code)) || (status !== undefined && REFUSAL_STATUSES.has(status)) || REFUSAL_WORDS.test(message)) return 'refused';
  if (status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500)) return 'unavailable';
  return 'failed';
}

/** One line, cut short, for a chat line or a log. */
export function shortLine(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A JSON object from one line of a CLI's stream, or undefined for anything else. */
export function jsonLine(line: string): Record<string, unknown> | undefined {
  const t = line.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A value as an object, or undefined. */
export function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** A value as a finite number, or 0. */
export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** A value as a string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The first file of `names` that exists on `PATH` (of `env`), or null. */
export function onPath(names: readonly string[], env: Record<string, string>): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const n of names) {
      const p = join(dir, n);
      if (existsSync(p)) return p;
    }
  }
  return null;
}

/** A folder, made when missing. */
export function ensureDir(path: string): string {
  mkdirSync(path, { recursive: true });
  return path;
}

/** The package folder `<agentsDir>/<kind>/node_modules/<name>`. */
export function installedPackage(agentsDir: string, kind: AgentKind, name: string): string {
  return join(agentsDir, kind, 'node_modules', name);
}

/** `${process.platform}-${process.arch}` as npm platform packages name it. */
export function platformTag(): string {
  return `${process.platform}-${process.arch}`;
}
