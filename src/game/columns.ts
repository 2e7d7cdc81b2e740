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
  const registry = bot.registry;
  const game = bot.game as { minY?: number; height?: number };
  const minY = game.minY ?? 0;
  const maxY = minY + (game.height ?? 256) - 1;
  const chunks = new Map<string, ColumnLike | undefined>();
  const pos = { x: 0, y: 0, z: 0 };
  /** The solid block's name at x y z, or null where it is not solid (air, plants, water) or not loaded. */
  const solidAt = (x: number, y: number, z: number): string | null => {
    if (y < minY || y > maxY) return null;
    const cx = Math.floor(x / 16);
    const cz = Math.floor(z / 16);
    const key = `${cx},${cz}`;
    let column = chunks.get(key);
    if (!chunks.has(key)) {
      column = world.getColumn(cx, cz);
      chunks.set(key, column);
    }
    if (!column) return null;
    pos.x = x - cx * 16;
    pos.y = y;
    pos.z = z - cz * 16;
    const block = registry.blocksByStateId[column.getBlockStateId(pos)];
    return block && block.boundingBox === 'block' ? block.name : null;
  };
  const free = (x: number, y: number, z: number): boolean =>
    solidAt(x + 1, y, z) === null && solidAt(x - 1, y, z) === null && solidAt(x, y, z + 1) === null && solidAt(x, y, z - 1) === null;

  const found: BlockColumn[] = [];
  const bottom = Math.max(minY, feet.y - COLUMN_REACH);
  const top = Math.min(maxY, feet.y + COLUMN_REACH);
  for (let x = feet.x - COLUMN_RADIUS; x <= feet.x + COLUMN_RADIUS; x++) {
    for (let z = feet.z - COLUMN_RADIUS; z <= feet.z + COLUMN_RADIUS; z++) {
      let run: BlockColumn | null = null;
      for (let y = bottom; y <= top + 1; y++) {
        const name = y <= top ? solidAt(x, y, z) : null;
        const standing = name !== null && free(x, y, z);
        if (run && standing && name === run.block) {
          run.height++;
          continue;
        }
        if (run && run.height >= 2) found.push(run);
        run = standing && name ? { block: name, height: 1, x, y, z } : null;
      }
    }
  }
  const distance = (c: BlockColumn): number => Math.abs(c.x - feet.x) + Math.abs(c.z - feet.z);
  return found.sort((a, b) => b.height - a.height || distance(a) - distance(b)).slice(0, COLUMNS_KEPT);
}
