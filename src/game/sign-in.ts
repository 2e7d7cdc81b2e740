/**
 * Microsoft sign-in for one avatar, headless: prismarine-auth's device-code
 * flow (the one minecraft-protocol uses: the Nintendo Switch title, `live`
 * flow), with the tokens in the avatar's own {@link TokenCache}. When a
 * code is needed it is handed to `onCode` (the core sends it to the owner);
 * a code that expires unused is followed by one more, then the sign-in
 * gives up. With the tokens cached, a sign-in needs no code at all.
 */
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type prismarineAuth from 'prismarine-auth';
import { registerSecret, scrubSecrets, type Logger } from '../logger.ts';
import { cleanLine } from '../sanitize.ts';
import { TokenCache, type AuthCacheFactory } from './token-cache.ts';
import { unreachableCode } from './unreachable.ts';

/** A code the owner types at Microsoft's page. */
export interface SignInCode {
  userCode: string;
  verificationUri: string;
  /** How long the code is valid (ms). */
  expiresInMs: number;
  /** 1 for the first code, 2 for the one that follows an expired first. */
  attempt: number;
}

/** What a game needs to join as the signed-in player. */
export interface JavaSession {
  accessToken: string;
  profile: { id: string; name: string };
  /** Whether the account signed in as this profile before (its name was said already). */
  known: boolean;
  /** The player's chat-signing keys (minecraft-protocol's `profileKeys`), when Microsoft gave them. */
  certificates?: { profileKeys?: unknown };
}

/**
 * Why a sign-in failed: no code was used in time (twice), the account has no Minecraft, Microsoft refused,
 * or Microsoft could not be reached (nothing answered: worth trying again later, unlike the others).
 */
export type SignInFailure = 'codes_expired' | 'no_minecraft' | 'refused' | 'unreachable';

/** A sign-in that failed, with words for the owner. */
export class SignInError extends Error {
  readonly code: SignInFailure;
  /** For `unreachable`: the network error's code (`ECONNREFUSED`, `ENOTFOUND` …). */
  readonly errno: string | undefined;
  constructor(code: SignInFailure, message: string, errno?: string) {
    super(message);
    this.name = 'SignInError';
    this.code = code;
    this.errno = errno;
  }
}

/** Microsoft's device-code answer, as prismarine-auth passes it on. */
export interface DeviceCodeResponse {
  user_code: string;
  verification_uri: string;
  expires_in: number;
}

/** The part of prismarine-auth's `Authflow` a sign-in uses. */
export interface JavaAuthflow {
  getMinecraftJavaToken(options: { fetchProfile: boolean; fetchCertificates: boolean }): Promise<{
    token: string;
    certificates?: { profileKeys?: unknown } | undefined;
  }>;
}

/** Builds the Authflow of an account (prismarine-auth's by default). */
export type AuthflowFactory = (account: string, cache: AuthCacheFactory, onCode: (response: DeviceCodeResponse) => void) => JavaAuthflow;

/** prismarine-auth's Authflow with the device-code flow minecraft-protocol uses for Java Edition. */
export const prismarineAuthflow: AuthflowFactory = (account, cache, onCode) => {
  // Loaded by the first sign-in: most avatars never sign in, and it is heavy.
  const { Authflow, Titles } = createRequire(import.meta.url)('prismarine-auth') as typeof prismarineAuth;
  return new Authflow(account, cache, { flow: 'live', authTitle: Titles.MinecraftNintendoSwitch, deviceType: 'Nintendo' }, onCode) as unknown as JavaAuthflow;
};

/**
 * prismarine-auth retries a failed step (a code that expired asks for a new one) unless the failure is
 * a URIError: thrown from the code callback, it ends the sign-in at once, with no further code asked for.
 */
class SignInStopped extends URIError {}

/** Codes handed out per sign-in before it gives up: the first, and one after it expired. */
const CODES_PER_SIGN_IN = 2;

/** The Minecraft profile of the signed-in account (prismarine-auth's endpoint, with its headers). */
const PROFILE_URL = 'https://api.minecraftservices.com/minecraft/profile';
const PROFILE_HEADERS = { 'Content-Type': 'application/json', 'User-Agent': 'MinecraftLauncher/2.2.10675' };
/** A profile request with no answer in this time is a network failure (ms). */
const PROFILE_TIMEOUT_MS = 30_000;

/** The profile service does not take the account's Minecraft token (401, 403): the tokens kept are of no use. */
class TokenRefused extends Error {}

/** The profile's id and name; null when the account owns no Minecraft: Java Edition (Microsoft answers 404). */
async function minecraftProfile(token: string): Promise<{ id: string; name: string } | null> {
  const res = await fetch(PROFILE_URL, { headers: { ...PROFILE_HEADERS, Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(PROFILE_TIMEOUT_MS) });
  if (res.status === 404) return null;
  if (res.status === 401 || res.status === 403) throw new TokenRefused(`the Minecraft profile service does not take its token (${res.status})`);
  if (!res.ok) throw new Error(`the Minecraft profile service answered ${res.status}`);
  const body = (await res.json()) as { id?: unknown; name?: unknown };
  return typeof body.id === 'string' && typeof body.name === 'string' && body.id && body.name ? { id: body.id, name: body.name } : null;
}

/** A failed sign-in in words: Microsoft could not be reached (said by the error's cause), or it refused. */
function failureOf(err: unknown): SignInError {
  const errno = unreachableCode(err);
  if (errno) return new SignInError('unreachable', `Microsoft could not be reached (${errno})`, errno);
  const said = cleanLine(scrubSecrets((err as Error)?.message ?? String(err))).slice(0, 200);
  return new SignInError('refused', `Microsoft refused the sign-in (${said})`);
}

/** Options of a {@link MicrosoftSignIn}. */
export interface MicrosoftSignInOptions {
  /** The account's name in the cache (the avatar's). */
  account: string;
  /** The folder of the token caches (`DATA_DIR/accounts`). */
  dir: string;
  log: Logger;
}

/**
 * @example
 * const signIn = new MicrosoftSignIn({ account: 'bob', dir: 'data/accounts', log });
 * const session = await signIn.session((code) => dmOwner(code)); // throws SignInError
 */
export class MicrosoftSignIn {
  readonly cache: TokenCache;
  #opts: MicrosoftSignInOptions;
  #waiting = false;
  #inFlight: Promise<JavaSession> | undefined;

  constructor(opts: MicrosoftSignInOptions) {
    this.#opts = opts;
    this.cache = new TokenCache(opts.dir, opts.account);
  }

  /** Whether a code was handed out and the sign-in waits for the owner to use it. */
  get waitingForCode(): boolean {
    return this.#waiting;
  }

  /**
   * Sign in (from the cache when it can), handing codes to `onCode`. Throws {@link SignInError}. A call
   * while a sign-in is under way (the avatar stopped and played again) waits for that one: one code at a time.
   */
  session(onCode: (code: SignInCode) => void): Promise<JavaSession> {
    this.#inFlight ??= this.#signIn(onCode).finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  #signIn(onCode: (code: SignInCode) => void): Promise<JavaSession> {
    const allowed = CODES_PER_SIGN_IN;
    const log = this.#opts.log;
    let codes = 0;
    let settled = false;
    return new Promise<JavaSession>((resolve, reject) => {
      const fail = (err: SignInError): void => {
        if (settled) return;
        settled = true;
        this.#waiting = false;
        reject(err);
      };
      const flow = prismarineAuthflow(this.#opts.account, this.cache.factory, (response) => {
        codes += 1;
        if (settled || codes > allowed) {
          fail(new SignInError('codes_expired', `nobody signed in with the ${allowed} codes sent to its owner before they expired`));
          throw new SignInStopped('sign-in stopped: the codes expired unused');
        }
        this.#waiting = true;
        log.info({ attempt: codes, expiresInS: response.expires_in }, 'Microsoft sign-in: a code is needed; it goes to the owner');
        onCode({ userCode: cleanLine(response.user_code), verificationUri: cleanLine(response.verification_uri), expiresInMs: response.expires_in * 1000, attempt: codes });
      });
      // The profile is asked for here, not by prismarine-auth, which answers undefined both for an account
      // without Minecraft and for a profile service it could not reach (and the tokens must not go for that).
      flow
        .getMinecraftJavaToken({ fetchProfile: false, fetchCertificates: true })
        .then(async (result) => {
          registerSecret(result.token);
          return { result, profile: settled ? null : await minecraftProfile(result.token) };
        })
        .then(
          ({ result, profile }) => {
            if (settled) return;
            if (!profile) {
              // Signed in, but not with an account that owns Minecraft: the next sign-in starts afresh.
              this.cache.forget();
              fail(new SignInError('no_minecraft', 'the Microsoft account it was signed in with has no Minecraft: Java Edition profile (it does not own the game)'));
              return;
            }
            settled = true;
            this.#waiting = false;
            const known = this.cache.profileName === profile.name;
            if (!known) this.cache.profileName = profile.name;
            resolve({ accessToken: result.token, profile, known, ...(result.certificates ? { certificates: result.certificates } : {}) });
          },
          (err: unknown) => {
            if (err instanceof SignInStopped || settled) return;
            // Tokens Minecraft no longer takes go: the next sign-in asks for a code.
            if (err instanceof TokenRefused) this.cache.forget();
            const failure = failureOf(err);
            if (failure.code === 'unreachable') log.warn({ errno: failure.errno }, 'Microsoft could not be reached for the sign-in');
            else log.warn({ err: scrubSecrets((err as Error)?.message ?? String(err)) }, 'Microsoft sign-in failed');
            fail(failure);
          },
        );
    });
  }

  /** Forget the account's tokens (the next sign-in asks for a code). */
  forget(): void {
    this.cache.forget();
  }
}

/**
 * minecraft-protocol's `auth` as a function: join as the signed-in player, as its own Microsoft login
 * does once it has the session (the access token, the profile, the chat-signing keys).
 */
export function sessionAuth(session: JavaSession): (client: Record<string, unknown>, options: Record<string, unknown>) => void {
  return (client, options) => {
    client.session = { accessToken: session.accessToken, selectedProfile: session.profile, availableProfile: [session.profile] };
    client.username = session.profile.name;
    if (session.certificates) Object.assign(client, session.certificates);
    options.accessToken = session.accessToken;
    options.haveCredentials = true;
    (client as unknown as EventEmitter).emit('session', client.session);
    (options.connect as (c: unknown) => void)(client);
  };
}
