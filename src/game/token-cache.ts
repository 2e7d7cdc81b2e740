/**
 * The Microsoft sign-in tokens of one account, for prismarine-auth: one
 * file, `<dir>/<account>.microsoft.json`, readable by its owner only (0600,
 * in a 0700 folder), written atomically (a temp file, then a rename). Every
 * token read or written is registered as a secret, so no log line or post
 * can carry it. prismarine-auth asks for one cache per part of the sign-in
 * (`live`, `xbl`, `mca` …); each is one key of the file.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { registerSecret } from '../logger.ts';
import { readPrivateJson, writePrivateJson } from './private-file.ts';

/** mindlink's own part of the file (prismarine-auth's parts are named `live`, `xbl`, `mca` …). */
const OWN = 'mindlink';

/** One part of the cache, as prismarine-auth uses it. */
export interface AuthCache {
  reset(): Promise<void>;
  getCached(): Promise<Record<string, unknown>>;
  setCached(value: Record<string, unknown>): Promise<void>;
  setCachedPartial(value: Record<string, unknown>): Promise<void>;
}

/** prismarine-auth's cache factory: one {@link AuthCache} per part of the sign-in. */
export type AuthCacheFactory = (options: { username: string; cacheName: string }) => AuthCache;

/** Register every string under a key that names a token (access_token, Token, XSTSToken …) as a secret. */
function registerTokens(value: unknown, key = ''): void {
  if (typeof value === 'string') {
    if (/token|ticket|secret|password/i.test(key)) registerSecret(value);
    return;
  }
  if (!value || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) registerTokens(v, k);
}

/**
 * @example
 * const cache = new TokenCache('data/accounts', 'bob');
 * new Authflow('bob', cache.factory, { flow: 'live', authTitle }, onCode);
 */
export class TokenCache {
  /** The cache file. */
  readonly file: string;
  #parts: Record<string, Record<string, unknown>> | undefined;

  constructor(dir: string, account: string) {
    this.file = path.join(dir, `${account}.microsoft.json`);
  }

  /** The factory to hand prismarine-auth. */
  readonly factory: AuthCacheFactory = ({ cacheName }) => ({
    reset: async () => this.#set(cacheName, {}),
    getCached: async () => this.#read()[cacheName] ?? {},
    setCached: async (value) => this.#set(cacheName, value),
    setCachedPartial: async (value) => this.#set(cacheName, { ...(this.#read()[cacheName] ?? {}), ...value }),
  });

  /** Whether any token is stored. */
  hasTokens(): boolean {
    return Object.values(this.#read()).some((part) => Object.keys(part).length > 0);
  }

  /** The Minecraft profile name the account signed in as last (kept beside the tokens). */
  get profileName(): string | undefined {
    const name = this.#read()[OWN]?.profile;
    return typeof name === 'string' ? name : undefined;
  }

  set profileName(name: string | undefined) {
    this.#set(OWN, name === undefined ? {} : { profile: name });
  }

  /** Forget the account: the file is removed (the next sign-in asks for a code again). */
  forget(): void {
    this.#parts = {};
    rmSync(this.file, { force: true });
  }

  #read(): Record<string, Record<string, unknown>> {
    if (this.#parts) return this.#parts;
    // No file yet, or one that does not parse: the sign-in starts from nothing (and asks for a code).
    const parts = readPrivateJson(this.file) as Record<string, Record<string, unknown>>;
    registerTokens(parts);
    this.#parts = parts;
    return parts;
  }

  #set(cacheName: string, value: Record<string, unknown>): void {
    const parts = this.#read();
    parts[cacheName] = value;
    registerTokens(value);
    writePrivateJson(this.file, parts);
  }
}
