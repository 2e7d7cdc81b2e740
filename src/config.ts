/**
 * Configuration: the one reader of `process.env`.
 *
 * Values come from the environment and from a `.env` file in the working
 * directory; the environment wins, and an empty value counts as unset.
 * zod parses everything once; a bad value becomes a {@link ConfigError}
 * whose message is one line naming the key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { ENGINE_KINDS, HYBRID_MODEL_KINDS, needsModel, type EngineKind } from './engines/kinds.ts';
import { ConfigError } from './errors.ts';
import { identityProblem } from './store/identity.ts';

const onOff = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no']))
  .transform((v) => ['on', 'true', '1', 'yes'].includes(v));

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
/** NATS servers: one URL or several, comma-separated (`nats://host:4222`, `tls://…`; a user and password or a token may be in it). */
const natsServers = z
  .string()
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.url({ protocol: /^(nats|tls|wss?)$/, error: 'must be nats://host:port (or tls://, ws://, wss://), several comma-separated' })).min(1));
const port = z.coerce.number().int().min(1).max(65535);
const identity = z.string().superRefine((value, ctx) => {
  const problem = identityProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `"${value}": ${problem}` });
});

/** The schema of every configuration key, with its default. */
export const ConfigSchema = z.object({
  DATA_DIR: z.string().default('data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CONSOLE: onOff.default(true),
  /** The engine of new avatars; unset: `hybrid` when the model is configured, else `scripted` (see {@link parseConfig}). */
  ENGINE: z.enum(ENGINE_KINDS).optional(),
  ADMINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(identity)),

  /** An external server added at start as the default server (`default`); the embedded world runs beside it. */
  MC_HOST: z.string().trim().min(1).max(253).optional(),
  MC_PORT: port.optional(),
  /** The version of `MC_HOST` (found by a status ping when unset), or of the embedded world when there is no `MC_HOST`. */
  MC_VERSION: z.string().regex(/^(1\.\d+(\.\d+)?|\d{2}\.\d+(\.\d+)?)$/, 'must be a Minecraft version like 1.21.4').optional(),
  /** The embedded world (on by default; `off` leaves only the servers added by `MC_HOST` or `/server add`). */
  EMBEDDED: onOff.default(true),

  TELEGRAM_TOKEN: z.string().regex(/^\d+:[A-Za-z0-9_-]+$/, 'must look like 123456:ABC-DEF…').optional(),
  TELEGRAM_API_ROOT: url.default('https://api.telegram.org'),
  DISCORD_TOKEN: z.string().min(20, 'is too short to be a bot token').optional(),
  DISCORD_API_URL: url.optional(),
  DISCORD_GUILD_ID: z.string().regex(/^\d+$/, 'must be a numeric guild id').optional(),

  /** An OpenAI-compatible chat completions endpoint (OpenAI, Ollama, LM Studio, vLLM, OpenRouter…). */
  LLM_BASE_URL: url.default('https://api.openai.com/v1'),
  /** The model name at that endpoint; the llm engine needs it. */
  LLM_MODEL: z.string().trim().min(1).max(200).optional(),
  /** The endpoint's key; optional for a server on this machine or the local network. */
  LLM_API_KEY: z.string().optional(),
  /** Price per million prompt / completion tokens, for /usage (optional). */
  LLM_PRICE_IN: z.coerce.number().min(0, 'must be 0 or more').max(10_000).optional(),
  LLM_PRICE_OUT: z.coerce.number().min(0, 'must be 0 or more').max(10_000).optional(),
  /** Stream replies (usage is asked for in the stream). */
  LLM_STREAM: onOff.default(false),
  /** Most tool steps in one turn. */
  LLM_MAX_STEPS: z.coerce.number().int().min(1).max(32).default(8),
  /** Most characters of messages in one request (tool schemas excluded); compaction keeps every request under it. */
  LLM_BUDGET_CHARS: z.coerce.number().int().min(4000).max(1_000_000).default(16_000),
  /** How long one request may take (ms) before it is retried. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),

  /** Where `npm run agents:install` puts the agent CLIs (docs/agents.md); a CLI on PATH is used when it is not there. */
  AGENTS_DIR: z.string().default(fileURLToPath(new URL('../agents', import.meta.url))),
  /**
   * The engine a hybrid avatar's model turns go to (docs/engines.md): the llm engine, or an agent engine
   * (docs/agents.md), which needs its CLI but no `LLM_MODEL`.
   */
  HYBRID_MODEL: z.enum(HYBRID_MODEL_KINDS).default('llm'),
  /** How long one turn of an agent engine may run (ms) before its CLI is killed. */
  AGENT_TIMEOUT_MS: z.coerce.number().int().min(5000).max(3_600_000).default(600_000),
  /** opencode's model, `provider/model` (unset: the llm engine's endpoint when LLM_MODEL is set, else opencode's default). */
  OPENCODE_MODEL: z.string().trim().min(1).max(200).optional(),
  /** pi's model, `provider/model` (unset: the llm engine's endpoint when LLM_MODEL is set, else pi's default). */
  PI_MODEL: z.string().trim().min(1).max(200).optional(),
  /** Claude Code's model (`sonnet`, `opus`, a full name; unset: its default). */
  CLAUDE_MODEL: z.string().trim().min(1).max(200).optional(),
  /** Claude Code's API key (unset: the sign-in made with `npm run agents:login -- claude-code`). */
  ANTHROPIC_API_KEY: z.string().optional(),
  /** Claude Code's endpoint, without `/v1` (unset: Anthropic's). */
  ANTHROPIC_BASE_URL: url.optional(),

  /** The web dashboard (docs/dashboard.md), served by mindlink itself. */
  WEB: onOff.default(true),
  /** The address the dashboard listens on; loopback unless set otherwise. */
  WEB_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /**
   * The dashboard's port; 0 picks a free one (the sign-in links carry the port in use). Unset: 4780, or a
   * free one when 4780 is taken.
   */
  WEB_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The people's MCP server at `/mcp` on the dashboard's server (docs/mcp.md); needs WEB. */
  MCP: onOff.default(false),

  /** Base delay between automatic turns (ms). */
  LOOP_PACE_MS: z.coerce.number().int().min(10).default(3000),
  /** Cap of the delay when turns change nothing (ms). */
  LOOP_MAX_PACE_MS: z.coerce.number().int().min(10).default(60_000),
  /** How often a `health` line (memory, event-loop delay) is logged at debug level (ms). */
  HEALTH_LOG_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * Avatar hosts: child processes that run the avatars' games, skills and reflexes (docs/avatar-hosts.md).
   * 1 runs them in mindlink's own process; the default is one host per core.
   */
  AVATAR_HOSTS: z.coerce.number().int().min(1).max(64).default(availableParallelism()),
  /**
   * Avatar hosts on any machine over NATS instead (docs/many-machines.md): the NATS server (several
   * comma-separated); hosts join with `npm run host -- --nats <url> --id <name>`. Unset: child processes.
   */
  HOSTS: natsServers.optional(),
  /** NATS authentication: a token, or a user and password (or either in the URL). */
  NATS_TOKEN: z.string().min(1).optional(),
  NATS_USER: z.string().min(1).optional(),
  NATS_PASS: z.string().optional(),
  /** The NATS subjects' namespace, `mindlink.<NATS_CLUSTER>.…`: one core and its hosts per name. */
  NATS_CLUSTER: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, - or _ (a NATS subject token)').default('main'),
  /** A NATS host not heard from for this long is taken as gone and its avatars move; a host that does not hear its core for as long leaves its games (ms). */
  HOST_SILENCE_MS: z.coerce.number().int().min(3000).max(600_000).default(10_000),
  /** How many avatars a NATS host (`npm run host`) takes; the default is 50 per core of its machine. */
  HOST_CAPACITY: z.coerce.number().int().min(1).max(100_000).default(50 * availableParallelism()),
  /** The address the embedded world listens on (`0.0.0.0`: every interface, for NATS hosts on other machines). */
  WORLD_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** The address NATS hosts reach the embedded world at (unset: `WORLD_HOST`; needed when that is `0.0.0.0` or `::`). */
  WORLD_PUBLIC_HOST: z.string().trim().min(1).optional(),
  /**
   * The PostgreSQL database (`postgres://user:password@host:5432/db`, docs/many-machines.md): the store is kept
   * there instead of the lowdb files in `DATA_DIR`, and with `HOSTS` each playing avatar is held by a lease there,
   * renewed by its NATS host. Unset: the files.
   */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres://user:password@host:5432/database URL' }).optional(),
  /**
   * How long a lease lasts unless renewed (every third of it), in ms (docs/many-machines.md): an avatar's, renewed
   * by its NATS host while it hears the core (a host that dies or is cut off loses its avatars after this long),
   * and the front end's, renewed by the running core (a standby core takes over this long after it dies).
   */
  LEASE_MS: z.coerce.number().int().min(3000).max(600_000).default(15_000),
});

/** The parsed configuration: every key with its default, `ENGINE` decided. */
export type Config = Omit<z.infer<typeof ConfigSchema>, 'ENGINE'> & { ENGINE: EngineKind };

/**
 * Whether the data files check their writers (`STORE_CHECKS=on`; the test suite sets it): the data is frozen
 * and each update changes a copy, so a write outside a record owner's update throws (src/store/json-file.ts).
 *
 * @example
 * storeChecks({ STORE_CHECKS: 'on' }) // → true
 */
export function storeChecks(env: Record<string, string | undefined> = process.env): boolean {
  return onOff.safeParse(env.STORE_CHECKS ?? 'off').data ?? false;
}

/** Keys whose values are secrets: never logged, never shown in chat. */
export const SECRET_KEYS = ['TELEGRAM_TOKEN', 'DISCORD_TOKEN', 'LLM_API_KEY', 'ANTHROPIC_API_KEY', 'NATS_TOKEN', 'NATS_PASS', 'HOSTS', 'DATABASE_URL'] as const;

/** What an agent CLI may take from mindlink's own environment: where programs are, the locale, proxies and certificates. */
const CHILD_ENV_KEYS = /^(PATH|LANG|LANGUAGE|LC_[A-Z]+|TZ|(HTTPS?|ALL|NO)_PROXY|(https?|all|no)_proxy|SSL_CERT_(FILE|DIR)|NODE_EXTRA_CA_CERTS|SYSTEMROOT|WINDIR|COMSPEC|PATHEXT)$/;

/**
 * The environment an agent CLI starts from: the few keys of {@link CHILD_ENV_KEYS}, never a token, a key or a
 * folder of mindlink's (the engine adds the CLI's own).
 *
 * @example
 * spawn(cli, args, { env: { ...childEnvironment(), HOME: home } });
 */
export function childEnvironment(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && CHILD_ENV_KEYS.test(k)) out[k] = v;
  return out;
}

/**
 * The environment mindlink's game processes (the embedded world, the avatar host children) start with: mindlink's,
 * less `NODE_EXTRA_CA_CERTS`. Node reads that file at every start (some 40 ms of CPU for a system-wide bundle), and
 * neither makes a TLS connection: the world plays in offline mode, and a host plays on the embedded world and
 * offline servers only (an avatar with Microsoft sign-in plays from the core, which keeps the certificates).
 *
 * @example
 * fork(entry, args, { env: gameProcessEnvironment() });
 */
export function gameProcessEnvironment(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && k !== 'NODE_EXTRA_CA_CERTS') out[k] = v;
  return out;
}

/**
 * Parse a configuration from an environment-like record.
 *
 * @example
 * const config = parseConfig({ DATA_DIR: '/tmp/x', CONSOLE: 'off' });
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && v.trim() !== '') clean[k] = v;
  }
  const result = ConfigSchema.safeParse(clean);
  if (!result.success) {
    const issue = result.error.issues[0];
    const key = String(issue?.path[0] ?? 'config');
    const shown = (SECRET_KEYS as readonly string[]).includes(key) ? '(hidden)' : JSON.stringify(clean[key] ?? '');
    throw new ConfigError(`config: ${key}=${shown} ${issue?.message ?? 'is invalid'}`);
  }
  if (result.data.MCP && !result.data.WEB) throw new ConfigError('config: MCP=on needs the dashboard\'s server: set WEB=on too (it serves /mcp)');
  if (result.data.HOSTS && result.data.EMBEDDED && !result.data.WORLD_PUBLIC_HOST && /^(0\.0\.0\.0|::|\[::\])$/.test(result.data.WORLD_HOST)) {
    throw new ConfigError(`config: WORLD_HOST=${result.data.WORLD_HOST} listens everywhere: set WORLD_PUBLIC_HOST to the address the NATS hosts reach this machine at`);
  }
  const model = llmSetupProblem(result.data);
  const chosen = result.data.ENGINE;
  if (chosen && needsModel(chosen, result.data.HYBRID_MODEL) && model) throw new ConfigError(`config: ENGINE=${chosen} ${model}`);
  // New avatars play hybrid once a model is there to ask; without one, scripted.
  return { ...result.data, ENGINE: chosen ?? (model ? 'scripted' : 'hybrid') };
}

/** Hosts that need no API key: this machine and the local network (Ollama, LM Studio, llama.cpp…). */
function isLocalHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    h === 'localhost' ||
    h.endsWith('.local') ||
    h === '::1' ||
    /^127\./.test(h) ||
    /^10\./.test(h) ||
    /^192\.168\./.test(h) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(h) ||
    /^f[cd][0-9a-f]{2}:/.test(h)
  );
}

/**
 * What keeps the llm engine from working with this configuration, as the end
 * of one line naming the key (`needs LLM_MODEL …`), or null when it can run.
 *
 * @example
 * const problem = llmSetupProblem(config); // 'needs LLM_MODEL (the model name at LLM_BASE_URL)'
 */
export function llmSetupProblem(config: Pick<Config, 'LLM_MODEL' | 'LLM_API_KEY' | 'LLM_BASE_URL'>): string | null {
  if (!config.LLM_MODEL) return 'needs LLM_MODEL (the model name at LLM_BASE_URL, e.g. gpt-4o-mini or llama3.1)';
  if (!config.LLM_API_KEY && !isLocalHost(new URL(config.LLM_BASE_URL).hostname)) {
    return `needs LLM_API_KEY for ${new URL(config.LLM_BASE_URL).host} (only a server on this machine or the local network can go without)`;
  }
  return null;
}

/**
 * Load the configuration from `process.env` and `.env` (environment wins).
 *
 * @example
 * const config = loadConfig(); // throws ConfigError with one line on a bad key
 */
export function loadConfig(envFile = resolve(process.cwd(), '.env')): Config {
  let fromFile: Record<string, string> = {};
  if (existsSync(envFile)) {
    try {
      fromFile = parseEnv(readFileSync(envFile, 'utf8')) as Record<string, string>;
    } catch (err) {
      throw new ConfigError(`config: ${envFile} cannot be read: ${(err as Error).message}`);
    }
  }
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && v.trim() !== '') merged[k] = v;
  }
  return parseConfig(merged);
}
