/**
 * Cheap block reads for a bot's world.
 *
 * mineflayer's physics reads the ~40 blocks around the bot on every physics
 * tick, and the pathfinder reads several per node it looks at (thousands per
 * search). prismarine-chunk builds a new `Block` for every read: its
 * properties from the registry, a new biome object (on 1.20.2+ the biome
 * table the block class holds is not the one the server's registry data
 * filled, so every block gets a copy of an empty biome), its block entity
 * looked up by a string key. Measured, reading blocks was over a third of an
 * avatar host's CPU with 50 avatars finding paths.
 *
 * Two things make a read cheap:
 *  - On 1.18+ (one chunk layout for every later version), a read builds a
 *    block from a shared one: the first block read of each state and biome is
 *    kept (per world), and every later read of that state is a small object
 *    whose prototype is that block, with its own position, light, sky light
 *    and block entity. It has every property and method a built block has
 *    (its position is a Vec3 of a class of its own: {@link BlockPosition}).
 *  - The blocks read are remembered by position, in a fixed number of slots
 *    (a hash of the position picks one), until the server changes that block
 *    (`blockUpdate`) or its column loads again or unloads.
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { Vec3 } from 'vec3';

/**
 * The blocks a world keeps: 2^12 (one slot each; a block read into a taken slot takes it over). Each block kept
 * is about 300 bytes; measured with 10 avatars walking and collecting, 91 % of the reads found their block
 * (92 % with twice as many slots, 87 % with half as many).
 */
const CACHE_BITS = 12;
export const BLOCK_CACHE_ENTRIES = 1 << CACHE_BITS;

type World = Bot['world'];

/** The 1.18+ chunk column methods a read uses (prismarine-chunk's `pc/1.18` column, used for every later version too). */
interface Column118 {
  getBlockStateId(pos: Local): number;
  getBiome(pos: Local): number;
  getBlockLight(pos: Local): number;
  getSkyLight(pos: Local): number;
  getBlockEntity(pos: Local): unknown;
  blockEntities?: Record<string, unknown>;
}

interface Local {
  x: number;
  y: number;
  z: number;
}

const cached = new WeakSet<object>();

/**
 * The position of a block copy: a Vec3 of whole numbers. A class of its own, so V8 keeps its coordinates as
 * small integers inside the object; a plain Vec3's (other Vec3s hold fractions: entities' positions) are each a
 * boxed number, 48 bytes more for every block kept.
 */
class BlockPosition extends Vec3 {}

/** The cache slot of a block position: a multiplicative hash of it (neighbouring positions land far apart). */
function slotOf(fx: number, fy: number, fz: number): number {
  return (Math.imul(fx, 0x9e3779b1) ^ Math.imul(fy, 0x85ebca77) ^ Math.imul(fz, 0xc2b2ae3d)) >>> (32 - CACHE_BITS);
}

/** The own properties of a block prismarine-block built for a known state, in the order it sets them. */
const PLAIN_KEYS = [
  'type', 'metadata', 'light', 'skyLight', 'biome', 'position', 'stateId', 'computedStates', 'name', 'hardness', 'displayName', 'shapes',
  'boundingBox', 'transparent', 'diggable', 'material', 'harvestTools', 'drops', '_properties', 'isWaterlogged', 'entity',
].join();

/** A block with nothing but the usual properties (not a sign with its methods, not a state without a shape …). */
function isPlain(block: Block): boolean {
  return Object.keys(block).join() === PLAIN_KEYS;
}

/** A copy of a block (see {@link copies}). */
type BlockCopy = new (s: Block, position: Vec3, light: number, skyLight: number, entity: unknown) => Block;

/**
 * The constructor of copies of plain blocks at other positions: the same properties (the tables among them
 * shared, as every block of a state holds the same ones), the same methods (`Block.prototype`), its own
 * position, light and block entity. The fields mineflayer-pathfinder writes into every block it reads are
 * there from the start (undefined until it does), and `painting`, which mineflayer's `blockAt` writes: every
 * copy has one shape with room for them, so reading and writing blocks stays fast (a block that gets them
 * added one by one ends up a dictionary, slow to read and write).
 */
function copies(proto: object): BlockCopy {
  function Copy(this: Record<string, unknown>, s: Block & Record<string, unknown>, position: Vec3, light: number, skyLight: number, entity: unknown): void {
    this.type = s.type;
    this.metadata = s.metadata;
    this.light = light;
    this.skyLight = skyLight;
    this.biome = s.biome;
    this.position = position;
    this.stateId = s.stateId;
    this.computedStates = s.computedStates;
    this.name = s.name;
    this.hardness = s.hardness;
    this.displayName = s.displayName;
    this.shapes = s.shapes;
    this.boundingBox = s.boundingBox;
    this.transparent = s.transparent;
    this.diggable = s.diggable;
    this.material = s.material;
    this.harvestTools = s.harvestTools;
    this.drops = s.drops;
    this._properties = s._properties;
    this.isWaterlogged = s.isWaterlogged;
    this.entity = entity;
    this.painting = undefined;
    this.climbable = undefined;
    this.safe = undefined;
    this.physical = undefined;
    this.replaceable = undefined;
    this.liquid = undefined;
    this.height = undefined;
    this.canFall = undefined;
    this.openable = undefined;
  }
  Copy.prototype = proto;
  return Copy as unknown as BlockCopy;
}

function hasAny(record: Record<string, unknown> | undefined): boolean {
  for (const _ in record) return true;
  return false;
}

/**
 * Make `world.getBlock` cheap (see above). `sharedStates`: the world's columns are 1.18+ ones, whose blocks
 * may be built from a shared one. Idempotent per world.
 *
 * @example
 * bot.once('spawn', () => cacheBlocks(bot.world, bot.registry.version['>=']('1.18')));
 */
export function cacheBlocks(world: World, sharedStates: boolean): void {
  if (cached.has(world)) return;
  cached.add(world);
  const read = world.getBlock.bind(world) as (pos: Vec3) => Block | null;
  const columnAt = (world as unknown as { getColumn(x: number, z: number): unknown }).getColumn.bind(world);
  /** The first block read of each state and biome (`stateId * 4096 + biome`), or null: that state is read in full. */
  const states = new Map<number, Block | null>();
  const local: Local = { x: 0, y: 0, z: 0 };
  let Copy: BlockCopy | undefined;
  const copyOf = (s: Block, position: Vec3, light: number, skyLight: number, entity: unknown): Block => {
    Copy ??= copies(Object.getPrototypeOf(s) as object);
    return new Copy(s, position, light, skyLight, entity);
  };
  const build = (fx: number, fy: number, fz: number, pos: Vec3): Block | null => {
    if (!sharedStates) return read(pos);
    const column = columnAt(fx >> 4, fz >> 4) as Column118 | undefined;
    if (!column) return null;
    local.x = fx & 15;
    local.y = fy;
    local.z = fz & 15;
    const key = column.getBlockStateId(local) * 4096 + column.getBiome(local);
    let shared = states.get(key);
    if (shared === undefined) {
      const first = read(pos);
      if (!first) return null;
      shared = isPlain(first) ? first : null;
      states.set(key, shared);
      // Kept as it was built: callers write into the blocks they get (the pathfinder does), each into its own.
      if (shared) return copyOf(shared, first.position, first.light, first.skyLight, (first as { entity?: unknown }).entity);
      return first;
    }
    if (shared === null) return read(pos);
    const entity = hasAny(column.blockEntities) ? column.getBlockEntity(local) : undefined;
    return copyOf(shared, new BlockPosition(fx, fy, fz), column.getBlockLight(local), column.getSkyLight(local), entity);
  };
  // A direct-mapped cache: each position has one slot (by a hash of it); a read that finds another block there builds its own.
  const xs = new Int32Array(BLOCK_CACHE_ENTRIES);
  const ys = new Int32Array(BLOCK_CACHE_ENTRIES);
  const zs = new Int32Array(BLOCK_CACHE_ENTRIES);
  const blocks: Array<Block | undefined> = new Array<Block | undefined>(BLOCK_CACHE_ENTRIES).fill(undefined);
  world.getBlock = (pos: Vec3): Block => {
    const fx = Math.floor(pos.x);
    const fy = Math.floor(pos.y);
    const fz = Math.floor(pos.z);
    const slot = slotOf(fx, fy, fz);
    const hit = blocks[slot];
    if (hit !== undefined && xs[slot] === fx && ys[slot] === fy && zs[slot] === fz) return hit;
    const block = build(fx, fy, fz, pos);
    // A column that is not loaded gives null, and may load at any moment: never remembered.
    if (!block) return block as unknown as Block;
    xs[slot] = fx;
    ys[slot] = fy;
    zs[slot] = fz;
    blocks[slot] = block;
    return block;
  };
  const forgetColumn = (corner: Vec3): void => {
    const cx = Math.floor(corner.x) >> 4;
    const cz = Math.floor(corner.z) >> 4;
    for (let slot = 0; slot < BLOCK_CACHE_ENTRIES; slot++) {
      if (blocks[slot] !== undefined && xs[slot]! >> 4 === cx && zs[slot]! >> 4 === cz) blocks[slot] = undefined;
    }
  };
  const emitter = world as unknown as NodeJS.EventEmitter;
  emitter.on('blockUpdate', (old: Block | null, now: Block | null) => {
    const p = now?.position ?? old?.position;
    if (!p) {
      blocks.fill(undefined);
      return;
    }
    const fx = Math.floor(p.x);
    const fy = Math.floor(p.y);
    const fz = Math.floor(p.z);
    const slot = slotOf(fx, fy, fz);
    if (xs[slot] === fx && ys[slot] === fy && zs[slot] === fz) blocks[slot] = undefined;
  });
  emitter.on('chunkColumnLoad', forgetColumn);
  emitter.on('chunkColumnUnload', forgetColumn);
}
