/**
 * How an avatar's pathfinder moves: mineflayer-pathfinder's `Movements`
 * (digging allowed, 1×1 towers allowed), with its two hottest reads made
 * cheap. Neither changes what a search finds.
 *
 * - Entities in the way: the library keys its count of entities per block by
 *   a string built for every block a search looks at (`"x,y,z"`), also when
 *   no entity is near; here the count is keyed by a small integer, and a
 *   search with no entity near reads nothing.
 * - The cost of digging a block in the way: the library works out the dig
 *   time of every tool carried for every such block; here once per block
 *   state, until the inventory or the bot's effects change.
 * - A block's walking properties (safe, physical, liquid, height …): the
 *   library works them out again on every read of the block, and builds a
 *   position for the read; here they are worked out once per block (they
 *   depend on its state and position only, and a block the server changes is
 *   a new block: `block-cache.ts`), and one position is reused for the reads
 *   (a read keeps none: each block has its own).
 */
import type { Bot } from 'mineflayer';
import pf from 'mineflayer-pathfinder';
import type { Block } from 'prismarine-block';
import { createRequire } from 'node:module';
import { Vec3 } from 'vec3';

const { Movements } = pf;
/** The NBT reader mineflayer-pathfinder reads a tool's enchantments with (its own dependency). */
const nbt = createRequire(createRequire(import.meta.url).resolve('mineflayer-pathfinder'))('prismarine-nbt') as { simplify(tag: unknown): unknown };

/** A small integer for a block position (positions 1024 apart in a direction share one: an entry says which it counts). */
function keyOf(x: number, y: number, z: number): number {
  return ((x & 0x3ff) << 20) | ((y & 0x3ff) << 10) | (z & 0x3ff);
}

/** The entities counted at one block. */
interface Count {
  x: number;
  y: number;
  z: number;
  n: number;
}

/** What the pathfinder writes into every block it reads (mineflayer-pathfinder's `SafeBlock`). */
type WalkBlock = Block & {
  climbable: boolean;
  safe: boolean;
  physical: boolean;
  replaceable: boolean;
  liquid: boolean;
  height: number;
  canFall: boolean;
  openable: boolean;
};

interface Position {
  x: number;
  y: number;
  z: number;
}

/** The block a read outside the loaded world gives (as the library's). */
function unloaded(dy: number): Partial<WalkBlock> {
  return { replaceable: false, canFall: false, safe: false, physical: false, liquid: false, climbable: false, height: dy, openable: false };
}

/**
 * @example
 * bot.pathfinder.setMovements(new AvatarMovements(bot));
 */
export class AvatarMovements extends Movements {
  /** Entities per block, by {@link keyOf}. */
  #entities = new Map<number, Count[]>();
  #at = new Vec3(0, 0, 0);
  /** The cost of digging a block with the best tool carried, by state (until the inventory or the bot's effects change). */
  #digCosts = new Map<number, number>();

  constructor(bot: Bot) {
    super(bot);
    this.canDig = true;
    this.allow1by1towers = true;
    const forget = (): void => this.#digCosts.clear();
    bot.inventory.on('updateSlot', forget);
    bot.on('entityEffect', (e) => {
      if (e === bot.entity) forget();
    });
    bot.on('entityEffectEnd', (e) => {
      if (e === bot.entity) forget();
    });
  }

  override clearCollisionIndex(): void {
    this.#entities.clear();
  }

  override updateCollisionIndex(): void {
    for (const ent of Object.values(this.bot.entities)) {
      if (ent === this.bot.entity) continue;
      const avoided = this.entitiesToAvoid.has(ent.name ?? '');
      if (!avoided && this.passableEntities.has(ent.name ?? '')) continue;
      const half = ent.width / 2;
      const minY = Math.floor(ent.position.y);
      const maxY = Math.ceil(ent.position.y + ent.height);
      const minX = Math.floor(ent.position.x - half);
      const maxX = Math.ceil(ent.position.x + half);
      const minZ = Math.floor(ent.position.z - half);
      const maxZ = Math.ceil(ent.position.z + half);
      const cost = avoided ? 100 : 1;
      for (let y = minY; y < maxY; y++) {
        for (let x = minX; x < maxX; x++) {
          for (let z = minZ; z < maxZ; z++) {
            const key = keyOf(x, y, z);
            let counts = this.#entities.get(key);
            if (!counts) {
              counts = [];
              this.#entities.set(key, counts);
            }
            const count = counts.find((c) => c.x === x && c.y === y && c.z === z);
            if (count) count.n += cost;
            else counts.push({ x, y, z, n: cost });
          }
        }
      }
    }
  }

  override getNumEntitiesAt(pos: Position | null | undefined, dx: number, dy: number, dz: number): number {
    if (this.allowEntityDetection === false || !pos || this.#entities.size === 0) return 0;
    const x = pos.x + dx;
    const y = pos.y + dy;
    const z = pos.z + dz;
    const counts = this.#entities.get(keyOf(x, y, z));
    if (!counts) return 0;
    for (const c of counts) if (c.x === x && c.y === y && c.z === z) return c.n;
    return 0;
  }

  override safeOrBreak(block: WalkBlock, toBreak?: Vec3[]): number {
    let cost = this.exclusionStep(block);
    cost += this.getNumEntitiesAt(block.position, 0, 0, 0) * this.entityCost;
    if (block.safe) return cost;
    if (!this.safeToBreak(block)) return 100;
    toBreak?.push(block.position);
    if (block.physical) cost += this.getNumEntitiesAt(block.position, 0, 1, 0) * this.entityCost;
    return cost + this.#digCost(block);
  }

  /** What the library adds for digging `block` with the best tool carried (remembered per state). */
  #digCost(block: WalkBlock): number {
    let cost = this.#digCosts.get(block.stateId);
    if (cost === undefined) {
      const tool = this.bot.pathfinder.bestHarvestTool(block);
      const enchants = tool?.nbt ? (nbt.simplify(tool.nbt) as { Enchantments?: unknown[] }).Enchantments : [];
      const digTime = block.digTime(tool ? tool.type : null, false, false, false, enchants as never, this.bot.entity.effects);
      cost = (1 + (3 * digTime) / 1000) * this.digCost;
      this.#digCosts.set(block.stateId, cost);
    }
    return cost;
  }

  override getBlock(pos: Position | null | undefined, dx: number, dy: number, dz: number): WalkBlock {
    const b = pos ? (this.bot.blockAt(this.#at.set(pos.x + dx, pos.y + dy, pos.z + dz), false) as WalkBlock | null) : null;
    if (!b) return unloaded(dy) as WalkBlock;
    // Worked out once per block: what follows depends on the block's state and height only, and a changed
    // block is a new one (block-cache.ts).
    if (b.safe !== undefined) return b;
    b.climbable = this.climbables.has(b.type);
    b.safe = (b.boundingBox === 'empty' || b.climbable || this.carpets.has(b.type)) && !this.blocksToAvoid.has(b.type);
    b.physical = b.boundingBox === 'block' && !this.fences.has(b.type);
    b.replaceable = this.replaceables.has(b.type) && !b.physical;
    b.liquid = this.liquids.has(b.type);
    b.height = pos!.y + dy;
    b.canFall = this.gravityBlocks.has(b.type);
    b.openable = this.openable.has(b.type);
    for (const shape of b.shapes) b.height = Math.max(b.height, pos!.y + dy + (shape[4] ?? 0));
    return b;
  }
}
