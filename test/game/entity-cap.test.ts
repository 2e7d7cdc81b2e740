/**
 * The cap on items lying about in the embedded world, with real mineflayer: a drop that would pass it takes the
 * place of the item that has lain longest (flying-squid's own cap threw from the drop and ended the world), and
 * players still join. The world here is started with room for one item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Vec3 } from 'vec3';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { connectedGame, teleportAndSettle, tempDataDir, testLogger, waitFor } from './helpers.ts';

const log = testLogger();
const data = tempDataDir('entity-cap');
let world: EmbeddedWorld;
const games: MineflayerGame[] = [];

beforeAll(async () => {
  world = await EmbeddedWorld.start({ dataDir: data.dir, log, maxItems: 1 });
  await world.setMobSpawning({ animals: false, monsters: false });
});

afterAll(async () => {
  await Promise.all(games.map((g) => g.stop()));
  await world?.stop();
  data.remove();
});

describe('items lying about', () => {
  it('GIVEN a world with room for one item and one lying WHEN an avatar digs another block THEN its drop takes the old one’s place, the world stays up and another player joins', async () => {
    const ivy = await connectedGame(world, 'ivy', log);
    games.push(ivy);
    await teleportAndSettle(world, ivy, { x: 0.5, y: 64, z: 0.5 });
    const bot = ivy.bot!;
    // Blocks three away on either side: within reach, their drops beyond the avatar's pick-up.
    const east = bot.entity.position.floored().offset(3, 0, 0);
    const west = bot.entity.position.floored().offset(-3, 0, 0);
    const dig = async (at: Vec3): Promise<void> => {
      await world.setBlock(at, 'dirt');
      await waitFor(() => bot.blockAt(at)?.name === 'dirt', 10_000, 'the dirt');
      await bot.dig(bot.blockAt(at)!);
      await waitFor(() => bot.blockAt(at)?.name === 'air', 10_000, 'the dirt dug');
    };
    // The world's own list of the items lying about (a drop is made in the same turn as its dig).
    await dig(east);
    expect((await world.items()).map((i) => Math.floor(i.x))).toEqual([east.x]);
    await dig(west);
    expect((await world.items()).map((i) => Math.floor(i.x)), 'the second drop in the place of the first').toEqual([west.x]);
    expect(world.running).toBe(true);
    const joe = await connectedGame(world, 'joe', log);
    games.push(joe);
    expect(await world.players()).toEqual(expect.arrayContaining(['ivy', 'joe']));
  }, 120_000);
});
