/**
 * A fast nearest-blocks search over the bot's loaded chunks.
 *
 * mineflayer's `findBlocks` skips a chunk section only when the section has a
 * palette; on 1.18+ an all-air (or all-stone) section is a single-value
 * container without one, so it scans all 4096 blocks of every empty section
 * (a 32-block search took ~300 ms). This search reads each section's palette
 * or single value first and scans only sections that can hold a match.
 */
import type { Bot } from 'mineflayer';
import type { Vec3 } from 'vec3';

interface SectionLike {
  data?: { value?: number; palette?: number[]; get(index: number): number };
  palette?: number[];
}

interface ColumnLike {
  minY?: number;
  sections?: Array<SectionLike | null | undefined>;
}

const stateSets = new WeakMap<object, Map<string, Set<number>>>();

/** All state ids of the given block ids (cached per registry). */
export function stateIdsOf(bot: Bot, blockIds: readonly number[]): Set<number> {
  const key = [...blockIds].sort((a, b) => a - b).join(',');
  let perRegistry = stateSets.get(bot.registry);
  if (!perRegistry) {
    perRegistry = new Map();
    stateSets.set(bot.registry, perRegistry);
  }
  let set = perRegistry.get(key);
  if (!set) {
    set = new Set<number>();
    for (const id of blockIds) {
      const b = bot.registry.blocks[id];
      if (!b) continue;
      const min = b.minStateId ?? id;
      const max = b.maxStateId ?? min;
      for (let s = min; s <= max; s++) set.add(s);
    }
    perRegistry.set(key, set);
  }
  return set;
}

/**
 * Positions of blocks whose id is in `blockIds`, within `maxDistance` of the bot (or `point`),
 * nearest first, at most `count`.
 *
 * @example
 * const [nearest] = findBlocksFast(bot, [bot.registry.blocksByName.oak_log.id], { maxDistance: 64, count: 1 });
 */
export function findBlocksFast(
  bot: Bot,
  blockIds: readonly number[],
  opts: { maxDistance: number; count?: number; point?: Vec3 },
): Vec3[] {
  const states = stateIdsOf(bot, blockIds);
  const origin = (opts.point ?? bot.entity.position).floored();
  const r = opts.maxDistance;
  const r2 = r * r;
  const found: Array<{ d2: number; x: number; y: number; z: number }> = [];
  const world = bot.world as unknown as { getColumn(x: number, z: number): ColumnLike | undefined };
  const cx0 = Math.floor((origin.x - r) / 16);
  const cx1 = Math.floor((origin.x + r) / 16);
  const cz0 = Math.floor((origin.z - r) / 16);
  const cz1 = Math.floor((origin.z + r) / 16);
  for (let cx = cx0; cx <= cx1; cx++) {
    for (let cz = cz0; cz <= cz1; cz++) {
      const column = world.getColumn(cx, cz);
      const sections = column?.sections;
      if (!sections) continue;
      const minY = column.minY ?? (bot.game as { minY?: number }).minY ?? 0;
      for (let i = 0; i < sections.length; i++) {
        const section = sections[i];
        if (!section?.data) continue;
        const baseY = minY + i * 16;
        if (baseY + 15 < origin.y - r || baseY > origin.y + r) continue;
        const data = section.data;
        const palette = data.palette ?? section.palette;
        if (palette) {
          if (!palette.some((s) => states.has(s))) continue;
        } else if (data.value !== undefined && !states.has(data.value)) {
          continue;
        }
        const bx = cx * 16;
        const bz = cz * 16;
        for (let idx = 0; idx < 4096; idx++) {
          if (!states.has(data.get(idx))) continue;
          const x = bx + (idx & 15);
          const z = bz + ((idx >> 4) & 15);
          const y = baseY + (idx >> 8);
          const dx = x - origin.x;
          const dy = y - origin.y;
          const dz = z - origin.z;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 <= r2) found.push({ d2, x, y, z });
        }
      }
    }
  }
  found.sort((a, b) => a.d2 - b.d2);
  return found.slice(0, opts.count ?? found.length).map((f) => origin.offset(f.x - origin.x, f.y - origin.y, f.z - origin.z));
}
