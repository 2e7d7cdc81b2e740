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
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { ConfigError } from './errors.ts';

const onOff = z
  .string()
  .transform((v) => v.trim().toLowerCase())
  .pipe(z.enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no']))
  .transform((v) => ['on', 'true', '1', 'yes'].includes(v));

const url = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const port = z.coerce.number().int().min(1).max(65535);
const identity = z
  .string()
  .regex(/^(discord|telegram|console):[A-Za-z0-9_-]+$/, 'must look like telegram:123 or discord:456');

/** The schema of every configuration key, with its default. */
export const ConfigSchema = z.object({
  DATA_DIR: z.string().default('data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CONSOLE: onOff.default(true),
  ENGINE: z.enum(['scripted', 'llm']).default('scripted'),
  ADMINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(identity)),

  MC_HOST: z.string().optional(),
  MC_PORT: port.optional(),
  MC_VERSION: z.string().regex(/^1\.\d+(\.\d+)?$/, 'must be a Minecraft version like 1.21.4').default('1.21.4'),

  TELEGRAM_TOKEN: z.string().regex(/^\d+:[A-Za-z0-9_-]+$/, 'must look like 123456:ABC-DEF…').optional(),
  TELEGRAM_API_ROOT: url.default('https://api.telegram.org'),
  DISCORD_TOKEN: z.string().min(20, 'is too short to be a bot token').optional(),
  DISCORD_API_URL: url.optional(),
  DISCORD_GUILD_ID: z.string().regex(/^\d+$/, 'must be a numeric guild id').optional(),

  LLM_BASE_URL: url.default('https://api.openai.com/v1'),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LLM_API_KEY: z.string().optional(),

  /** Base delay between automatic turns (ms). */
  LOOP_PACE_MS: z.coerce.number().int().min(10).default(3000),
  /** Cap of the delay when turns change nothing (ms). */
  LOOP_MAX_PACE_MS: z.coerce.number().int().min(10).default(60_000),
});

/** The parsed configuration. */
export type Config = z.infer<typeof ConfigSchema>;

/** Keys whose values are secrets: never logged, never shown in chat. */
export const SECRET_KEYS = ['TELEGRAM_TOKEN', 'DISCORD_TOKEN', 'LLM_API_KEY'] as const;

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
  return result.data;
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
