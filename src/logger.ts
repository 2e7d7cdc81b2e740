/**
 * Logging: pino to stderr (pretty on a TTY), with tokens redacted.
 * stdout belongs to the console bridge's chat lines and is never logged to.
 */
import { format } from 'node:util';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

const REDACT = [
  'token',
  '*.token',
  'config.TELEGRAM_TOKEN',
  'config.DISCORD_TOKEN',
  'config.LLM_API_KEY',
  'TELEGRAM_TOKEN',
  'DISCORD_TOKEN',
  'LLM_API_KEY',
  'config.NATS_TOKEN',
  'config.NATS_PASS',
  'NATS_TOKEN',
  'NATS_PASS',
  'config.DATABASE_URL',
  'DATABASE_URL',
  'pass',
  '*.pass',
  'apiKey',
  '*.apiKey',
  'headers.authorization',
  '*.headers.authorization',
];

/** Strings that must never appear in a log line or a chat post (the configured secrets). */
const secrets = new Set<string>();

/** Register a secret so that {@link scrubSecrets} and the logger remove it wherever it appears. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 6) secrets.add(value);
}

/**
 * Replace every registered secret, and anything shaped like a bot token or API key, with `[redacted]`.
 *
 * @example
 * scrubSecrets('token 123:ABC') // → 'token [redacted]' once 123:ABC is registered
 */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('[redacted]');
  return out
    .replace(/\b\d{6,}:[A-Za-z0-9_-]{30,}\b/g, '[redacted]') // Telegram bot token shape
    .replace(/\bsk-[A-Za-z0-9_-]{16,}\b/g, '[redacted]') // OpenAI-style key
    .replace(/\b[A-Za-z0-9_-]{24,}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,}\b/g, '[redacted]'); // Discord token shape
}

/** An MCP token (`src/people/mcp-tokens.ts`): shown once in its owner's chat, never in a log line. */
const MCP_TOKEN = /\bmindlink_[A-Za-z0-9_-]{43}/g;

/** A log line as written: {@link scrubSecrets}, and no MCP token. */
function scrubLogLine(line: string): string {
  return scrubSecrets(line).replace(MCP_TOKEN, '[redacted]');
}

/**
 * Create the root logger, writing to stderr.
 *
 * @example
 * const log = createLogger('info'); log.info({ avatar: 'demo' }, 'spawned');
 */
export function createLogger(level: string, opts: { pretty?: boolean; sync?: boolean } = {}): Logger {
  const pretty = opts.pretty ?? process.stderr.isTTY === true;
  const hooks = {
    streamWrite: scrubLogLine,
  };
  if (pretty) {
    return pino({
      level,
      redact: REDACT,
      hooks,
      transport: { target: 'pino-pretty', options: { destination: 2, colorize: true } },
    });
  }
  // `sync`: one write per line, whole: for an avatar host, whose lines share mindlink's stderr.
  return pino({ level, redact: REDACT, hooks }, pino.destination({ fd: 2, sync: opts.sync === true }));
}

/**
 * A child logger bound to one avatar, unless the logger is bound to it already (pino would write the
 * key twice: `"avatar":"demo","avatar":"demo"`). `more` adds other bindings (`component`).
 *
 * @example
 * this.log = forAvatar(opts.log, 'demo', { component: 'game' });
 */
export function forAvatar(log: Logger, avatar: string, more: Record<string, unknown> = {}): Logger {
  const bound = log.bindings().avatar === avatar;
  const bindings = bound ? more : { avatar, ...more };
  return Object.keys(bindings).length > 0 ? log.child(bindings) : log;
}

/**
 * stdout carries chat only: whatever a library prints with `console` (prismarine-auth announces its
 * sign-ins, mineflayer warns) goes to the log instead, secrets scrubbed.
 *
 * @example
 * routeConsoleToLog(log); // in the entry point, once
 */
export function routeConsoleToLog(log: Logger): void {
  const to =
    (level: 'debug' | 'warn') =>
    (...args: unknown[]): void => {
      log[level]({ from: 'console' }, scrubSecrets(format(...args)).slice(0, 2000));
    };
  console.log = to('debug');
  console.info = to('debug');
  console.debug = to('debug');
  console.warn = to('warn');
  console.error = to('warn');
}

/** A logger that drops everything, for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
