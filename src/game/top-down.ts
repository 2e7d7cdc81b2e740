/**
 * A top-down map of the blocks around a bot, read from the bot's own world
 * data (the chunks the server sent it): for each column, the first block that
 * is not air looking down from a few blocks above the avatar's head, so trees
 * show as their crowns and the sky above a cave or a high roof is left out.
 */
import type { Bot } from 'mineflayer';

/** How far above the avatar's feet a column is first looked at: high enough for tree crowns, low enough for a roof to hide little. */
const CEILING = 8;
/** How far below its feet a column is looked at before it counts as a drop. */
const DEPTH = 48;
/** Blocks looked through: they are not what the map shows. */
const SEE_THROUGH = new Set(['air', 'cave_air', 'void_air', 'light', 'barrier', 'structure_void']);

/** The map: `size × size` cells, row by row from the north-west corner (smallest x and z). */
export interface TopDownMap {
  /** The world coordinates of the north-west cell. */
  x0: number;
  z0: number;
  size: number;
  /** The block names the cells use. */
  palette: string[];
  /** Per cell: an index into `palette`, or -1 where the chunk is not loaded or nothing was found. */
  cells: number[];
  /** Per cell: the found block's height relative to the avatar's feet (0 where nothing was found). */
  heights: number[];
  /** The avatar's block position and the way it looks (yaw, radians as mineflayer gives it). */
  avatar: { x: number; y: number; z: number; yaw: number };
}

interface ColumnLike {
  minY?: number;
  getBlockStateId(pos: { x: number; y: number; z: number }): number;
}

/**
 * The blocks within `radius` of the bot (a square `2·radius + 1` wide), seen from above.
 *
 * @example
 * const map = topDownMap(bot, 24);
 * map.palette[map.cells[(24 * map.size) + 24]]; // the block the avatar stands on (or next to)
 */
export function topDownMap(bot: Bot, radius: number): TopDownMap {
  const feet = bot.entity.position.floored();
  const size = radius * 2 + 1;
  const x0 = feet.x - radius;
  const z0 = feet.z - radius;
  const world = bot.world as unknown as { getColumn(cx: number, cz: number): ColumnLike | undefined };
  const registry = bot.registry;
  const game = bot.game as { minY?: number; height?: number };
  const minY = game.minY ?? 0;
  const maxY = minY + (game.height ?? 256) - 1;
  const top = Math.min(feet.y + CEILING, maxY);
  const bottom = Math.max(feet.y - DEPTH, minY);
  const palette: string[] = [];
  const paletteIndex = new Map<number, number>();
  const cells = new Array<number>(size * size).fill(-1);
  const heights = new Array<number>(size * size).fill(0);
  const pos = { x: 0, y: 0, z: 0 };
  for (let dz = 0; dz < size; dz++) {
    for (let dx = 0; dx < size; dx++) {
      const x = x0 + dx;
      const z = z0 + dz;
      const column = world.getColumn(Math.floor(x / 16), Math.floor(z / 16));
      if (!column) continue;
      pos.x = ((x % 16) + 16) % 16;
      pos.z = ((z % 16) + 16) % 16;
      for (let y = top; y >= bottom; y--) {
        pos.y = y;
        const state = column.getBlockStateId(pos);
        const block = registry.blocksByStateId[state];
        if (!block || SEE_THROUGH.has(block.name)) continue;
        let index = paletteIndex.get(block.id);
        if (index === undefined) {
          index = palette.length;
          palette.push(block.name);
          paletteIndex.set(block.id, index);
        }
        cells[dz * size + dx] = index;
        heights[dz * size + dx] = y - feet.y;
        break;
      }
    }
  }
  return { x0, z0, size, palette, cells, heights, avatar: { x: feet.x, y: feet.y, z: feet.z, yaw: bot.entity.yaw } };
}
