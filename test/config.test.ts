import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigSchema, gameProcessEnvironment, loadConfig, parseConfig } from '../src/config.ts';
import { ConfigError } from '../src/errors.ts';

/** The ConfigError a bad environment gives (fails the test if none is thrown). */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`parseConfig accepted ${JSON.stringify(env)}`);
}

describe('parseConfig', () => {
  it('GIVEN an empty environment THEN every key has its default', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      DATA_DIR: 'data',
      LOG_LEVEL: 'info',
      CONSOLE: true,
      ENGINE: 'scripted',
      ADMINS: [],
      EMBEDDED: true,
      TELEGRAM_API_ROOT: 'https://api.telegram.org',
      LLM_BASE_URL: 'https://api.openai.com/v1',
      LOOP_PACE_MS: 3000,
      LOOP_MAX_PACE_MS: 60_000,
    });
    for (const key of ['MC_HOST', 'MC_PORT', 'MC_VERSION', 'TELEGRAM_TOKEN', 'DISCORD_TOKEN', 'DISCORD_API_URL', 'DISCORD_GUILD_ID', 'LLM_API_KEY'] as const) {
      expect(config[key]).toBeUndefined();
    }
  });

  it('GIVEN good values THEN they are parsed into their types', () => {
    const config = parseConfig({
      MC_PORT: '25565',
      CONSOLE: 'off',
      ENGINE: 'llm',
      LLM_MODEL: 'llama3.1',
      LLM_BASE_URL: 'http://127.0.0.1:11434/v1',
      ADMINS: 'telegram:123, discord:80351110224678912',
      TELEGRAM_TOKEN: '123456:ABC-def_ghi',
      TELEGRAM_API_ROOT: 'http://127.0.0.1:8081',
    });
    expect(config.MC_PORT).toBe(25565);
    expect(config.CONSOLE).toBe(false);
    expect(config.ENGINE).toBe('llm');
    expect(config.ADMINS).toEqual(['telegram:123', 'discord:80351110224678912']);
    expect(config.TELEGRAM_API_ROOT).toBe('http://127.0.0.1:8081');
  });

  for (const [admins, says] of [
    ['telegram:abc', /^config: ADMINS="telegram:abc" "telegram:abc": a Telegram identity is telegram: and the user's numeric id/],
    ['discord:123', /^config: ADMINS="discord:123" "discord:123": a Discord identity is discord: and the user's 17–20 digit id/],
    ['telegram:1,console:root', /"console:root": the console identity is console:local/],
    ['slack:1', /"slack:1": an identity is telegram:<user id>, discord:<user id> or console:local/],
  ] as const) {
    it(`GIVEN ADMINS=${admins} THEN start-up is refused with one line saying what a real identity is`, () => {
      expect(() => parseConfig({ ADMINS: admins })).toThrow(says);
    });
  }

  it('GIVEN empty strings THEN they count as unset', () => {
    const config = parseConfig({ MC_PORT: '', ENGINE: '', ADMINS: '', TELEGRAM_TOKEN: '', CONSOLE: '  ', TELEGRAM_API_ROOT: '' });
    expect(config.MC_PORT).toBeUndefined();
    expect(config.ENGINE).toBe('scripted');
    expect(config.ADMINS).toEqual([]);
    expect(config.TELEGRAM_TOKEN).toBeUndefined();
    expect(config.CONSOLE).toBe(true);
    expect(config.TELEGRAM_API_ROOT).toBe('https://api.telegram.org');
  });

  it.each([
    ['MC_PORT', 'abc'],
    ['MC_PORT', '70000'],
    ['MC_PORT', '25.5'],
    ['ENGINE', 'gpt'],
    ['ADMINS', 'telegram:1,bob'],
    ['ADMINS', 'slack:42'],
    ['TELEGRAM_API_ROOT', 'not a url'],
    ['TELEGRAM_API_ROOT', 'ftp://example.org'],
    ['CONSOLE', 'maybe'],
  ])('GIVEN %s=%s THEN a ConfigError of one line names the key', (key, value) => {
    const err = configError({ [key]: value });
    expect(err.message).not.toContain('\n');
    expect(err.message).toContain(key);
  });

  it('GIVEN a bad key among good ones THEN the message names the bad key only', () => {
    const err = configError({ ENGINE: 'llm', MC_PORT: 'x', DATA_DIR: '/tmp/d' });
    expect(err.message).toMatch(/^config: MC_PORT=/);
    expect(err.message).not.toContain('ENGINE');
  });

  it('GIVEN a malformed TELEGRAM_TOKEN THEN the message names the key but never shows the token', () => {
    const token = 'my-very-secret-token-value-0123456789';
    const err = configError({ TELEGRAM_TOKEN: token });
    expect(err.message).toContain('TELEGRAM_TOKEN');
    expect(err.message).not.toContain(token);
    expect(err.message).not.toContain('secret');
    expect(err.message).not.toContain('\n');
  });

  it('GIVEN MCP=on THEN it is served by the dashboard: off by default, and refused in one line without WEB', () => {
    expect(parseConfig({}).MCP).toBe(false);
    expect(parseConfig({ MCP: 'on' }).MCP).toBe(true);
    expect(() => parseConfig({ MCP: 'on', WEB: 'off' })).toThrow(/^config: MCP=on needs the dashboard's server: set WEB=on too/);
  });

  it('GIVEN a too-short DISCORD_TOKEN THEN the message never shows it', () => {
    const err = configError({ DISCORD_TOKEN: 'short-secret' });
    expect(err.message).toContain('DISCORD_TOKEN');
    expect(err.message).not.toContain('short-secret');
  });
});

describe('gameProcessEnvironment', () => {
  it('GIVEN extra CA certificates in mindlink\'s environment THEN the world and the avatar hosts start without them, with the rest kept', () => {
    const env = gameProcessEnvironment({ PATH: '/bin', NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', NODE_OPTIONS: '--import x', DATA_DIR: '/tmp/d', UNSET: undefined });
    expect(env).toEqual({ PATH: '/bin', NODE_OPTIONS: '--import x', DATA_DIR: '/tmp/d' });
  });
});

describe('avatar hosts over NATS', () => {
  it('GIVEN no HOSTS THEN the hosts are child processes; GIVEN HOSTS THEN its servers are a list, with the NATS defaults', () => {
    expect(parseConfig({}).HOSTS).toBeUndefined();
    const config = parseConfig({ HOSTS: 'nats://a:4222, tls://b:4222', NATS_TOKEN: 't0ken-123' });
    expect(config).toMatchObject({ HOSTS: ['nats://a:4222', 'tls://b:4222'], NATS_TOKEN: 't0ken-123', NATS_CLUSTER: 'main', HOST_SILENCE_MS: 10_000, WORLD_HOST: '127.0.0.1' });
  });

  it('GIVEN a HOSTS that is not a NATS URL THEN one line names the key and never shows the value (it may hold a password)', () => {
    const err = configError({ HOSTS: 'http://user:s3cret-pass@a:4222' });
    expect(err.message).toMatch(/^config: HOSTS=\(hidden\) must be nats:\/\/host:port/);
    expect(err.message).not.toContain('s3cret-pass');
  });

  it('GIVEN a NATS_CLUSTER that is not one subject token THEN one line names it', () => {
    expect(configError({ HOSTS: 'nats://a:4222', NATS_CLUSTER: 'a.>' }).message).toMatch(/^config: NATS_CLUSTER="a\.>" must be letters, digits, - or _/);
  });

  it('GIVEN HOSTS and the embedded world listening everywhere THEN WORLD_PUBLIC_HOST is required, in one line', () => {
    expect(configError({ HOSTS: 'nats://a:4222', WORLD_HOST: '0.0.0.0' }).message).toMatch(/^config: WORLD_HOST=0\.0\.0\.0 listens everywhere: set WORLD_PUBLIC_HOST/);
    expect(parseConfig({ HOSTS: 'nats://a:4222', WORLD_HOST: '0.0.0.0', WORLD_PUBLIC_HOST: 'core.lan' }).WORLD_PUBLIC_HOST).toBe('core.lan');
  });
});

describe('llm engine configuration', () => {
  it('GIVEN ENGINE=llm without LLM_MODEL THEN start-up stops with one line naming LLM_MODEL', () => {
    const err = configError({ ENGINE: 'llm' });
    expect(err.message).toBe('config: ENGINE=llm needs LLM_MODEL (the model name at LLM_BASE_URL, e.g. gpt-4o-mini or llama3.1)');
  });

  it('GIVEN ENGINE=hybrid without LLM_MODEL THEN start-up stops with one line naming LLM_MODEL', () => {
    expect(configError({ ENGINE: 'hybrid' }).message).toBe('config: ENGINE=hybrid needs LLM_MODEL (the model name at LLM_BASE_URL, e.g. gpt-4o-mini or llama3.1)');
  });

  it('GIVEN HYBRID_MODEL THEN it is llm by default, an agent engine lets ENGINE=hybrid start without LLM_MODEL, and another engine is refused in one line', () => {
    expect(parseConfig({}).HYBRID_MODEL).toBe('llm');
    expect(parseConfig({ ENGINE: 'hybrid', HYBRID_MODEL: 'pi' })).toMatchObject({ ENGINE: 'hybrid', HYBRID_MODEL: 'pi' });
    // Unset ENGINE still follows the llm engine's model: an agent named for the hybrid does not make it the default.
    expect(parseConfig({ HYBRID_MODEL: 'claude-code' }).ENGINE).toBe('scripted');
    expect(configError({ ENGINE: 'hybrid', HYBRID_MODEL: 'llm' }).message).toMatch(/^config: ENGINE=hybrid needs LLM_MODEL/);
    expect(configError({ HYBRID_MODEL: 'hybrid' }).message).toMatch(/^config: HYBRID_MODEL="hybrid" /);
    expect(configError({ HYBRID_MODEL: 'scripted' }).message).toMatch(/^config: HYBRID_MODEL="scripted" /);
  });

  it('GIVEN no ENGINE THEN new avatars are hybrid once the model can be asked, and scripted while it cannot', () => {
    expect(parseConfig({ LLM_MODEL: 'llama3.1', LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }).ENGINE).toBe('hybrid');
    expect(parseConfig({ LLM_MODEL: 'gpt-4o-mini', LLM_API_KEY: 'sk-test' }).ENGINE).toBe('hybrid');
    // A remote endpoint without a key cannot be asked: scripted, and start-up goes on.
    expect(parseConfig({ LLM_MODEL: 'gpt-4o-mini' }).ENGINE).toBe('scripted');
    expect(parseConfig({}).ENGINE).toBe('scripted');
    expect(parseConfig({ ENGINE: 'scripted', LLM_MODEL: 'llama3.1', LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }).ENGINE).toBe('scripted');
  });

  it('GIVEN ENGINE=llm on OpenAI without a key THEN the line names LLM_API_KEY', () => {
    const err = configError({ ENGINE: 'llm', LLM_MODEL: 'gpt-4o-mini' });
    expect(err.message).toMatch(/^config: ENGINE=llm needs LLM_API_KEY for api\.openai\.com /);
    expect(err.message).not.toMatch(/\n/);
  });

  it.each(['http://localhost:11434/v1', 'http://127.0.0.1:1234/v1', 'http://192.168.1.20:8000/v1', 'http://[::1]:8080/v1', 'http://gpu-box.local:11434/v1'])(
    'GIVEN a server on this machine or the local network (%s) THEN no key is needed',
    (url) => {
      expect(parseConfig({ ENGINE: 'llm', LLM_MODEL: 'llama3.1', LLM_BASE_URL: url }).LLM_BASE_URL).toBe(url);
    },
  );

  it('GIVEN ENGINE=scripted THEN the llm keys may stay unset, and the llm defaults hold', () => {
    const config = parseConfig({});
    expect(config.LLM_MODEL).toBeUndefined();
    expect(config).toMatchObject({ LLM_STREAM: false, LLM_MAX_STEPS: 8, LLM_BUDGET_CHARS: 16_000, LLM_TIMEOUT_MS: 120_000 });
  });

  it('GIVEN prices and a bad price THEN good ones parse and the bad one is named', () => {
    expect(parseConfig({ LLM_PRICE_IN: '0.15', LLM_PRICE_OUT: '0.6' })).toMatchObject({ LLM_PRICE_IN: 0.15, LLM_PRICE_OUT: 0.6 });
    expect(configError({ LLM_PRICE_OUT: '-1' }).message).toMatch(/^config: LLM_PRICE_OUT="-1" /);
    expect(configError({ LLM_PRICE_IN: 'cheap' }).message).toMatch(/^config: LLM_PRICE_IN="cheap" /);
  });

  it('GIVEN a bad LLM_BASE_URL next to a key THEN the message names the URL and never shows the key', () => {
    const err = configError({ ENGINE: 'llm', LLM_MODEL: 'm', LLM_BASE_URL: 'ftp://example.com', LLM_API_KEY: 'sk-secret-value-123' });
    expect(err.message).toMatch(/^config: LLM_BASE_URL=/);
    expect(err.message).not.toContain('sk-secret-value-123');
  });
});

describe('loadConfig', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-config-'));
  });

  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a .env and the environment THEN the environment wins, and an empty environment value does not hide the file', async () => {
    const envFile = join(dir, '.env');
    await writeFile(envFile, ['ENGINE=llm', 'LOG_LEVEL=debug', 'DATA_DIR=/from/file', 'MC_PORT=25565', '# a comment', ''].join('\n'));
    vi.stubEnv('ENGINE', 'scripted');
    vi.stubEnv('DATA_DIR', '/from/env');
    vi.stubEnv('LOG_LEVEL', ''); // empty counts as unset: the file's value applies
    vi.stubEnv('MC_PORT', '');
    const config = loadConfig(envFile);
    expect(config.ENGINE).toBe('scripted');
    expect(config.DATA_DIR).toBe('/from/env');
    expect(config.LOG_LEVEL).toBe('debug');
    expect(config.MC_PORT).toBe(25565);
  });

  it('GIVEN no .env file THEN the environment alone is used', () => {
    vi.stubEnv('ENGINE', 'llm');
    vi.stubEnv('LLM_MODEL', 'llama3.1');
    vi.stubEnv('LLM_BASE_URL', 'http://localhost:11434/v1');
    expect(loadConfig(join(dir, 'missing.env')).ENGINE).toBe('llm');
  });

  it('GIVEN a bad value in .env THEN loadConfig throws a ConfigError naming the key', async () => {
    const envFile = join(dir, '.env');
    await writeFile(envFile, 'MC_PORT=port\n');
    vi.stubEnv('MC_PORT', '');
    expect(() => loadConfig(envFile)).toThrow(ConfigError);
    expect(() => loadConfig(envFile)).toThrow(/MC_PORT/);
  });
});

describe('.env.example', () => {
  it('GIVEN the config schema THEN .env.example lists exactly its keys, each with a comment, and says nothing is missing from this build', async () => {
    const text = await readFile(new URL('../.env.example', import.meta.url), 'utf8');
    const keys = [...text.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect([...keys].sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
    expect(text).not.toMatch(/not in this build/i);
    const lines = text.split('\n');
    for (const key of keys) {
      const i = lines.findIndex((l) => l.startsWith(`${key}=`));
      // A key is explained by the comment right above it, or is one of a block under one comment.
      const above = lines.slice(0, i).reverse().find((l) => !/^[A-Z][A-Z0-9_]*=/.test(l));
      expect(above, key).toMatch(/^# /);
    }
  });
});
