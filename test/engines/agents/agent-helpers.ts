/**
 * What the agent engines' tests share: which CLIs are installed (a test of one
 * that is not is skipped, saying how to install it, except under
 * `MINDLINK_AGENTS_REQUIRED=1`, set by CI, where it fails), a model for both
 * fake APIs that collects when it is offered a `…collect` tool and reports
 * done after the result, the live processes working in a folder, and the
 * places the CLIs write to when they are not confined.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnvironment, parseConfig } from '../../../src/config.ts';
import { AGENT_CLIS } from '../../../src/engines/agents/agents.ts';
import type { AgentKind } from '../../../src/engines/agents/agent-cli.ts';
import type { AgentSetup } from '../../../src/engines/agents/agent-cli.ts';
import { ANTHROPIC_ERRORS, FakeAnthropic, blockText, bringsToolResult, userTexts, type AnthropicReply, type RecordedMessagesRequest } from '../../fakes/anthropic-api.ts';
import { FakeOpenAI, allTexts, lastMessage, textOf, type FakeReply, type RecordedRequest } from '../../fakes/openai-api.ts';

/** Where `npm run agents:install` puts the CLIs (the config's default). */
export const AGENTS_DIR = parseConfig({}).AGENTS_DIR;

/** Whether an agent CLI is installed (in `agents/` or on PATH). */
export function installed(kind: AgentKind): boolean {
  return AGENT_CLIS[kind].locate({ agentsDir: AGENTS_DIR, baseEnv: childEnvironment() }) !== null;
}

/** CI installs every CLI first and sets this: a missing one is then a failure, not a skip. */
export const REQUIRED = process.env.MINDLINK_AGENTS_REQUIRED === '1';

/**
 * The title of a CLI's suite, saying when it is skipped and why; and whether to skip it.
 *
 * @example
 * const s = suite('pi'); describe.skipIf(s.skip)(s.title, () => …);
 */
export function suite(kind: AgentKind): { title: string; skip: boolean } {
  const here = installed(kind);
  const { name, version } = AGENT_CLIS[kind].npm;
  if (!here && REQUIRED) throw new Error(`${kind}: ${name}@${version} is not installed, and MINDLINK_AGENTS_REQUIRED=1: run npm run agents:install -- ${kind}`);
  return { title: here ? `${kind} (${name}@${version})` : `${kind}: SKIPPED, ${name}@${version} is not installed (npm run agents:install -- ${kind})`, skip: !here };
}

/** The model of the OpenAI-compatible fake: collects 2 oak logs when it may, then says done; idles otherwise. */
export function openaiCollector(item = 'oak_log', count = 2): (req: RecordedRequest) => FakeReply {
  return (req) => {
    if (lastMessage(req)?.role === 'tool') return { content: `I have the ${count} logs now.\nSTATUS: done` };
    const collect = (req.body.tools ?? []).map((t) => t.function.name).find((n) => /collect$/.test(n));
    const wants = req.body.messages.some((m) => m.role === 'user' && /collect \d+ oak log/.test(textOf(m.content)));
    if (collect && wants) return { content: 'Going for the logs.', toolCalls: [{ name: collect, arguments: { item, count } }] };
    return { content: 'Waiting for a goal.\nSTATUS: working' };
  };
}

/** The same model on the Anthropic fake. */
export function anthropicCollector(item = 'oak_log', count = 2): (req: RecordedMessagesRequest) => AnthropicReply {
  return (req) => {
    if (bringsToolResult(req)) return { content: `I have the ${count} logs now.\nSTATUS: done` };
    const collect = (req.body.tools ?? []).map((t) => t.name).find((n) => /collect$/.test(n));
    const wants = userTexts(req).some((t) => /collect \d+ oak log/.test(t));
    if (collect && wants) return { content: 'Going for the logs.', toolUses: [{ name: collect, input: { item, count } }] };
    return { content: 'Waiting for a goal.\nSTATUS: working' };
  };
}

/** The live processes (not zombies) whose working directory is `dir` or inside it. */
export function processesIn(dir: string): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(join('/proc', entry, 'cwd'));
      if (cwd !== dir && !cwd.startsWith(`${dir}/`)) continue;
      const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z') continue;
      out.push({ pid: Number(entry), cmd: readFileSync(join('/proc', entry, 'cmdline'), 'utf8').replace(/\0/g, ' ').slice(0, 120) });
    } catch (err) {
      // A process that ended while it was looked at, or one of another user: not one of ours.
      if (!['ENOENT', 'EACCES', 'ESRCH'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
  return out;
}

/**
 * An `AGENTS_DIR` where pi looks installed (its `cli.js` is there, and does nothing): for tests of what is offered
 * when a CLI is there, without installing it.
 */
export function standInAgentsDir(dir: string): string {
  const cli = join(dir, 'pi', 'node_modules', '@mariozechner', 'pi-coding-agent', 'dist');
  mkdirSync(cli, { recursive: true });
  writeFileSync(join(cli, 'cli.js'), '');
  return dir;
}

/** The places the CLIs write to by default (their home folders and temp files), each with its mtime, or null when absent. */
export function defaultPlaces(): Record<string, number | null> {
  const home = homedir();
  const places = [
    join(home, '.claude'),
    join(home, '.claude.json'),
    join(home, '.config', 'opencode'),
    join(home, '.local', 'share', 'opencode'),
    join(home, '.local', 'state', 'opencode'),
    join(home, '.cache', 'opencode'),
    join(home, '.cache', 'claude-cli-nodejs'),
    join(home, '.pi'),
    join(tmpdir(), 'cc-socks'),
    join(tmpdir(), 'opencode'),
    join(tmpdir(), `claude-${process.getuid?.() ?? 0}`),
    join(tmpdir(), 'jiti'),
  ];
  const out: Record<string, number | null> = {};
  for (const p of places) out[p] = existsSync(p) ? statSync(p).mtimeMs : null;
  return out;
}

/** Files in `dir` whose names look like what opencode extracts into its temp folder (`.…-00000000.so`). */
export function strayLibraries(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((n) => /^\..*\.so$/.test(n)) : [];
}

/** How the fake model answers the next requests: the collector, never, out of credit, or overloaded. */
export type Answer = 'collect' | 'hang' | 'refuse' | 'unavailable';

/** A CLI's fake model, whichever API it speaks, seen the same way by the tests. */
export interface FakeModel {
  /** The config keys that point mindlink at it (and name the model). */
  env: Record<string, string>;
  /** The same for an engine built by hand. */
  setup: Pick<AgentSetup, 'models' | 'openai' | 'anthropic'>;
  /** Requests so far. */
  count(): number;
  /** The tools offered in the n-th request (1-based). */
  toolNames(n: number): string[];
  /** The n-th request's system prompt. */
  system(n: number): string;
  /** Every message's text in the n-th request. */
  texts(n: number): string[];
  /** Every tool result the model was given, in order. */
  toolResults(): string[];
  answer(how: Answer): void;
  /** Resolves once the n-th request came. */
  nth(n: number): Promise<unknown>;
  close(): Promise<void>;
}

/** The config keys that point mindlink's opencode and pi at an OpenAI-compatible fake (and name and price its model). */
export function openaiModelEnv(api: FakeOpenAI): Record<string, string> {
  return { LLM_BASE_URL: api.baseURL, LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-fake', LLM_PRICE_IN: '3', LLM_PRICE_OUT: '15' };
}

/**
 * The fake model a CLI talks to: Anthropic's Messages API for Claude Code, an OpenAI-compatible one for the others.
 *
 * @example
 * const model = await fakeModel('pi'); // model.env → LLM_BASE_URL, LLM_MODEL, …
 */
export async function fakeModel(kind: AgentKind): Promise<FakeModel> {
  if (kind === 'claude-code') {
    const api = await FakeAnthropic.start(anthropicCollector());
    const fixed: Record<Answer, AnthropicReply | undefined> = { collect: undefined, hang: { hang: true }, refuse: { error: ANTHROPIC_ERRORS.creditTooLow }, unavailable: { error: ANTHROPIC_ERRORS.overloaded } };
    return {
      env: { ANTHROPIC_BASE_URL: api.baseURL, ANTHROPIC_API_KEY: 'sk-ant-fake', CLAUDE_MODEL: 'claude-sonnet-4-5' },
      setup: { models: { 'claude-code': 'claude-sonnet-4-5' }, openai: undefined, anthropic: { apiKey: 'sk-ant-fake', baseURL: api.baseURL } },
      count: () => api.requests.length,
      toolNames: (n) => (api.requests[n - 1]?.body.tools ?? []).map((t) => t.name).filter((t) => !/Placeholder/.test(t)),
      system: (n) => blockText(api.requests[n - 1]?.body.system),
      texts: (n) => (api.requests[n - 1]?.body.messages ?? []).map((m) => blockText(m.content)),
      toolResults: () => api.requests.flatMap((r) => { const last = r.body.messages[r.body.messages.length - 1]; return last && Array.isArray(last.content) ? last.content.filter((b) => b.type === 'tool_result').map((b) => blockText(b.content)) : []; }),
      answer: (how) => {
        const reply = fixed[how];
        api.script = reply ? () => reply : anthropicCollector();
      },
      nth: (n) => api.nthRequest(n),
      close: () => api.close(),
    };
  }
  const api = await FakeOpenAI.start(openaiCollector());
  const fixed: Record<Answer, FakeReply | undefined> = {
    collect: undefined,
    hang: { hang: true },
    refuse: { error: { status: 429, code: 'insufficient_quota', type: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan and billing details.' } },
    unavailable: { error: { status: 503, type: 'server_error', message: 'The server is overloaded', retryAfter: '0' } },
  };
  return {
    env: openaiModelEnv(api),
    setup: { models: {}, openai: { baseURL: api.baseURL, model: 'fake-model', apiKey: 'sk-fake', priceIn: 3, priceOut: 15 }, anthropic: {} },
    count: () => api.requests.length,
    toolNames: (n) => (api.requests[n - 1]?.body.tools ?? []).map((t) => t.function.name),
    system: (n) => textOf(api.requests[n - 1]?.body.messages.find((m) => m.role === 'system')?.content),
    texts: (n) => {
      const r = api.requests[n - 1];
      return r ? allTexts(r) : [];
    },
    toolResults: () => api.requests.flatMap((r) => { const last = lastMessage(r); return last?.role === 'tool' ? [textOf(last.content)] : []; }),
    answer: (how) => {
      const reply = fixed[how];
      api.script = reply ? () => reply : openaiCollector();
    },
    nth: (n) => api.nthRequest(n),
    close: () => api.close(),
  };
}
