/**
 * The `opencode` engine's CLI: opencode (`opencode-ai`, its native binary)
 * run as `opencode run --format json`, the prompt on stdin. Its config comes
 * whole through `OPENCODE_CONFIG_CONTENT`: a `mindlink` agent whose prompt
 * replaces opencode's coding prompt, every permission denied but mindlink's
 * MCP tools (so its built-in tools are off), mindlink's MCP server as a
 * remote server with the run's secret in a header taken from the
 * environment, and, when opencode is to use the llm engine's endpoint, that
 * endpoint as an OpenAI-compatible provider. Project config, AGENTS.md,
 * Claude Code files, sharing and auto-update are off. Its data, sessions and
 * sign-in live in `DATA_DIR/agents/opencode/home`. It retries a 429 five
 * times, saying nothing on stdout; its log on stderr names each failed try,
 * so an out-of-credit answer ends the run at the first.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { AVATAR_SERVER } from './avatar-mcp.ts';
import {
  ensureDir,
  installedPackage,
  jsonLine,
  judgeProviderError,
  num,
  obj,
  onPath,
  platformTag,
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

/** The provider id opencode knows the llm engine's endpoint by. */
const PROVIDER = 'mindlink';

/** opencode's platform packages are named by `windows`, not `win32`. */
function opencodeTag(): string {
  return platformTag().replace(/^win32-/, 'windows-');
}

/** The code of an OpenAI-style error body, if any. */
function errorCode(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  const parsed = jsonLine(body);
  const code = obj(parsed?.error)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Reads `opencode run --format json` (stdout) and its `--print-logs` (stderr). */
class OpencodeReader implements RunReader {
  private sessionId: string | undefined;
  private readonly texts: string[] = [];
  private readonly usage = { promptTokens: 0, completionTokens: 0, requests: 0, costUsd: 0 };
  private contextTokens: number | undefined;
  private failure: RunFailure | undefined;
  private noSession = false;

  constructor(private readonly log: Logger) {}

  stdout(line: string): boolean {
    const ev = jsonLine(line);
    if (!ev) return false;
    this.sessionId = str(ev.sessionID) ?? this.sessionId;
    const part = obj(ev.part);
    if (ev.type === 'text') {
      const text = str(part?.text);
      if (text && text.trim()) this.texts.push(text);
    } else if (ev.type === 'step_finish') {
      const tokens = obj(part?.tokens);
      const cache = obj(tokens?.cache);
      const context = num(tokens?.input) + num(cache?.read) + num(cache?.write);
      this.usage.promptTokens += context;
      this.usage.completionTokens += num(tokens?.output) + num(tokens?.reasoning);
      this.usage.requests += 1;
      this.usage.costUsd += num(part?.cost);
      if (context > 0) this.contextTokens = context;
    } else if (ev.type === 'error') {
      const error = obj(ev.error);
      const data = obj(error?.data);
      const message = shortLine(str(data?.message) ?? str(error?.name) ?? 'opencode reported an error');
      const status = typeof data?.statusCode === 'number' ? data.statusCode : undefined;
      const judged = error?.name === 'ProviderAuthError' ? 'refused' : judgeProviderError(status, errorCode(data?.responseBody), message);
      this.failure = { kind: judged, message: status ? `${status}: ${message}` : message };
    }
    return false;
  }

  stderr(line: string): boolean {
    if (/Session not found/i.test(line)) this.noSession = true;
    // `--print-logs`: each failed model request is one `stream error` line, before opencode waits to retry it.
    const m = /message="stream error".*error\.error="([^"]*)/.exec(line);
    if (m?.[1] !== undefined) {
      const message = shortLine(m[1].replace(/^AI_APICallError:\s*/, ''));
      if (judgeProviderError(undefined, undefined, message) === 'refused') {
        this.failure = { kind: 'refused', message };
        return true;
      }
      this.log.info({ error: message }, 'opencode retries a model request');
    }
    return false;
  }

  result(exit: CliExit): RunResult {
    let failure = this.failure;
    if (!failure && this.noSession) failure = { kind: 'no_session', message: 'the session to resume is gone' };
    if (!failure && exit.code !== 0 && !exit.killed) {
      failure = { kind: 'failed', message: shortLine(exit.stderrTail.filter((l) => !/^timestamp=/.test(l)).join(' ') || `opencode exited with ${exit.code ?? exit.signal}`) };
    }
    return {
      sessionId: this.sessionId,
      texts: [...this.texts],
      usage: { ...this.usage },
      contextTokens: this.contextTokens,
      failure,
    };
  }
}

/** The `opencode.json` of one run. */
function config(spec: RunSpec): Record<string, unknown> {
  const { setup } = spec;
  const named = setup.models.opencode;
  const openai = named ? undefined : setup.openai;
  const model = named ?? (openai ? `${PROVIDER}/${openai.model}` : undefined);
  return {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    ...(model ? { model, small_model: model } : {}),
    default_agent: 'mindlink',
    permission: { '*': 'deny', [`${AVATAR_SERVER}_*`]: 'allow' },
    agent: { mindlink: { mode: 'primary', description: 'A Minecraft avatar run by mindlink', prompt: spec.system } },
    ...(openai
      ? {
          provider: {
            [PROVIDER]: {
              npm: '@ai-sdk/openai-compatible',
              name: 'mindlink (LLM_BASE_URL)',
              options: { baseURL: openai.baseURL, apiKey: '{env:MINDLINK_LLM_API_KEY}' },
              models: {
                [openai.model]: { name: openai.model, tool_call: true, limit: { context: 128_000, output: 8192 }, cost: { input: openai.priceIn ?? 0, output: openai.priceOut ?? 0 } },
              },
            },
          },
        }
      : {}),
    mcp: {
      [AVATAR_SERVER]: { type: 'remote', url: spec.mcp.url, enabled: true, oauth: false, timeout: setup.timeoutMs, headers: { Authorization: 'Bearer {env:MINDLINK_MCP_SECRET}' } },
    },
  };
}

/**
 * opencode's folders, all under `home` (`DATA_DIR/agents/opencode/home`), and what it is told to leave alone. Its
 * config folder holds an empty node_modules and a lock naming its plugin package: opencode then skips the npm
 * install it otherwise starts there on every run.
 */
function homeEnv(setup: AgentSetup, home: string, tmp: string): Record<string, string> {
  const root = join(home, 'home');
  const configDir = ensureDir(join(root, '.config', 'opencode'));
  ensureDir(join(configDir, 'node_modules'));
  const lock = join(configDir, 'package-lock.json');
  if (!existsSync(lock)) writeFileSync(lock, JSON.stringify({ packages: { '': { dependencies: { '@opencode-ai/plugin': '*' } } } }));
  return {
    ...setup.baseEnv,
    HOME: root,
    XDG_CONFIG_HOME: join(root, '.config'),
    XDG_DATA_HOME: join(root, '.local', 'share'),
    XDG_CACHE_HOME: join(root, '.cache'),
    XDG_STATE_HOME: join(root, '.local', 'state'),
    TMPDIR: tmp,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_PROJECT_CONFIG: '1',
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  };
}

/**
 * opencode.
 *
 * @example
 * const cli = opencode.locate(setup); // null: `npm run agents:install -- opencode`
 */
export const opencode: AgentCli = {
  kind: 'opencode',
  npm: { name: 'opencode-ai', version: '1.18.33' },

  locate(setup): CliLocation | null {
    const exe = process.platform === 'win32' ? 'opencode.exe' : 'opencode';
    for (const tag of [opencodeTag(), `${opencodeTag()}-baseline`, `${opencodeTag()}-musl`]) {
      const binary = join(installedPackage(setup.agentsDir, 'opencode', `opencode-${tag}`), 'bin', exe);
      if (existsSync(binary)) return { command: binary, prefix: [] };
    }
    const found = onPath(['opencode'], setup.baseEnv);
    return found ? { command: found, prefix: [] } : null;
  },

  command(spec: RunSpec, cli: CliLocation): CliCommand {
    const { home, tmp, work } = spec.dirs;
    const usesEndpoint = !spec.setup.models.opencode && spec.setup.openai !== undefined;
    const env: Record<string, string> = {
      ...homeEnv(spec.setup, home, tmp),
      OPENCODE_CONFIG_CONTENT: JSON.stringify(config(spec)),
      // The model list comes from models.dev; the llm engine's endpoint is described in full in the config.
      ...(usesEndpoint ? { OPENCODE_DISABLE_MODELS_FETCH: '1' } : {}),
      MINDLINK_MCP_SECRET: spec.mcp.secret,
      MINDLINK_LLM_API_KEY: spec.setup.openai?.apiKey ?? 'none',
    };
    const session = spec.resume ? ['--session', spec.resume, ...(spec.ephemeral ? ['--fork'] : [])] : [];
    return {
      command: cli.command,
      args: [...cli.prefix, 'run', '--format', 'json', '--title', `${spec.avatar} (mindlink)`, '--print-logs', '--log-level', 'ERROR', ...session],
      cwd: work,
      env,
      input: spec.prompt,
    };
  },

  signIn(setup, { home, tmp }, cli) {
    return {
      command: { command: cli.command, args: [...cli.prefix, 'auth', 'login'], cwd: ensureDir(join(home, 'home')), env: homeEnv(setup, home, tmp) },
      hint: 'Pick a provider and sign in (or paste its API key); then set OPENCODE_MODEL=<provider>/<model>.',
    };
  },

  reader: (log) => new OpencodeReader(log),
};
