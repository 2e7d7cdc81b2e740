/**
 * The dashboard's world view: the top-down map drawn from a real mineflayer bot's own world data, on the
 * embedded world.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { topDownMap, type TopDownMap } from '../../src/game/top-down.ts';
import { connectedGame, startWorld, tempDataDir, teleportAndSettle, testLogger, waitFor } from './helpers.ts';

const cellAt = (map: TopDownMap, x: number, z: number): { block: string | undefined; height: number } => {
  const i = (z - map.z0) * map.size + (x - map.x0);
  const index = map.cells[i] ?? -1;
  return { block: index >= 0 ? map.palette[index] : undefined, height: map.heights[i] ?? 0 };
};

describe('the top-down map of the blocks around an avatar', () => {
  const log = testLogger();
  const data = tempDataDir('top-down');
  let world: EmbeddedWorld;
  let game: MineflayerGame;

  beforeAll(async () => {
    world = await startWorld(data.dir, log);
    game = await connectedGame(world, 'mapper', log);
    await game.bot?.waitForChunksToLoad();
    await teleportAndSettle(world, game, { x: 0.5, y: 64, z: 0.5 });
  }, 120_000);

  afterAll(async () => {
    await game?.stop();
    await world?.stop();
    data.remove();
  }, 60_000);

  it('GIVEN a bot standing at spawn THEN the map is centred on it, 49 blocks wide, and shows the ground it stands on', () => {
    const bot = game.bot;
    if (!bot) throw new Error('not connected');
    const map = topDownMap(bot, 24);
    expect(map.size).toBe(49);
    expect(map.avatar).toMatchObject({ x: 0, y: 64, z: 0 });
    expect([map.x0, map.z0]).toEqual([-24, -24]);
    expect(map.cells).toHaveLength(49 * 49);
    const under = cellAt(map, 0, 0);
    expect(under.block, `palette ${map.palette.join(', ')}`).toBe('grass_block');
    expect(under.height).toBe(-1);
    // Every column within the loaded chunks shows something.
    expect(map.cells.filter((c) => c < 0)).toHaveLength(0);
  });

  it('GIVEN a block placed by the server next to the bot THEN the next map shows it there, at its height', async () => {
    const bot = game.bot;
    if (!bot) throw new Error('not connected');
    await world.setBlock({ x: 3, y: 66, z: -2 }, 'stone');
    await waitFor(() => bot.blockAt(bot.entity.position.offset(3, 2, -2).floored())?.name === 'stone', 20_000, 'the bot to see the stone');
    const map = topDownMap(bot, 24);
    expect(cellAt(map, 3, -2)).toEqual({ block: 'stone', height: 2 });
    expect(cellAt(map, -3, 2).block).not.toBe('stone');
  }, 40_000);
});
