/**
 * Avatar hosts against the real embedded world: a game run on a host reads
 * the same as one run in this process, and its skills abort across the
 * boundary.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { Death, GameServer, HeardLine, Snapshot } from '../../src/game/game.ts';
import { HOST_ENTRY } from '../../src/game/hosts/hosted-provider.ts';
import { HostPool } from '../../src/game/hosts/pool.ts';
import { EMBEDDED_CAPABILITIES } from '../../src/game/mineflayer-game.ts';
import { connectedGame, nextEvent, startWorld, teleportAndSettle, tempDataDir, testLogger, waitFor } from './helpers.ts';

const log = testLogger();
const data = tempDataDir('hosts');
const SERVER: GameServer = { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' };
let world: EmbeddedWorld;
let pool: HostPool;

beforeAll(async () => {
  // The hosts read their log level from the environment, as mindlink's own process does.
  process.env.LOG_LEVEL = process.env.TEST_LOG ?? 'silent';
  world = await startWorld(data.dir, log);
  pool = await HostPool.start({ count: 2, entry: HOST_ENTRY, world: { host: world.host, port: world.port, version: world.version }, log });
}, 120_000);

afterAll(async () => {
  await pool?.close();
  await world?.stop();
  data.remove();
}, 120_000);

/** A snapshot without what changes by itself from one moment to the next (the time of day, when it was taken). */
function still(s: Snapshot | undefined): Omit<Snapshot, 'takenAt' | 'timeOfDay'> | undefined {
  if (!s) return undefined;
  const { takenAt: _takenAt, timeOfDay: _timeOfDay, ...rest } = s;
  return rest;
}

describe('avatar hosts', () => {
  it('GIVEN ada standing with bread, once in this process and once on a host THEN both snapshots are the same', async () => {
    const spot = { x: 24.5, y: 64, z: -17.5 };
    const local = await connectedGame(world, 'ada', log);
    await teleportAndSettle(world, local, spot);
    await world.give('ada', 'bread', 3);
    await waitFor(() => local.snapshot()?.inventory.bread === 3, 10_000, 'bread in the inventory');
    await local.bot!.waitForChunksToLoad();
    const here = still(local.snapshot());
    await local.stop();

    const hosted = pool.game('ada', SERVER, EMBEDDED_CAPABILITIES);
    const connected = once(hosted, 'connected');
    await hosted.start();
    await connected;
    await world.teleport('ada', spot);
    const there = (): boolean => {
      const p = hosted.snapshot()?.position;
      return !!p && p.x === spot.x && p.y === spot.y && p.z === spot.z;
    };
    await waitFor(there, 20_000, `ada on the host at ${JSON.stringify(spot)} (she is at ${JSON.stringify(hosted.snapshot()?.position)})`);
    // A skill's result carries a snapshot taken as it ends: a short one makes the next read a fresh one.
    await hosted.runSkill('say', { text: 'hello' }, new AbortController().signal);
    expect(still(hosted.snapshot())).toEqual(here);
    expect(hosted.bot).toBeUndefined();
    await hosted.stop();
    expect(hosted.state).toBe('idle');
    expect(hosted.snapshot()).toBeUndefined();
  });

  it('GIVEN bob collecting on a host WHEN his signal aborts THEN the host stops the skill and answers aborted', async () => {
    const bob = pool.game('bob', SERVER, EMBEDDED_CAPABILITIES);
    const connected = once(bob, 'connected');
    await bob.start();
    await connected;
    const controller = new AbortController();
    let moved = false;
    const start = bob.snapshot()?.position;
    const running = bob.runSkill('collect', { item: 'oak_log', count: 64 }, controller.signal);
    await waitFor(
      () => {
        const p = bob.snapshot()?.position;
        moved = !!p && !!start && Math.hypot(p.x - start.x, p.z - start.z) > 1;
        return moved;
      },
      60_000,
      'bob to walk off to a tree',
    );
    const asked = performance.now();
    controller.abort(new Error('owner stop'));
    const result = await running;
    const ms = performance.now() - asked;
    expect(result).toMatchObject({ ok: false, code: 'aborted' });
    expect(ms, `the aborted collect answered after ${Math.round(ms)} ms: ${JSON.stringify(result)}`).toBeLessThan(10_000);
    await bob.stop();
  });

  it('GIVEN an avatar on a host WHEN the world kills it THEN the core sees it dead where it lies, then back in the game with what killed it and where', async () => {
    const eve = pool.game('eve', SERVER, EMBEDDED_CAPABILITIES);
    const connected = once(eve, 'connected');
    await eve.start();
    await connected;
    // A teleport while the server still finishes the login can be undone by the client's own position: again until it holds.
    const spot = { x: 20.5, y: 64, z: 20.5 };
    const there = (): boolean => eve.snapshot()?.position.x === spot.x && eve.snapshot()?.position.z === spot.z;
    for (let tries = 0; !there(); tries++) {
      if (tries === 5) throw new Error(`eve did not stay at ${JSON.stringify(spot)} (she is at ${JSON.stringify(eve.snapshot()?.position)})`);
      await world.teleport('eve', spot);
      const retry = Date.now() + 5000;
      while (!there() && Date.now() < retry) await new Promise((r) => setTimeout(r, 50));
    }
    const died = nextEvent<[Death]>(eve, 'died', 10_000);
    const back = nextEvent<[Death]>(eve, 'respawned', 10_000, () => `eve is ${eve.state}`);
    // What the core shows as she dies (she may be back before the kill's own answer arrives).
    let dead: unknown;
    eve.once('died', () => {
      dead = { state: eve.state, health: eve.snapshot()?.health };
    });
    await world.kill('eve');
    const [death] = await died;
    expect(death.position).toEqual({ x: 20, y: 64, z: 20 });
    expect(dead).toEqual({ state: 'dead', health: 0 });
    expect(await back).toEqual([{ cause: 'killed', position: { x: 20, y: 64, z: 20 } }]);
    expect(eve.state).toBe('connected');
    await waitFor(() => eve.snapshot()?.health === 20, 10_000, () => `eve's snapshot at full health (${JSON.stringify(eve.snapshot())})`);
    await eve.stop();
  });

  it('GIVEN two avatars started THEN they are placed on different hosts, and a bad skill call is refused there as in one process', async () => {
    const cy = pool.game('cy', SERVER, EMBEDDED_CAPABILITIES);
    const di = pool.game('di', SERVER, EMBEDDED_CAPABILITIES);
    await cy.start();
    await di.start();
    expect(new Set([pool.slotOf(cy), pool.slotOf(di)])).toEqual(new Set([0, 1]));
    // Each host runs with a young generation of at least 32 MB a half.
    expect(pool.pids().length).toBe(2);
    for (const pid of pool.pids()) {
      const flag = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').find((a) => a.startsWith('--max-semi-space-size='));
      expect(Number(flag?.split('=')[1])).toBeGreaterThanOrEqual(32);
    }
    await waitFor(() => cy.state === 'connected', 60_000, 'cy to join');
    expect(await cy.runSkill('collect', { item: 'oak_log', count: 0 }, new AbortController().signal)).toMatchObject({ ok: false, code: 'bad_params' });
    expect(await cy.runSkill('no_such_skill', {}, new AbortController().signal)).toMatchObject({ ok: false, code: 'unknown_skill' });
    await Promise.all([cy.stop(), di.stop()]);
    expect(pool.slotOf(cy)).toBeUndefined();
  });

  it('GIVEN fay on a host told to hear the chat THEN a player’s line crosses as a heard event, her say reaches the player, and after her host is killed she hears again', async () => {
    const fay = pool.game('fay', SERVER, EMBEDDED_CAPABILITIES);
    const heard: HeardLine[] = [];
    fay.on('heard', (line) => heard.push(line));
    fay.hearChat(true);
    await fay.start();
    await waitFor(() => fay.state === 'connected', 60_000, 'fay to join');
    const gil = await connectedGame(world, 'gil', log);
    const shown: string[] = [];
    gil.bot?.on('messagestr', (text) => {
      shown.push(text);
    });
    gil.bot?.chat('hello fay');
    await waitFor(() => heard.some((l) => l.text === 'hello fay'), 20_000, 'fay to hear gil');
    expect(heard.filter((l) => l.from !== null)).toEqual([{ from: 'gil', text: 'hello fay' }]);
    expect(await fay.say('hello gil')).toBe('said');
    await waitFor(() => shown.includes('<fay> hello gil'), 20_000, 'gil to hear fay');

    const pid = pool.pids()[Number(pool.slotOf(fay) ?? -1)];
    if (!pid) throw new Error('fay is on no running host');
    const back = nextEvent(fay, 'connected', 60_000, () => `fay is ${fay.state}`);
    process.kill(pid, 'SIGKILL');
    await back;
    gil.bot?.chat('still there?');
    await waitFor(() => heard.some((l) => l.text === 'still there?'), 20_000, 'fay to hear gil after her host came back');
    await gil.stop();
    await fay.stop();
  }, 180_000);
});
