/**
 * The cap on items lying about in the embedded world, with real mineflayer: a dig whose drop would pass it makes no
 * drop (flying-squid's own cap threw from the drop and ended the world), and players still join. The world here is
 * started with room for no item at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { connectedGame, teleportAndSettle, tempDataDir, testLogger, waitFor } from './helpers.ts';

const log = testLogger();
const data = tempDataDir('entity-cap');
let world: EmbeddedWorld;
const games: MineflayerGame[] = [];

beforeAll(async () => {
  world = await EmbeddedWorld.start({ dataDir: data.dir, log, maxItems: 0 });
  await world.setMobSpawning({ animals: false, monsters: false });
});

afterAll(async () => {
  await Promise.all(games.map((g) => g.stop()));
  await world?.stop();
  data.remove();
});

describe('items lying about', () => {
  it('GIVEN a world with no room for another item WHEN an avatar digs a block THEN the block is dug and no drop is made, the world stays up and another player joins', async () => {
    const ivy = await connectedGame(world, 'ivy', log);
    games.push(ivy);
    await teleportAndSettle(world, ivy, { x: 0.5, y: 64, z: 0.5 });
    const bot = ivy.bot!;
    const at = bot.entity.position.floored().offset(2, 0, 0);
    await world.setBlock(at, 'dirt');
    await waitFor(() => bot.blockAt(at)?.name === 'dirt', 10_000, 'the dirt');
    const items = (): number => Object.values(bot.entities).filter((e) => e.name === 'item').length;
    expect(items()).toBe(0);
    await bot.dig(bot.blockAt(at)!);
    await waitFor(() => bot.blockAt(at)?.name === 'air', 10_000, 'the dirt dug');
    // A block set after the dig, once seen, comes after whatever the dig sent (its drop would have come with it).
    const mark = at.offset(0, 0, 3);
    await world.setBlock(mark, 'stone');
    await waitFor(() => bot.blockAt(mark)?.name === 'stone', 10_000, 'the stone set after the dig');
    expect(items(), 'item entities the avatar sees').toBe(0);
    expect(world.running).toBe(true);
    const joe = await connectedGame(world, 'joe', log);
    games.push(joe);
    expect(await world.players()).toEqual(expect.arrayContaining(['ivy', 'joe']));
  }, 120_000);
});
