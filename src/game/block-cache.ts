/**
 * A cache of the blocks a bot reads from its world.
 *
 * mineflayer's physics reads the ~40 blocks around the bot on every physics
 * tick (20 a second, standing or walking), and the pathfinder reads thousands
 * while it searches. Each read builds a new `Block` (its biome, light and
 * block entity looked up again) from the chunk: measured, 26 % of the CPU
 * of bots collecting. The same positions are read over and over, so the
 * world keeps the blocks it built until something changes them: a block
 * update drops that position, a column that loads or unloads drops
 * everything. The cache is bounded and per world (per bot).
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Vec3 } from 'vec3';

/** More entries than this and the cache starts again (a bot walking far reads ever new blocks). */
export const BLOCK_CACHE_ENTRIES = 2048;

type World = Bot['world'];

const cached = new WeakSet<object>();

/** Positions beyond this (in x or z) are read without the cache: their key would not fit in a double's integers. */
const REACH = 0x80000;

/** One number for a block position (x and z within ±2^19, y within ±2^11), or NaN outside. */
function keyOf(x: number, y: number, z: number): number {
  const fx = Math.floor(x);
  const fz = Math.floor(z);
  if (fx < -REACH || fx >= REACH || fz < -REACH || fz >= REACH) return NaN;
  return ((fx + REACH) * 0x100000 + (fz + REACH)) * 0x1000 + ((Math.floor(y) + 0x800) & 0xfff);
}

/**
 * Make `world.getBlock` remember what it built. Idempotent per world.
 *
 * @example
 * bot.once('spawn', () => cacheBlocks(bot.world));
 */
export function cacheBlocks(world: World): void {
  if (cached.has(world)) return;
  cached.add(world);
  const read = world.getBlock.bind(world) as (pos: Vec3) => Block | null;
  let blocks = new Map<number, Block>();
  world.getBlock = (pos: Vec3): Block => {
    const key = keyOf(pos.x, pos.y, pos.z);
    if (Number.isNaN(key)) return read(pos) as Block;
    const hit = blocks.get(key);
    if (hit) return hit;
    const block = read(pos);
    // A column that is not loaded gives null, and may load at any moment: never remembered.
    if (!block) return block as unknown as Block;
    if (blocks.size >= BLOCK_CACHE_ENTRIES) blocks = new Map();
    blocks.set(key, block);
    return block;
  };
  const emitter = world as unknown as NodeJS.EventEmitter;
  emitter.on('blockUpdate', (_old: Block | null, now: Block | null) => {
    const p = now?.position ?? _old?.position;
    if (p) blocks.delete(keyOf(p.x, p.y, p.z));
    else blocks = new Map();
  });
  emitter.on('chunkColumnLoad', () => {
    blocks = new Map();
  });
  emitter.on('chunkColumnUnload', () => {
    blocks = new Map();
  });
}
