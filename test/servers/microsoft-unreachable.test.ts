/**
 * An avatar on an `auth:microsoft` server while Microsoft cannot be reached
 * (its requests go to a port nothing listens on): it waits and tries again
 * with backoff, as for a game server that is down, and `/status` says why;
 * once Microsoft answers again, its owner gets the code and it joins. The
 * real core, the real prismarine-auth in this process, the fake of
 * Microsoft's services, a world started here.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { FakeMicrosoft } from '../fakes/microsoft.ts';
import { redirectMicrosoft } from '../fakes/microsoft-redirect.ts';
import { testLogger } from '../game/helpers.ts';
import { ask, lineAfter, startCore, type Running } from './helpers.ts';

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** Resolves once `check` holds (asked every 100 ms); throws with `what` after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: () => string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('GIVEN an avatar on an auth:microsoft server and a Microsoft that cannot be reached', () => {
  let dir = '';
  let worldDir = '';
  let world: EmbeddedWorld;
  let ms: FakeMicrosoft;
  let run: Running | undefined;
  let restore: (() => void) | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mindlink-ms-down-'));
    worldDir = await mkdtemp(path.join(tmpdir(), 'mindlink-ms-down-world-'));
    world = await EmbeddedWorld.start({ dataDir: worldDir, log: testLogger(), version: '1.21.4' });
    ms = await FakeMicrosoft.start({ expiresInS: 60, intervalS: 1 });
    restore = redirectMicrosoft(`http://127.0.0.1:${await closedPort()}`);
    run = await startCore(dir, { LOOP_PACE_MS: '300' });
    await ask(run.io, `/server add ms 127.0.0.1:${world.port} auth:microsoft`, /^\[mindlink\] Added ms /);
    await ask(run.io, '/avatar create bob server:ms', /^\[bob\] Created bob on ms /);
  }, 120_000);

  afterAll(async () => {
    await run?.core.stop();
    restore?.();
    await ms?.close();
    await world?.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(worldDir, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN /play bob THEN bob waits to reconnect because Microsoft cannot be reached, does not stop, and joins once Microsoft answers again', async () => {
    const { io, core } = run as Running;
    const from = io.lines.length;
    io.send('/play bob');
    await until(
      () => (core.avatars.downReason('bob') ?? '').includes('Microsoft'),
      () => `bob's state: ${core.avatars.displayState('bob')} (${core.avatars.downReason('bob') ?? 'no reason'}); lines: ${io.lines.slice(from).join(' | ')}`,
    );
    expect(await ask(io, '/status bob', /^\[bob\] /)).toBe('[bob] waiting to reconnect (Microsoft cannot be reached to sign bob in: ECONNREFUSED) · no goal');
    expect(io.lines.slice(from).filter((l) => l.startsWith('[bob] Stopped'))).toEqual([]);

    // Microsoft is back: the next attempt (with backoff) asks for a code, which goes to the owner (the console).
    restore?.();
    restore = redirectMicrosoft(ms.url);
    const code = await ms.nextCode(0);
    await lineAfter(io, from, new RegExp(`^\\[bob\\] To let bob join ms, sign in at https://www\\.microsoft\\.com/link with code ${code} `), 120_000);
    ms.approve(code, { id: randomUUID(), name: 'bob' });
    await until(
      async () => (await world.players()).includes('bob'),
      () => `bob did not join: ${core.avatars.displayState('bob')} (${core.avatars.downReason('bob') ?? ''})`,
      120_000,
    );
    expect(io.lines.slice(from).filter((l) => l.startsWith('[bob] Stopped'))).toEqual([]);
    await core.avatars.stop('bob');
  }, 240_000);
});
