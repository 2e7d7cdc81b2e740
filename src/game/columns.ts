/**
 * Free-standing columns near a bot, read from its own world data: runs of one
 * kind of solid block stacked straight up, at least two high, with nothing
 * solid beside any block of the run. A pillar an avatar built stands out so;
 * the ground, walls and buried blocks do not (a tree trunk below its leaves
 * does). The snapshot carries them, and the completion check judges "build a
 * pillar of 3 dirt" by them (`src/goals/structures.ts`): what a model or a
 * script claims is checked against the blocks the server sent.
 */
import type { Bot } from 'mineflayer';
import type { BlockColumn } from './game.ts';

/** How far across from the avatar columns are looked for (a square of 2·r + 1). */
export const COLUMN_RADIUS = 6;
/** How far below and above the avatar's feet columns are looked for: the tallest column found. */
export const COLUMN_REACH = 12;
/** The most columns a snapshot carries (the tallest first). */
const COLUMNS_KEPT = 8;

interface ColumnLike {
  getBlockStateId(pos: { x: number; y: number; z: number }): number;
}

/** Per registry: 1 for each block state that is a full solid block, else 0. */
const solidByRegistry = new WeakMap<object, Uint8Array>();

function solidStates(bot: Bot): Uint8Array {
  const registry = bot.registry;
  let table = solidByRegistry.get(registry);
  if (!table) {
    const states = registry.blocksByStateId as Record<number, { boundingBox?: string } | undefined>;
    const ids = Object.keys(states).map(Number);
    table = new Uint8Array(Math.max(0, ...ids) + 1);
    for (const id of ids) if (states[id]?.boundingBox === 'block') table[id] = 1;
    solidByRegistry.set(registry, table);
  }
  return table;
}

/**
 * The free-standing columns within {@link COLUMN_RADIUS} blocks across and {@link COLUMN_REACH} up or down of
 * the bot's feet, tallest first (then nearest), at most 8.
 *
 * @example
 * standingColumns(bot) // → [{ block: 'dirt', height: 3, x: 12, y: 64, z: -3 }]
 */
export function standingColumns(bot: Bot): BlockColumn[] {
  const feet = bot.entity.position.floored();
  const world = bot.world as unknown as { getColumn(cx: number, cz: number): ColumnLike | undefined };
  const solid = solidStates(bot);
  const game = bot.game as { minY?: number; height?: number };
  const minY = game.minY ?? 0;
  const maxY = minY + (game.height ?? 256) - 1;
  // The chunk columns the search touches (one block beyond it on each side), looked up once each.
  const cx0 = Math.floor((feet.x - COLUMN_RADIUS - 1) / 16);
  const cz0 = Math.floor((feet.z - COLUMN_RADIUS - 1) / 16);
  const spanX = Math.floor((feet.x + COLUMN_RADIUS + 1) / 16) - cx0 + 1;
  const spanZ = Math.floor((feet.z + COLUMN_RADIUS + 1) / 16) - cz0 + 1;
  const chunks: (ColumnLike | undefined)[] = [];
  for (let i = 0; i < spanX; i++) for (let j = 0; j < spanZ; j++) chunks[i * spanZ + j] = world.getColumn(cx0 + i, cz0 + j);
  const pos = { x: 0, y: 0, z: 0 };
  /** The state id at x y z when it is a solid block, or -1 (air, plants, water, not loaded). */
  const solidAt = (x: number, y: number, z: number): number => {
    if (y < minY || y > maxY) return -1;
    const cx = Math.floor(x / 16);
    const cz = Math.floor(z / 16);
    const column = chunks[(cx - cx0) * spanZ + (cz - cz0)];
    if (!column) return -1;
    pos.x = x - cx * 16;
    pos.y = y;
    pos.z = z - cz * 16;
    const state = column.getBlockStateId(pos);
    return solid[state] === 1 ? state : -1;
  };
  const free = (x: number, y: number, z: number): boolean => solidAt(x + 1, y, z) < 0 && solidAt(x - 1, y, z) < 0 && solidAt(x, y, z + 1) < 0 && solidAt(x, y, z - 1) < 0;
  const nameOf = (state: number): string => bot.registry.blocksByStateId[state]?.name ?? 'unknown';

  const found: BlockColumn[] = [];
  const bottom = Math.max(minY, feet.y - COLUMN_REACH);
  const top = Math.min(maxY, feet.y + COLUMN_REACH);
  for (let x = feet.x - COLUMN_RADIUS; x <= feet.x + COLUMN_RADIUS; x++) {
    for (let z = feet.z - COLUMN_RADIUS; z <= feet.z + COLUMN_RADIUS; z++) {
      let run: BlockColumn | null = null;
      for (let y = bottom; y <= top + 1; y++) {
        const state = y <= top ? solidAt(x, y, z) : -1;
        const standing = state >= 0 && free(x, y, z);
        const name = standing ? nameOf(state) : null;
        if (run && name === run.block) {
          run.height++;
          continue;
        }
        if (run && run.height >= 2) found.push(run);
        run = name ? { block: name, height: 1, x, y, z } : null;
      }
    }
  }
  const distance = (c: BlockColumn): number => Math.abs(c.x - feet.x) + Math.abs(c.z - feet.z);
  return found.sort((a, b) => b.height - a.height || distance(a) - distance(b)).slice(0, COLUMNS_KEPT);
}
