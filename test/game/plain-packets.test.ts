/**
 * The embedded world's packets go uncompressed (src/game/embedded/plain-packets.cjs), with real mineflayer: a
 * player joins, is never told to compress, and plays (the chunks around it arrive, a block set is seen).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { connectedGame, tempDataDir, testLogger, waitFor } from './helpers.ts';

const log = testLogger();
const data = tempDataDir('plain-packets');
let world: EmbeddedWorld;
const games: MineflayerGame[] = [];

beforeAll(async () => {
  world = await EmbeddedWorld.start({ dataDir: data.dir, log });
  await world.setMobSpawning({ animals: false, monsters: false });
});

afterAll(async () => {
  await Promise.all(games.map((g) => g.stop()));
  await world?.stop();
  data.remove();
});

describe('packets between the embedded world and its players', () => {
  it('GIVEN two players joined THEN neither connection compresses, and each sees the world around it and a block set by the other', async () => {
    for (const name of ['pia', 'pete']) {
      const game = await connectedGame(world, name, log);
      games.push(game);
      const client = game.bot!._client as unknown as { compressionThreshold: number };
      // -2: the connection has no compressor (mineflayer sets one only when the server says "compress").
      expect(client.compressionThreshold).toBe(-2);
    }
    const [pia, pete] = games.map((g) => g.bot!);
    const under = pia!.entity.position.floored().offset(0, -1, 0);
    expect(pia!.blockAt(under)?.name).not.toBe(undefined);
    const at = pete!.entity.position.floored().offset(2, 0, 0);
    await world.setBlock(at, 'oak_planks');
    await waitFor(() => pia!.blockAt(at)?.name === 'oak_planks' && pete!.blockAt(at)?.name === 'oak_planks', 10_000, 'the planks seen by both');
  }, 60_000);
});
