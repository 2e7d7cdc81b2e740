/**
 * Free-standing columns (src/game/columns.ts), read from a real mineflayer bot's own world data on the
 * embedded world: what a snapshot carries and "build a pillar of 3 dirt" is checked against.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standingColumns } from '../../src/game/columns.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { checkGoal } from '../../src/goals/check.ts';
import { connectedGame, startWorld, tempDataDir, teleportAndSettle, testLogger, waitFor } from './helpers.ts';

describe('free-standing columns near an avatar', () => {
  const log = testLogger();
  const data = tempDataDir('columns');
  let world: EmbeddedWorld;
  let game: MineflayerGame;

  beforeAll(async () => {
    world = await startWorld(data.dir, log);
    game = await connectedGame(world, 'builder', log);
    await game.bot?.waitForChunksToLoad();
    await teleportAndSettle(world, game, { x: 0.5, y: 64, z: 0.5 });
  }, 120_000);

  afterAll(async () => {
    await game?.stop();
    await world?.stop();
    data.remove();
  }, 60_000);

  /** Set blocks through the server and wait until the bot sees the last one. */
  async function place(blocks: { x: number; y: number; z: number; name: string }[]): Promise<void> {
    for (const b of blocks) await world.setBlock({ x: b.x, y: b.y, z: b.z }, b.name);
    const last = blocks[blocks.length - 1];
    const bot = game.bot;
    if (!bot || !last) throw new Error('not connected');
    await waitFor(() => bot.blockAt(bot.entity.position.floored().set(last.x, last.y, last.z))?.name === last.name, 20_000, `the bot to see ${last.name}`);
  }

  it('GIVEN the flat ground around spawn THEN there is no column: the ground, the dirt under the grass, the stone under it are not free-standing', () => {
    expect(standingColumns(game.bot!)).toEqual([]);
    expect(game.snapshot()?.columns).toEqual([]);
  });

  it('GIVEN a pillar of 3 dirt, a dirt stack against a wall and a single block THEN only the pillar is a column, the snapshot carries it, and the pillar goal is met', async () => {
    const pillar = [64, 65, 66].map((y) => ({ x: 3, y, z: -2, name: 'dirt' }));
    // Two dirt against a stone wall of the same height: not free-standing.
    const walled = [64, 65].flatMap((y) => [{ x: -3, y, z: 2, name: 'dirt' }, { x: -4, y, z: 2, name: 'stone' }]);
    await place([...walled, { x: 2, y: 64, z: 3, name: 'dirt' }, ...pillar]);
    expect(standingColumns(game.bot!)).toEqual([{ block: 'dirt', height: 3, x: 3, y: 64, z: -2 }]);
    const snap = game.snapshot();
    expect(snap?.columns).toEqual([{ block: 'dirt', height: 3, x: 3, y: 64, z: -2 }]);
    expect(checkGoal('build a pillar of 3 dirt', {}, snap!)).toEqual({ checkable: true, met: true, says: 'a pillar of 3 dirt stands at 3 64 -2 (3 needed)' });
    expect(checkGoal('build a pillar of 4 dirt', {}, snap!)).toMatchObject({ met: false });
  }, 60_000);

  it('GIVEN the top block of the pillar taken away THEN the next snapshot sees it 2 high, and the goal is no longer met', async () => {
    await place([{ x: 3, y: 66, z: -2, name: 'air' }]);
    const snap = game.snapshot();
    expect(snap?.columns).toEqual([{ block: 'dirt', height: 2, x: 3, y: 64, z: -2 }]);
    expect(checkGoal('build a pillar of 3 dirt', {}, snap!)).toMatchObject({ checkable: true, met: false });
  }, 60_000);
});
