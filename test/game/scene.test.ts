/**
 * The 3D view's data: the blocks around a real mineflayer bot that can be seen, its pose and who is near,
 * read from its own world data on the embedded world, in this process and on an avatar host.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { GameServer, SceneBlocks } from '../../src/game/game.ts';
import { HOST_ENTRY } from '../../src/game/hosts/hosted-provider.ts';
import { HostPool } from '../../src/game/hosts/pool.ts';
import { EMBEDDED_CAPABILITIES, type MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { SCENE_BLOCKS_MS, SCENE_RADIUS, sceneOf, visibleBlocks } from '../../src/game/scene.ts';
import { connectedGame, startWorld, tempDataDir, teleportAndSettle, testLogger, waitFor } from './helpers.ts';

const SERVER: GameServer = { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' };

/** The block at a world position in a reading, or undefined when it is not in it. */
function blockAt(b: SceneBlocks, x: number, y: number, z: number): string | undefined {
  for (let i = 0; i < b.blocks.length; i += 4) {
    if (b.blocks[i] === x && b.blocks[i + 1] === y && b.blocks[i + 2] === z) return b.palette[b.blocks[i + 3] ?? -1];
  }
  return undefined;
}

describe('what the 3D view reads around an avatar', () => {
  const log = testLogger();
  const data = tempDataDir('scene');
  let world: EmbeddedWorld;
  let game: MineflayerGame;

  beforeAll(async () => {
    process.env.LOG_LEVEL = process.env.TEST_LOG ?? 'silent';
    world = await startWorld(data.dir, log);
    game = await connectedGame(world, 'viewer', log);
    await game.bot?.waitForChunksToLoad();
    await teleportAndSettle(world, game, { x: 0.5, y: 64, z: 0.5 });
  }, 120_000);

  afterAll(async () => {
    await game?.stop();
    await world?.stop();
    data.remove();
  }, 60_000);

  it('GIVEN a bot standing at spawn THEN it reads its pose, the grass under its feet, and no buried block and no air', () => {
    const bot = game.bot;
    if (!bot) throw new Error('not connected');
    const b = visibleBlocks(bot, SCENE_RADIUS);
    expect(b.from).toEqual({ x: -16, y: 48, z: -16 });
    expect(b.to).toEqual({ x: 16, y: 80, z: 16 });
    expect(blockAt(b, 0, 63, 0), `palette ${b.palette.join(', ')}`).toBe('grass_block');
    // Deep under the grass every block has blocks on all sides: none is sent.
    expect(blockAt(b, 0, 55, 0)).toBeUndefined();
    expect(b.palette).not.toContain('air');
    // About one layer of ground (33 × 33) and the trees: far fewer than the box's 35,937 places.
    const count = b.blocks.length / 4;
    expect(count).toBeGreaterThan(33 * 33 - 50);
    expect(count).toBeLessThan(33 * 33 * 4);
    const scene = sceneOf(bot, SCENE_RADIUS, false);
    expect(scene.pose).toMatchObject({ x: 0.5, y: 64, z: 0.5 });
    expect(typeof scene.pose.yaw).toBe('number');
    expect(scene.blocks).toBeNull();
  });

  it('GIVEN a block placed in the air beside the bot THEN a later reading shows it, and readings are at most one per second', async () => {
    const bot = game.bot;
    if (!bot) throw new Error('not connected');
    await world.setBlock({ x: 2, y: 67, z: 1 }, 'stone');
    await waitFor(() => bot.blockAt(bot.entity.position.offset(1.5, 3, 0.5).floored())?.name === 'stone', 20_000, 'the bot to see the stone');
    const taken = new Set<number>();
    await waitFor(
      () => {
        const b = sceneOf(bot, SCENE_RADIUS, true).blocks;
        if (b) taken.add(b.takenAt);
        return !!b && blockAt(b, 2, 67, 1) === 'stone';
      },
      20_000,
      'a reading with the stone',
    );
    const times = [...taken].sort((a, b) => a - b);
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(SCENE_BLOCKS_MS);
  }, 40_000);

  it('GIVEN the same avatar on an avatar host THEN its game answers the same blocks from there', async () => {
    const bot = game.bot;
    if (!bot) throw new Error('not connected');
    const here = visibleBlocks(bot, SCENE_RADIUS);
    await game.stop();
    const pool = await HostPool.start({ count: 1, entry: HOST_ENTRY, world: { host: world.host, port: world.port, version: world.version }, log });
    try {
      const hosted = pool.game('viewer', SERVER, EMBEDDED_CAPABILITIES);
      const connected = once(hosted, 'connected');
      await hosted.start();
      await connected;
      await world.teleport('viewer', { x: 0.5, y: 64, z: 0.5 });
      await waitFor(() => hosted.snapshot()?.position.x === 0.5 && hosted.snapshot()?.position.z === 0.5, 20_000, 'the avatar back at spawn on the host');
      // Its chunks come in after it joined: wait for a reading as full as the one in this process.
      await expect.poll(async () => ((await hosted.scene(SCENE_RADIUS, true))?.blocks?.blocks.length ?? 0), { timeout: 30_000, interval: 300 }).toBeGreaterThan(here.blocks.length - 40);
      // Two asks at once share the host's one answer.
      const [a, b] = await Promise.all([hosted.scene(SCENE_RADIUS, true), hosted.scene(SCENE_RADIUS, true)]);
      expect(b).toBe(a);
      const there = a?.blocks;
      if (!there) throw new Error('no blocks from the host');
      expect(blockAt(there, 0, 63, 0)).toBe('grass_block');
      expect(blockAt(there, 2, 67, 1)).toBe('stone');
      expect(there.blocks.length).toBeLessThanOrEqual(here.blocks.length + 40);
      expect(a?.pose).toMatchObject({ x: 0.5, y: 64, z: 0.5 });
      await hosted.stop();
      expect(await hosted.scene(SCENE_RADIUS, true)).toBeNull();
    } finally {
      await pool.close();
    }
  }, 90_000);
});
