/**
 * The `claude-code` engine's CLI: Claude Code (`@anthropic-ai/claude-code`,
 * its native binary, which needs no Node of its own) run as
 * `claude -p --output-format stream-json`. Its built-in tools are off
 * (`--tools ""`): mindlink's MCP server (Streamable HTTP, the run's secret in
 * a header taken from the environment) is its only tool source, allowed
 * with `--allowedTools mcp__mindlink__*` and `--permission-mode dontAsk`
 * (anything else is denied without asking). `--setting-sources ""` keeps
 * out every settings file and CLAUDE.md above the work folder. Its config,
 * sessions and sign-in live in `DATA_DIR/agents/claude-code/config`.
 * A 401 or billing answer the CLI would retry ends the run at once.
 */
import { statSync } from 'node:fs';
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

/** Retries of the CLI's own for a 429 or 5xx (its default is 10, minutes long): mindlink's loop backs off too. */
const CLI_RETRIES = 2;
/** The launcher npm puts in place until its install script copies the real binary over it is this small. */
const STUB_MAX_BYTES = 100_000;

/** The `error` kinds of Claude Code's synthetic error messages that mean "no credit, no access". */
const REFUSAL_KINDS = new Set(['authentication_failed', 'billing_error', 'oauth_org_not_allowed']);
/** The kinds that only mean "not now". */
const UNAVAILABLE_KINDS = new Set(['rate_limit', 'server_error', 'overloaded']);

function isRealBinary(path: string): boolean {
  try {
    return statSync(path).size > STUB_MAX_BYTES;
  } catch {
    return false;
  }
}

/** Reads `claude -p --output-format stream-json --verbose`. */
class ClaudeReader implements RunReader {
  private sessionId: string | undefined;
  private readonly texts: string[] = [];
  private readonly messages = new Set<string>();
  private contextTokens: number | undefined;
  private failure: RunFailure | undefined;
  private apiError: { kind: string; status: number | undefined; text: string } | undefined;
  private final: Record<string, unknown> | undefined;
  private noSession = false;

  constructor(private readonly log: Logger) {}

  stdout(line: string): boolean {
    const ev = jsonLine(line);
    if (!ev) return false;
    this.sessionId = str(ev.session_id) ?? this.sessionId;
    switch (ev.type) {
      case 'system':
        return this.system(ev);
      case 'assistant':
        this.assistant(ev);
        return false;
      case 'result':
        this.final = ev;
        return false;
      default:
        return false;
    }
  }

  stderr(line: string): boolean {
    if (/No conversation found with session ID/i.test(line)) this.noSession = true;
    return false;
  }

  private system(ev: Record<string, unknown>): boolean {
    if (ev.subtype === 'init') {
      const servers = Array.isArray(ev.mcp_servers) ? ev.mcp_servers.map(obj) : [];
      const ours = servers.find((s) => s?.name === AVATAR_SERVER);
      if (ours?.status !== 'connected') {
        this.failure = { kind: 'failed', message: `Claude Code could not reach mindlink's MCP server (${String(ours?.status ?? 'not listed')})` };
        return true;
      }
      return false;
    }
    if (ev.subtype === 'api_retry') {
      const kind = str(ev.error) ?? '';
      const status = typeof ev.error_status === 'number' ? ev.error_status : undefined;
      if (REFUSAL_KINDS.has(kind) || judgeProviderError(status, undefined, kind) === 'refused') {
        // It would retry a refusal for minutes: the answer is known now.
        this.failure = { kind: 'refused', message: shortLine(`${status ?? ''} ${kind.replace(/_/g, ' ')}`) };
        return true;
      }
      this.log.info({ attempt: ev.attempt, status, kind }, 'Claude Code retries a model request');
    }
    return false;
  }

  private assistant(ev: Record<string, unknown>): void {
    const message = obj(ev.message);
    if (!message) return;
    if (ev.error !== undefined || ev.is_api_error_message === true || message.model === '<synthetic>') {
      const text = (Array.isArray(message.content) ? message.content.map((c) => str(obj(c)?.text) ?? '').join(' ') : '').trim();
      this.apiError = { kind: str(ev.error) ?? '', status: typeof ev.api_error_status === 'number' ? ev.api_error_status : undefined, text };
      return;
    }
    const id = str(message.id);
    if (id) this.messages.add(id);
    const usage = obj(message.usage);
    if (usage) this.contextTokens = num(usage.input_tokens) + num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens);
    for (const c of Array.isArray(message.content) ? message.content : []) {
      const part = obj(c);
      const text = str(part?.text);
      if (part?.type === 'text' && text && text.trim()) this.texts.push(text);
    }
  }

  result(exit: CliExit): RunResult {
    const r = this.final;
    const usage = obj(r?.usage);
    const cost = typeof r?.total_cost_usd === 'number' ? r.total_cost_usd : undefined;
    const result: RunResult = {
      sessionId: this.sessionId,
      texts: [...this.texts],
      usage: {
        promptTokens: num(usage?.input_tokens) + num(usage?.cache_creation_input_tokens) + num(usage?.cache_read_input_tokens),
        completionTokens: num(usage?.output_tokens),
        requests: this.messages.size,
      },
      // Its total_cost_usd is the session's running total (restored on --resume), not the run's.
      sessionCostUsd: cost,
      contextTokens: this.contextTokens,
    };
    if (this.texts.length === 0 && typeof r?.result === 'string' && r.result.trim() && r.is_error !== true) result.texts.push(r.result);
    result.failure = this.failure ?? this.failed(r, exit);
    return result;
  }

  private failed(r: Record<string, unknown> | undefined, exit: CliExit): RunFailure | undefined {
    if (this.noSession) return { kind: 'no_session', message: 'the session to resume is gone' };
    if (r && r.is_error !== true && exit.code === 0) return undefined;
    const e = this.apiError;
    const status = typeof r?.api_error_status === 'number' ? r.api_error_status : e?.status;
    const text = shortLine(e?.text || str(r?.result) || exit.stderrTail.join(' ') || `Claude Code exited with ${exit.code ?? exit.signal}`);
    if (e && REFUSAL_KINDS.has(e.kind)) return { kind: 'refused', message: text };
    if (e && UNAVAILABLE_KINDS.has(e.kind)) return { kind: 'unavailable', message: text };
    const judged = judgeProviderError(status, undefined, text);
    return { kind: judged === 'failed' ? 'failed' : judged, message: text };
  }
}

/** Claude Code's folders, all under `home` (`DATA_DIR/agents/claude-code`), and what it is told to leave alone. */
function homeEnv(setup: AgentSetup, home: string, tmp: string): Record<string, string> {
  return {
    ...setup.baseEnv,
    HOME: ensureDir(join(home, 'home')),
    CLAUDE_CONFIG_DIR: ensureDir(join(home, 'config')),
    XDG_CONFIG_HOME: join(home, 'home', '.config'),
    XDG_DATA_HOME: join(home, 'home', '.local', 'share'),
    XDG_STATE_HOME: join(home, 'home', '.local', 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
    TMPDIR: tmp,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    ...(setup.anthropic.apiKey ? { ANTHROPIC_API_KEY: setup.anthropic.apiKey } : {}),
    ...(setup.anthropic.baseURL ? { ANTHROPIC_BASE_URL: setup.anthropic.baseURL } : {}),
  };
}

/**
 * Claude Code.
 *
 * @example
 * const cli = claudeCode.locate(setup); // null: `npm run agents:install -- claude-code`
 */
export const claudeCode: AgentCli = {
  kind: 'claude-code',
  npm: { name: '@anthropic-ai/claude-code', version: '2.1.332' },

  locate(setup): CliLocation | null {
    const scope = installedPackage(setup.agentsDir, 'claude-code', '@anthropic-ai');
    for (const tag of [platformTag(), `${platformTag()}-musl`]) {
      const binary = join(scope, `claude-code-${tag}`, process.platform === 'win32' ? 'claude.exe' : 'claude');
      if (isRealBinary(binary)) return { command: binary, prefix: [] };
    }
    const launcher = join(scope, 'claude-code', 'bin', 'claude.exe');
    if (isRealBinary(launcher)) return { command: launcher, prefix: [] };
    const found = onPath(['claude'], setup.baseEnv);
    return found ? { command: found, prefix: [] } : null;
  },

  command(spec: RunSpec, cli: CliLocation): CliCommand {
    const { home, tmp, work } = spec.dirs;
    const { setup } = spec;
    const mcpConfig = { mcpServers: { [AVATAR_SERVER]: { type: 'http', url: spec.mcp.url, headers: { Authorization: 'Bearer ${MINDLINK_MCP_SECRET}' } } } };
    const model = setup.models['claude-code'];
    const session = spec.resume ? ['--resume', spec.resume, ...(spec.ephemeral ? ['--fork-session'] : [])] : [];
    const env: Record<string, string> = {
      ...homeEnv(setup, home, tmp),
      CLAUDE_CODE_MAX_RETRIES: String(CLI_RETRIES),
      MCP_TOOL_TIMEOUT: String(setup.timeoutMs),
      MINDLINK_MCP_SECRET: spec.mcp.secret,
    };
    return {
      command: cli.command,
      args: [
        ...cli.prefix,
        '-p',
        '--output-format',
        'stream-json',
        '--verbose',
        '--setting-sources',
        '',
        '--system-prompt',
        spec.system,
        '--mcp-config',
        JSON.stringify(mcpConfig),
        '--strict-mcp-config',
        '--tools',
        '',
        '--allowedTools',
        `mcp__${AVATAR_SERVER}__*`,
        '--permission-mode',
        'dontAsk',
        ...(model ? ['--model', model] : []),
        ...session,
        ...(spec.ephemeral ? ['--no-session-persistence'] : []),
      ],
      cwd: work,
      env,
      input: spec.prompt,
    };
  },

  signIn(setup, { home, tmp }, cli) {
    return {
      command: { command: cli.command, args: [...cli.prefix, 'auth', 'login'], cwd: ensureDir(join(home, 'home')), env: homeEnv(setup, home, tmp) },
      hint: 'Sign in with your Anthropic account (a Claude subscription or a Console account); or set ANTHROPIC_API_KEY instead.',
    };
  },

  reader: (log) => new ClaudeReader(log),
};
