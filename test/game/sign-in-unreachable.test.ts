/**
 * A Microsoft that cannot be reached is not a Microsoft that refused: the
 * real prismarine-auth, in this process, with its requests sent to a port
 * nothing listens on (the network failing as a closed port fails), or to the
 * fake of Microsoft's services (`test/fakes/microsoft.ts`) when it is back.
 * Told apart by the error's cause, never by its message.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MicrosoftSignIn, SignInError, type SignInCode } from '../../src/game/sign-in.ts';
import { unreachableCode } from '../../src/game/unreachable.ts';
import { FakeMicrosoft } from '../fakes/microsoft.ts';
import { redirectMicrosoft } from '../fakes/microsoft-redirect.ts';
import { tempDataDir, testLogger } from './helpers.ts';

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** What a sign-in ended with: its session's profile name, or its error. */
async function outcome(signIn: MicrosoftSignIn, onCode: (code: SignInCode) => void = () => undefined): Promise<string | SignInError> {
  try {
    return (await signIn.session(onCode)).profile.name;
  } catch (err) {
    if (err instanceof SignInError) return err;
    throw err;
  }
}

describe('GIVEN errors of requests that failed', () => {
  let silent: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Accepts connections and never answers.
    silent = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('GIVEN fetch to a closed port, to a name that does not resolve, and one that timed out THEN each is a network failure with its code', async () => {
    const port = await closedPort();
    expect(unreachableCode(await fetch(`http://127.0.0.1:${port}/`).catch((e: unknown) => e))).toBe('ECONNREFUSED');
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(unreachableCode(await fetch('http://mindlink-test.invalid/').catch((e: unknown) => e)));
    const { port: silentPort } = silent.address() as { port: number };
    expect(unreachableCode(await fetch(`http://127.0.0.1:${silentPort}/`, { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e))).toBe('ETIMEDOUT');
  });

  it('GIVEN an answer that said no, a bug, or a code only inside an AggregateError THEN only the last is a network failure', () => {
    expect(unreachableCode(new Error('400 Bad Request {"error":"invalid_grant"}'))).toBeUndefined();
    expect(unreachableCode(new TypeError("Cannot read properties of undefined (reading 'token')"))).toBeUndefined();
    // The words alone say nothing: no code, no network failure.
    expect(unreachableCode(new TypeError('fetch failed'))).toBeUndefined();
    const perAddress = new AggregateError([Object.assign(new Error('connect ENETUNREACH ::1:443'), { code: 'ENETUNREACH' })], 'connect failed');
    expect(unreachableCode(new TypeError('fetch failed', { cause: perAddress }))).toBe('ENETUNREACH');
  });
});

describe('GIVEN an avatar signing in with Microsoft', () => {
  const data = tempDataDir('ms-unreachable');
  let ms: FakeMicrosoft;
  let down = '';
  let restore: (() => void) | undefined;
  const route = (target: string): void => {
    restore?.();
    restore = redirectMicrosoft(target);
  };

  beforeAll(async () => {
    ms = await FakeMicrosoft.start({ expiresInS: 30, intervalS: 1 });
    down = `http://127.0.0.1:${await closedPort()}`;
  });

  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  afterAll(async () => {
    await ms?.close();
    data.remove();
  });

  it('GIVEN Microsoft cannot be reached THEN the sign-in fails as unreachable (ECONNREFUSED), not as a refusal, and no code is asked for', async () => {
    route(down);
    const codes: SignInCode[] = [];
    const err = await outcome(new MicrosoftSignIn({ account: 'ann', dir: data.dir, log: testLogger() }), (c) => codes.push(c));
    expect(err).toBeInstanceOf(SignInError);
    expect({ code: (err as SignInError).code, errno: (err as SignInError).errno, message: (err as SignInError).message }).toEqual({
      code: 'unreachable',
      errno: 'ECONNREFUSED',
      message: 'Microsoft could not be reached (ECONNREFUSED)',
    });
    expect(codes).toEqual([]);
  }, 60_000);

  it('GIVEN an account signed in before WHEN Microsoft cannot be reached THEN the sign-in fails as unreachable and its tokens are kept; once it is back, it signs in from them with no code', async () => {
    route(ms.url);
    const signIn = new MicrosoftSignIn({ account: 'bob', dir: data.dir, log: testLogger() });
    const first = signIn.session((code) => ms.approve(code.userCode, { id: randomUUID(), name: 'BobMC' }));
    expect((await first).profile.name).toBe('BobMC');
    expect(existsSync(signIn.cache.file)).toBe(true);

    route(down);
    const err = await outcome(new MicrosoftSignIn({ account: 'bob', dir: data.dir, log: testLogger() }));
    expect(err instanceof SignInError ? [err.code, err.message] : err).toEqual(['unreachable', 'Microsoft could not be reached (ECONNREFUSED)']);
    expect(existsSync(signIn.cache.file)).toBe(true);

    route(ms.url);
    const codes = ms.codes.length;
    expect(await outcome(new MicrosoftSignIn({ account: 'bob', dir: data.dir, log: testLogger() }))).toBe('BobMC');
    expect(ms.codes.length).toBe(codes);
  }, 60_000);

  it('GIVEN an account whose tokens Microsoft took back THEN the sign-in is refused and the tokens go, so the next one asks for a code', async () => {
    route(ms.url);
    const signIn = new MicrosoftSignIn({ account: 'cid', dir: data.dir, log: testLogger() });
    expect(await outcome(signIn, (code) => ms.approve(code.userCode, { id: randomUUID(), name: 'CidMC' }))).toBe('CidMC');
    ms.revokeAll();
    const err = await outcome(new MicrosoftSignIn({ account: 'cid', dir: data.dir, log: testLogger() }));
    expect(err instanceof SignInError ? [err.code, err.message] : err).toEqual(['refused', 'Microsoft refused the sign-in (the Minecraft profile service does not take its token (401))']);
    expect(existsSync(signIn.cache.file)).toBe(false);
    const codes = ms.codes.length;
    expect(await outcome(new MicrosoftSignIn({ account: 'cid', dir: data.dir, log: testLogger() }), (code) => ms.approve(code.userCode, { id: randomUUID(), name: 'CidMC' }))).toBe('CidMC');
    expect(ms.codes.length).toBe(codes + 1);
  }, 60_000);
});
