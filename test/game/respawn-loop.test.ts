/**
 * A whole mindlink core on the embedded world, its avatar killed in the middle of a goal: by the world's
 * admin kill, by a zombie at night, and on a world that leaves its respawn requests unanswered for a while.
 * Each time the avatar comes back, says so once in chat, and finishes the goal it had.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { PassThrough } from 'node:stream';
import { startWorld, tempDataDir } from './helpers.ts';
import { startCoreOnWorld, witness } from './core-on-world.ts';

const DIED = /^\[demo\] I died \((.+)\) at (-?\d+) (-?\d+) (-?\d+); back at spawn\.$/;

describe('a core whose avatar dies in the middle of a goal', () => {
  const { log, lines, until } = witness();
  const data = tempDataDir('respawn-loop');
  let world: EmbeddedWorld;
  let core: Mindlink;
  let stdin: PassThrough;

  beforeAll(async () => {
    world = await startWorld(data.dir, log);
    await world.setMobSpawning({ animals: false, monsters: false });
    const config = parseConfig({ DATA_DIR: data.dir, LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000' });
    ({ core, stdin } = await startCoreOnWorld({ world: () => world, config, log, lines }));
    await until(() => core.avatars.displayState('demo') !== 'waiting', 30_000, 'demo to join');
  }, 60_000);

  afterAll(async () => {
    await core?.stop();
    await world?.stop();
    data.remove();
  }, 60_000);

  /** Where demo is now (its snapshot), or far away while it has none. */
  const position = (): { x: number; z: number } => core.avatars.snapshot('demo')?.position ?? { x: Infinity, z: Infinity };
  const deathLines = (from: number): string[] => lines.slice(from).filter((l) => DIED.test(l));

  it('GIVEN demo walking to 40 64 40 WHEN the world kills it on the way THEN within 10 s it says once that it was killed there, and it still gets there', async () => {
    const from = lines.length;
    core.avatars.setGoal('demo', 'go to 40 64 40', 'console');
    await until(() => Math.hypot(position().x, position().z) > 12, 120_000, 'demo to be 12 blocks on its way');
    const at = position();
    await world.kill('demo');
    const killed = performance.now();
    await until(() => deathLines(from).length > 0, 10_000, 'the line saying demo died');
    const ms = performance.now() - killed;
    const [, cause, x, , z] = DIED.exec(deathLines(from)[0]!)!;
    expect(cause).toBe('killed');
    expect(Math.hypot(Number(x) - at.x, Number(z) - at.z), `died at ${x} ${z}, was at ${at.x} ${at.z}`).toBeLessThan(4);
    expect(ms, `the line came ${Math.round(ms)} ms after the kill`).toBeLessThan(10_000);
    await until(() => lines.slice(from).some((l) => l.startsWith('[demo] Done: go to 40 64 40')), 180_000, 'demo to finish its goal');
    expect(deathLines(from)).toHaveLength(1);
    expect(lines.slice(from).filter((l) => /Stopped|went wrong/.test(l))).toEqual([]);
  }, 400_000);

  it('GIVEN demo collecting oak logs at night with 2 health WHEN a zombie reaches it THEN it says once it was slain by a zombie, and collects them', async () => {
    const from = lines.length;
    const start = position();
    core.avatars.setGoal('demo', 'collect 3 oak logs', 'console');
    await until(() => Math.hypot(position().x - start.x, position().z - start.z) > 2, 120_000, 'demo to set off to a tree');
    try {
      await world.command('time set 14000');
      await world.setHunger('demo', { health: 2 });
      const at = position();
      await world.spawnMob('zombie', { x: at.x, y: 64, z: at.z });
      await until(() => deathLines(from).length > 0, 30_000, 'the line saying demo died');
    } finally {
      await world.clearMobs();
      await world.command('time set 1000');
    }
    expect(DIED.exec(deathLines(from)[0]!)?.[1]).toBe('slain by Zombie');
    await until(() => lines.slice(from).some((l) => l.startsWith('[demo] Done: collect 3 oak logs')), 240_000, 'demo to finish its goal');
    expect(deathLines(from)).toHaveLength(1);
  }, 400_000);

  it('GIVEN a world that leaves respawn requests unanswered WHEN demo dies THEN /status says dead — respawning where it lies, and once the world answers it comes back, says so once and finishes its goal', async () => {
    const from = lines.length;
    core.avatars.setGoal('demo', 'go to -30 64 20', 'console');
    await until(() => Math.hypot(position().x, position().z) > 8, 120_000, 'demo on its way');
    await world.holdRespawns(true);
    try {
      await world.kill('demo');
      await until(() => core.avatars.displayState('demo') === 'dead', 10_000, 'demo dead');
      const asked = lines.length;
      stdin.write('/status demo\n');
      await until(() => lines.slice(asked).some((l) => l.startsWith('[demo] position ')), 10_000, 'the /status answer');
      const status = lines.slice(asked);
      expect(status.find((l) => l.startsWith('[demo] dead'))).toMatch(/^\[demo\] dead — respawning · goal: go to -30 64 20 \(/);
      expect(status.find((l) => l.startsWith('[demo] position '))).toMatch(/ · health 0\/20 · /);
      expect(deathLines(from)).toEqual([]);
    } finally {
      await world.holdRespawns(false);
    }
    await until(() => deathLines(from).length > 0, 20_000, 'the line saying demo died');
    await until(() => lines.slice(from).some((l) => l.startsWith('[demo] Done: go to -30 64 20')), 180_000, 'demo to finish its goal');
    expect(deathLines(from)).toHaveLength(1);
  }, 400_000);
});
