/**
 * Bots joining while another digs used to receive `block_break_animation` before their
 * `login` packet, and mineflayer's handler threw inside the packet stream: the whole process died.
 * Real embedded world, real mineflayer, the real goal loop for the digger.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { startWorld, worldGame, tempDataDir } from './helpers.ts';
import { startCoreOnWorld, witness } from './core-on-world.ts';

/** Joiners that come and go while the digger works. */
const JOINERS = 10;
/** Join/leave cycles per joiner at most (the churn also ends when the digger is done). */
const MAX_CYCLES = 4;

describe('bots joining while another digs', () => {
  /** Log lines of bots failing on a packet (the game logs each fault, joining or not). */
  const faults: string[] = [];
  const { log, lines, until } = witness((line) => {
    if (line.includes('failed while handling a packet')) faults.push(line);
  });
  const data = tempDataDir('join-dig');
  let world: EmbeddedWorld;
  let core: Mindlink;
  const joiners: MineflayerGame[] = [];
  /** The core's games, by avatar. */
  const games = new Map<string, MineflayerGame>();
  const game = (name: string): MineflayerGame => {
    const g = games.get(name);
    if (!g) throw new Error(`no game for ${name}`);
    return g;
  };

  beforeAll(async () => {
    world = await startWorld(data.dir, log);
    const config = parseConfig({ DATA_DIR: data.dir, LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000' });
    ({ core } = await startCoreOnWorld({ world: () => world, config, log, lines, onGame: (name, g) => games.set(name, g) }));
    for (let i = 0; i < JOINERS; i++) {
      joiners.push(worldGame(world, `joiner${i}`, log.child({ avatar: `joiner${i}` })));
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(joiners.map((g) => g.stop()));
    await core?.stop();
    await world?.stop();
    data.remove();
  }, 60_000);

  it('GIVEN demo digging logs WHEN 10 other bots join, leave and rejoin THEN nothing crashes, all end spawned and demo finishes its goal', async () => {
    await until(() => core.avatars.displayState('demo') !== 'waiting', 30_000, 'demo to join');
    core.avatars.setGoal('demo', 'collect 6 oak logs', 'console');
    const logs = (): number => game('demo').snapshot()?.inventory.oak_log ?? 0;
    // The churn starts once demo is at the trees, so it digs while the others come and go.
    await until(() => logs() >= 1, 120_000, 'demo to dig its first log');
    const done = (): boolean => lines.some((l) => l.startsWith('[demo] Done: collect 6 oak logs'));

    const cycles = joiners.map(() => 0);
    await Promise.all(
      joiners.map(async (game, i) => {
        while (cycles[i]! < MAX_CYCLES && !done()) {
          const connected = once(game, 'connected');
          await game.start();
          await connected;
          cycles[i]!++;
          await game.stop();
        }
        // Everyone comes back and stays.
        const connected = once(game, 'connected');
        await game.start();
        await connected;
      }),
    );
    await until(done, 180_000, "demo's goal");

    expect(joiners.map((g) => g.state)).toEqual(joiners.map(() => 'connected'));
    expect(game('demo').state).toBe('connected');
    expect(cycles.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(JOINERS);
    // No bot failed on what the world sent it, before its login or after.
    expect(faults).toEqual([]);
    expect(lines.filter((l) => l.startsWith('[demo] Stopped'))).toEqual([]);
    expect(await world.players()).toHaveLength(JOINERS + 1);
  }, 400_000);
});
