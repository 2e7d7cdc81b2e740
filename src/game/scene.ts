/**
 * What the dashboard's 3D view draws (docs/dashboard.md): where the avatar
 * stands and looks, who is near, and the blocks around it that can be seen —
 * read from the bot's own world data (the chunks the server sent it), on
 * demand only. The blocks are the part that costs: at most one read per
 * {@link SCENE_BLOCKS_MS} per bot; a call in between gets the last one again.
 */
import type { Bot } from 'mineflayer';
import type { Scene, SceneBlocks, Vec3Like } from './game.ts';
import { nearbyEntities } from './snapshot.ts';

/** How far the 3D view looks around the avatar, each way (blocks). */
export const SCENE_RADIUS = 16;
/** The blocks are read at most this often per bot (ms). */
export const SCENE_BLOCKS_MS = 1000;

/** Blocks that are not drawn: they are what the view looks through. */
const NOTHING = new Set(['air', 'cave_air', 'void_air', 'light', 'barrier', 'structure_void']);

interface ColumnLike {
  getBlockStateId(pos: Vec3Like): number;
}

/** Per state id: 0 nothing (air), 1 a block light passes (water, glass, leaves, plants), 2 an opaque block. */
type Kinds = Uint8Array;

const kindsOf = new WeakMap<object, Kinds>();
const lastBlocks = new WeakMap<Bot, SceneBlocks>();

function kinds(bot: Bot): Kinds {
  const registry = bot.registry;
  let k = kindsOf.get(registry);
  if (!k) {
    const states = registry.blocksByStateId as Record<number, { name: string; transparent: boolean; boundingBox: string } | undefined>;
    let max = 0;
    for (const id of Object.keys(states)) max = Math.max(max, Number(id));
    k = new Uint8Array(max + 1);
    for (const [id, b] of Object.entries(states)) {
      if (b && !NOTHING.has(b.name)) k[Number(id)] = b.transparent || b.boundingBox !== 'block' ? 1 : 2;
    }
    kindsOf.set(registry, k);
  }
  return k;
}

const round = (n: number, digits: number): number => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * The blocks within `radius` of the bot's feet (a cube, cut to the world's height) that have a side
 * that can be seen. A block whose chunk is not loaded counts as opaque and is left out.
 *
 * @example
 * const b = visibleBlocks(bot, 16);
 * b.palette[b.blocks[3]]; // 'grass_block'
 */
export function visibleBlocks(bot: Bot, radius: number): SceneBlocks {
  const feet = bot.entity.position.floored();
  const game = bot.game as { minY?: number; height?: number };
  const minY = game.minY ?? 0;
  const maxY = minY + (game.height ?? 256) - 1;
  const from = { x: feet.x - radius, y: Math.max(minY, feet.y - radius), z: feet.z - radius };
  const to = { x: feet.x + radius, y: Math.min(maxY, feet.y + radius), z: feet.z + radius };
  const sx = to.x - from.x + 1;
  const sy = to.y - from.y + 1;
  const sz = to.z - from.z + 1;
  const kind = kinds(bot);
  const world = bot.world as unknown as { getColumn(cx: number, cz: number): ColumnLike | undefined };
  // The box's state ids, x fastest, then z, then y; -1 where the chunk is not loaded.
  const states = new Int32Array(sx * sy * sz);
  const pos = { x: 0, y: 0, z: 0 };
  for (let dz = 0; dz < sz; dz++) {
    for (let dx = 0; dx < sx; dx++) {
      const x = from.x + dx;
      const z = from.z + dz;
      const column = world.getColumn(Math.floor(x / 16), Math.floor(z / 16));
      pos.x = ((x % 16) + 16) % 16;
      pos.z = ((z % 16) + 16) % 16;
      for (let dy = 0; dy < sy; dy++) {
        pos.y = from.y + dy;
        states[(dy * sz + dz) * sx + dx] = column ? column.getBlockStateId(pos) : -1;
      }
    }
  }
  const kindAt = (i: number): number => {
    const s = states[i] ?? -1;
    return s < 0 ? 2 : (kind[s] ?? 2);
  };
  const palette: string[] = [];
  const index = new Map<number, number>();
  const blocks: number[] = [];
  const plane = sx * sz;
  for (let dy = 0; dy < sy; dy++) {
    for (let dz = 0; dz < sz; dz++) {
      for (let dx = 0; dx < sx; dx++) {
        const i = (dy * sz + dz) * sx + dx;
        if ((states[i] ?? -1) < 0 || kindAt(i) === 0) continue;
        // Seen when a side faces something light passes through; the box's outside counts as opaque.
        const open =
          (dx > 0 && kindAt(i - 1) < 2) ||
          (dx < sx - 1 && kindAt(i + 1) < 2) ||
          (dz > 0 && kindAt(i - sx) < 2) ||
          (dz < sz - 1 && kindAt(i + sx) < 2) ||
          (dy > 0 && kindAt(i - plane) < 2) ||
          (dy < sy - 1 && kindAt(i + plane) < 2);
        if (!open) continue;
        const state = states[i] ?? 0;
        const block = bot.registry.blocksByStateId[state];
        if (!block) continue;
        let p = index.get(block.id);
        if (p === undefined) {
          p = palette.length;
          palette.push(block.name);
          index.set(block.id, p);
        }
        blocks.push(from.x + dx, from.y + dy, from.z + dz, p);
      }
    }
  }
  return { takenAt: Date.now(), from, to, palette, blocks };
}

/**
 * Where the bot is and looks and who is near; with `withBlocks`, the blocks around it too (read again at
 * most every {@link SCENE_BLOCKS_MS}: a call sooner gets the last reading).
 *
 * @example
 * const s = sceneOf(bot, SCENE_RADIUS, true);
 * s.pose.yaw; s.blocks?.palette;
 */
export function sceneOf(bot: Bot, radius: number, withBlocks: boolean): Scene {
  const e = bot.entity;
  let blocks: SceneBlocks | null = null;
  if (withBlocks) {
    const last = lastBlocks.get(bot);
    const same = last && last.to.x - last.from.x === 2 * radius && Date.now() - last.takenAt < SCENE_BLOCKS_MS;
    blocks = same && last ? last : visibleBlocks(bot, radius);
    lastBlocks.set(bot, blocks);
  }
  return {
    pose: { x: round(e.position.x, 2), y: round(e.position.y, 2), z: round(e.position.z, 2), yaw: round(e.yaw, 3), pitch: round(e.pitch, 3) },
    entities: nearbyEntities(bot, radius),
    blocks,
  };
}
