/**
 * The embedded world's socket writes, with real mineflayer players: what a player is sent in one turn of the
 * world's loop leaves in one write (write-batch.cjs), as the world's `health` readings count it (packets per
 * write). Five players jump side by side, so each is sent the others' moves together every 100 ms.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { connectedGame, tempDataDir, testLogger, waitFor } from './helpers.ts';

const data = tempDataDir('write-batch');
/** The world's health readings, as its log lines say them. */
const readings: Array<{ players?: number; packetsPerWrite?: number }> = [];
const lines = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const line of chunk.toString().split('\n')) {
      if (line.includes('"world health"')) readings.push(JSON.parse(line) as (typeof readings)[number]);
    }
    done();
  },
});
let world: EmbeddedWorld;
const games: MineflayerGame[] = [];

beforeAll(async () => {
  world = await EmbeddedWorld.start({ dataDir: data.dir, log: pino({ level: 'debug' }, lines), healthMs: 500 });
  await world.setMobSpawning({ animals: false, monsters: false });
});

afterAll(async () => {
  await Promise.all(games.map((g) => g.stop()));
  await world?.stop();
  data.remove();
});

describe('socket writes of the world', () => {
  it('GIVEN five players jumping side by side WHEN the world sends each the others moves THEN several packets leave in each socket write', async () => {
    const log = testLogger();
    for (let i = 0; i < 5; i++) games.push(await connectedGame(world, `jumper${i}`, log));
    for (const [i, g] of games.entries()) {
      await world.teleport(g.username, { x: 0.5 + i * 2, y: 64, z: 0.5 });
      g.bot!.setControlState('jump', true);
    }
    const from = readings.length;
    const full = (): Array<(typeof readings)[number]> => readings.slice(from).filter((r) => r.players === 5 && r.packetsPerWrite !== undefined);
    // The first reading began before the last players jumped (it read 1.8 and 1.9 in runs where the next read 3.5-4):
    // three more after it.
    await waitFor(() => full().length >= 4, 30_000, () => `four health readings with the five players and their writes counted (got ${JSON.stringify(readings.slice(from))})`);
    const ratios = full().map((r) => r.packetsPerWrite!);
    // Each player gets the four others' moves every 100 ms in one turn; one at a time, it would be 1.
    expect(Math.min(...ratios.slice(1)), `packets per write: ${ratios.join(', ')}`).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
