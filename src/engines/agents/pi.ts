/**
 * The `pi` engine's CLI: the pi coding agent (`@mariozechner/pi-coding-agent`,
 * a Node program, run with mindlink's own Node) as `pi -p --mode json`, the
 * prompt on stdin. Its built-in tools are off (`--no-builtin-tools`) and
 * nothing is discovered (extensions, skills, prompt templates, themes,
 * AGENTS.md); pi has no MCP client, so the extension `pi-extension.ts`
 * brings mindlink's MCP tools in. With the llm engine's endpoint as its
 * provider, that endpoint is written into its `models.json` as the provider
 * `mindlink`. Its settings, sessions and sign-in live in
 * `DATA_DIR/agents/pi/agent`. It answers exit code 0 even when the model
 * call failed: the last assistant message says so.
 */
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { writeAtomicSync } from '../../store/atomic-write.ts';
import {
  ensureDir,
  installedPackage,
  jsonLine,
  judgeProviderError,
  num,
  obj,
  onPath,
  shortLine,
  str,
  type AgentCli,
  type AgentSetup,
  type CliLocation,
  type RunFailure,
  type RunReader,
  type RunResult,
  type RunSpec,
} from './agent-cli.ts';
import type { CliCommand, CliExit } from './run-cli.ts';

/** The provider name pi knows the llm engine's endpoint by. */
const PROVIDER = 'mindlink';
/** The extension that brings mindlink's MCP tools into pi. */
const EXTENSION = fileURLToPath(new URL('./pi-extension.ts', import.meta.url));
/** pi's retries of its own: one agent-level retry after a second, none in the provider's SDK (mindlink's loop backs off too). */
const RETRY = { enabled: true, maxRetries: 1, baseDelayMs: 1000, provider: { maxRetries: 0 } };

/** The HTTP status at the head of one of pi's error messages (`429 You exceeded …`). */
function statusOf(message: string): number | undefined {
  const m = /^(\d{3})\b/.exec(message.trim());
  return m?.[1] ? Number(m[1]) : undefined;
}

/** What an error message of pi means. */
function judged(message: string): RunFailure {
  const text = shortLine(message);
  const kind = judgeProviderError(statusOf(text), undefined, text);
  return { kind, message: text };
}

/** Reads `pi -p --mode json`. */
class PiReader implements RunReader {
  private sessionId: string | undefined;
  private readonly texts: string[] = [];
  private readonly usage = { promptTokens: 0, completionTokens: 0, requests: 0, costUsd: 0 };
  private contextTokens: number | undefined;
  private failure: RunFailure | undefined;
  private noSession = false;

  constructor(private readonly log: Logger) {}

  stdout(line: string): boolean {
    // The partial messages are most of the stream and say nothing new.
    if (line.startsWith('{"type":"message_update"')) return false;
    const ev = jsonLine(line);
    if (!ev) return false;
    if (ev.type === 'session') this.sessionId = str(ev.id) ?? this.sessionId;
    else if (ev.type === 'message_end') this.message(obj(ev.message));
    else if (ev.type === 'auto_retry_start') {
      const f = judged(str(ev.errorMessage) ?? '');
      if (f.kind === 'refused') {
        this.failure = f;
        return true;
      }
      this.log.info({ attempt: ev.attempt, error: f.message }, 'pi retries a model request');
    } else if (ev.type === 'auto_retry_end' && ev.success === false) {
      this.failure = judged(str(ev.finalError) ?? 'the model request failed');
    }
    return false;
  }

  private message(m: Record<string, unknown> | undefined): void {
    if (m?.role !== 'assistant') return;
    const usage = obj(m.usage);
    const context = num(usage?.input) + num(usage?.cacheRead) + num(usage?.cacheWrite);
    this.usage.promptTokens += context;
    this.usage.completionTokens += num(usage?.output);
    this.usage.requests += 1;
    this.usage.costUsd += num(obj(usage?.cost)?.total);
    if (context > 0) this.contextTokens = context;
    if (m.stopReason === 'error') {
      this.failure = judged(str(m.errorMessage) ?? 'the model request failed');
      return;
    }
    // A later answer that came through means a retry worked.
    if (this.failure?.kind !== 'refused') this.failure = undefined;
    for (const c of Array.isArray(m.content) ? m.content : []) {
      const part = obj(c);
      const text = str(part?.text);
      if (part?.type === 'text' && text && text.trim()) this.texts.push(text);
    }
  }

  stderr(line: string): boolean {
    if (/No session found matching/i.test(line)) this.noSession = true;
    return false;
  }

  result(exit: CliExit): RunResult {
    let failure = this.failure;
    if (!failure && this.noSession) failure = { kind: 'no_session', message: 'the session to resume is gone' };
    if (!failure && exit.code !== 0 && !exit.killed) failure = { kind: 'failed', message: shortLine(exit.stderrTail.join(' ') || `pi exited with ${exit.code ?? exit.signal}`) };
    return { sessionId: this.sessionId, texts: [...this.texts], usage: { ...this.usage }, contextTokens: this.contextTokens, failure };
  }
}

/** A JSON file of pi's agent folder as an object: pi writes some of them too, so mindlink merges its keys in. An unreadable one is moved aside. */
function piJson(path: string, log: Logger): Record<string, unknown> {
  if (!existsSync(path)) return {};
  try {
    return obj(JSON.parse(readFileSync(path, 'utf8'))) ?? {};
  } catch (err) {
    const aside = `${path}.unreadable-${Date.now()}`;
    renameSync(path, aside);
    log.warn({ err, file: path, movedTo: aside }, "pi's file is unreadable; it was moved aside");
    return {};
  }
}

/** mindlink's keys in pi's settings.json and models.json (written only when they change). */
function writeAgentFiles(agentDir: string, spec: RunSpec, log: Logger): void {
  const settingsPath = join(agentDir, 'settings.json');
  const settings = piJson(settingsPath, log);
  const nextSettings = { ...settings, retry: RETRY, quietStartup: true };
  if (JSON.stringify(nextSettings) !== JSON.stringify(settings)) writeAtomicSync(settingsPath, `${JSON.stringify(nextSettings, null, 2)}\n`);
  const openai = spec.setup.models.pi ? undefined : spec.setup.openai;
  if (!openai) return;
  const modelsPath = join(agentDir, 'models.json');
  const models = piJson(modelsPath, log);
  const providers = obj(models.providers) ?? {};
  const ours = {
    baseUrl: openai.baseURL,
    api: 'openai-completions',
    apiKey: 'MINDLINK_LLM_API_KEY',
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
    models: [{ id: openai.model, contextWindow: 128_000, maxTokens: 8192, cost: { input: openai.priceIn ?? 0, output: openai.priceOut ?? 0, cacheRead: 0, cacheWrite: 0 } }],
  };
  const next = { ...models, providers: { ...providers, [PROVIDER]: ours } };
  if (JSON.stringify(next) !== JSON.stringify(models)) writeAtomicSync(modelsPath, `${JSON.stringify(next, null, 2)}\n`);
}

/** pi's session file of `id` (`sessions/<cwd>/<time>_<id>.jsonl`), or undefined. */
function sessionFile(agentDir: string, id: string): string | undefined {
  const root = join(agentDir, 'sessions');
  if (!existsSync(root)) return undefined;
  for (const folder of readdirSync(root)) {
    const dir = join(root, folder);
    const name = existsSync(dir) ? readdirSync(dir).find((n) => n.endsWith(`_${id}.jsonl`)) : undefined;
    if (name) return join(dir, name);
  }
  return undefined;
}

/**
 * How a run uses its session: resumes it; or, for a question, forks it into the run's temp folder (gone with
 * the run: pi cannot fork without keeping the fork); or keeps none.
 */
function sessionArgs(spec: RunSpec, agentDir: string): string[] {
  if (!spec.ephemeral) return spec.resume ? ['--session', spec.resume] : [];
  const file = spec.resume ? sessionFile(agentDir, spec.resume) : undefined;
  return file ? ['--fork', file, '--session-dir', spec.dirs.tmp] : ['--no-session'];
}

/** pi's folders, all under `home` (`DATA_DIR/agents/pi`). */
function homeEnv(setup: AgentSetup, home: string, tmp: string): Record<string, string> {
  return { ...setup.baseEnv, HOME: ensureDir(join(home, 'home')), PI_CODING_AGENT_DIR: ensureDir(join(home, 'agent')), PI_OFFLINE: '1', PI_TELEMETRY: '0', TMPDIR: tmp };
}

/**
 * pi.
 *
 * @example
 * const cli = pi.locate(setup); // null: `npm run agents:install -- pi`
 */
export const pi: AgentCli = {
  kind: 'pi',
  npm: { name: '@mariozechner/pi-coding-agent', version: '0.73.1' },

  locate(setup): CliLocation | null {
    const cli = join(installedPackage(setup.agentsDir, 'pi', '@mariozechner/pi-coding-agent'), 'dist', 'cli.js');
    if (existsSync(cli)) return { command: process.execPath, prefix: [cli] };
    const found = onPath(['pi'], setup.baseEnv);
    return found ? { command: found, prefix: [] } : null;
  },

  command(spec: RunSpec, cli: CliLocation, log: Logger): CliCommand {
    const { home, tmp, work } = spec.dirs;
    const agentDir = ensureDir(join(home, 'agent'));
    writeAgentFiles(agentDir, spec, log);
    return {
      command: cli.command,
      args: [
        ...cli.prefix,
        '-p',
        '--mode',
        'json',
        '--system-prompt',
        spec.system,
        '--no-builtin-tools',
        '--no-extensions',
        '--no-skills',
        '--no-prompt-templates',
        '--no-themes',
        '--no-context-files',
        '-e',
        EXTENSION,
        ...(spec.setup.models.pi ? ['--model', spec.setup.models.pi] : spec.setup.openai ? ['--provider', PROVIDER, '--model', spec.setup.openai.model] : []),
        ...sessionArgs(spec, agentDir),
      ],
      cwd: work,
      env: {
        ...homeEnv(spec.setup, home, tmp),
        MINDLINK_MCP_URL: spec.mcp.url,
        MINDLINK_MCP_SECRET: spec.mcp.secret,
        MINDLINK_MCP_TIMEOUT_MS: String(spec.setup.timeoutMs),
        MINDLINK_LLM_API_KEY: spec.setup.openai?.apiKey ?? 'none',
      },
      input: spec.prompt,
    };
  },

  signIn(setup, { home, tmp }, cli) {
    return {
      command: { command: cli.command, args: [...cli.prefix, '--no-extensions', '--no-skills', '--no-context-files'], cwd: ensureDir(join(home, 'home')), env: homeEnv(setup, home, tmp) },
      hint: 'Type /login and pick a provider (a subscription or an API key), then /quit; then set PI_MODEL=<provider>/<model>.',
    };
  },

  reader: (log) => new PiReader(log),
};
