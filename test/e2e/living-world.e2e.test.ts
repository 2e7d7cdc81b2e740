/**
 * The real process in a living world: a new avatar asked for cooked beef hunts a cow, builds its way to a furnace
 * and cooks the beef; an avatar that is hungry with raw meat in its pack eats it without being told.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { startMindlink, type MindlinkProcess } from './process.ts';
import { testLogger, waitFor } from '../game/helpers.ts';

describe('the real process in a world with animals and a furnace', () => {
  const dirs: string[] = [];
  let m: MindlinkProcess | undefined;
  let world: EmbeddedWorld | undefined;

  afterEach(async () => {
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    m = undefined;
    await world?.stop();
    world = undefined;
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('GIVEN "Goal: get 1 cooked beef" to a new avatar THEN it hunts, makes a furnace, cooks the beef, says Done, and /status lists it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-beef-'));
    dirs.push(dir);
    // Turns follow each other quickly: what this test is about is the way to the beef, not the pace between turns.
    m = startMindlink({ DATA_DIR: dir, LOOP_PACE_MS: '300' });
    // Typed before start-up finishes, so the new avatar has nothing when it takes the goal.
    m.send('Goal: get 1 cooked beef');
    await m.line(/^\[mindlink\] ready — playing: demo$/, 90_000);
    await m.line(/^\[demo\] New goal from console: get 1 cooked beef\.$/, 60_000);
    try {
      await m.line(/^\[demo\] Done: get 1 cooked beef$/, 900_000);
    } catch (err) {
      // What the log said about the furnace, from its last 400 lines (the message above shows only 30).
      const why = m.stderr.filter((e) => /furnace|smelt|window|place|failed/i.test(e)).slice(-40);
      throw new Error(`${(err as Error).message}\nlog lines about the furnace:\n${why.join('\n')}`);
    }
    m.send('/status');
    const inv = await m.line(/^\[demo\] inventory: /);
    expect(inv).toMatch(/cooked_beef×[1-9]/);
    m.child.kill('SIGINT');
    expect(await m.exited).toBe(0);
  }, 1_000_000);

  it('GIVEN an avatar at food 6 with raw beef in its inventory THEN it eats on its own', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-eat-'));
    const worldDir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-eat-world-'));
    dirs.push(dir, worldDir);
    // A world of the test's own, so the test can feed the avatar and read its hunger.
    world = await EmbeddedWorld.start({ dataDir: worldDir, log: testLogger() });
    await world.setMobSpawning({ animals: false, monsters: false });
    m = startMindlink({ DATA_DIR: dir, MC_HOST: world.host, MC_PORT: String(world.port), MC_VERSION: world.version });
    await m.line(/^\[mindlink\] ready — playing: demo$/, 90_000);
    const w = world;
    let online = false;
    await waitFor(() => {
      void w.players().then((p) => (online = p.includes('demo')));
      return online;
    }, 60_000, 'demo in the world');
    const eating = m.logLine(/reflex: eat/, 60_000);
    await w.setHunger('demo', { food: 6, saturation: 0 });
    await w.give('demo', 'beef', 2);
    await eating;
    let food = 0;
    await waitFor(() => {
      void w.hunger('demo').then((h) => (food = h.food));
      return food > 6;
    }, 30_000, 'food above 6');
    // Raw beef gives 3 food points.
    expect(food).toBeGreaterThanOrEqual(9);
    const inv = await w.inventory('demo');
    expect(Object.values(inv.slots).filter((i) => i.name === 'beef').reduce((n, i) => n + i.count, 0)).toBeLessThan(2);
    m.child.kill('SIGINT');
    expect(await m.exited).toBe(0);
  }, 240_000);
});
