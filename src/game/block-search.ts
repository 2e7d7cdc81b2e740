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
import type { Block } from 'prismarine-block';
import type { Vec3 } from 'vec3';

interface SectionLike {
  data?: { value?: number; palette?: number[]; get(index: number): number };
  palette?: number[];
}

interface ColumnLike {
  minY?: number;
  sections?: Array<SectionLike | null | undefined>;
}

/** A loaded chunk section: its blocks and palette, and its lowest corner. */
interface LoadedSection {
  data: NonNullable<SectionLike['data']>;
  palette: number[] | undefined;
  bx: number;
  by: number;
  bz: number;
}

/** The loaded sections of the chunk columns within `r` blocks of `origin` across (every height). */
function sectionsAround(bot: Bot, origin: Vec3, r: number): LoadedSection[] {
  const world = bot.world as unknown as { getColumn(x: number, z: number): ColumnLike | undefined };
  const out: LoadedSection[] = [];
  for (let cx = Math.floor((origin.x - r) / 16); cx <= Math.floor((origin.x + r) / 16); cx++) {
    for (let cz = Math.floor((origin.z - r) / 16); cz <= Math.floor((origin.z + r) / 16); cz++) {
      const column = world.getColumn(cx, cz);
      const sections = column?.sections;
      if (!sections) continue;
      const minY = column.minY ?? (bot.game as { minY?: number }).minY ?? 0;
      for (let i = 0; i < sections.length; i++) {
        const section = sections[i];
        if (!section?.data) continue;
        out.push({ data: section.data, palette: section.data.palette ?? section.palette, bx: cx * 16, by: minY + i * 16, bz: cz * 16 });
      }
    }
  }
  return out;
}

/** A value built once per registry and key, and kept as long as the registry lives. */
function perRegistry<T>(cache: WeakMap<object, Map<string, T>>, bot: Bot, key: string, build: () => T): T {
  let byKey = cache.get(bot.registry);
  if (!byKey) {
    byKey = new Map();
    cache.set(bot.registry, byKey);
  }
  let value = byKey.get(key);
  if (value === undefined) {
    value = build();
    byKey.set(key, value);
  }
  return value;
}

const stateSets = new WeakMap<object, Map<string, Set<number>>>();

/** All state ids of the given block ids (cached per registry). */
export function stateIdsOf(bot: Bot, blockIds: readonly number[]): Set<number> {
  return perRegistry(stateSets, bot, [...blockIds].sort((a, b) => a - b).join(','), () => {
    const set = new Set<number>();
    for (const id of blockIds) {
      const b = bot.registry.blocks[id];
      if (!b) continue;
      const min = b.minStateId ?? id;
      const max = b.maxStateId ?? min;
      for (let s = min; s <= max; s++) set.add(s);
    }
    return set;
  });
}

/** A loaded section within reach, and the least squared distance from the origin to a block of it. */
type NearSection = LoadedSection & { minD2: number };

/** The loaded sections with a block within `r` of `origin`, nearest first (by their nearest block). */
function sectionsNearestFirst(bot: Bot, origin: Vec3, r: number): NearSection[] {
  const r2 = r * r;
  const out: NearSection[] = [];
  const clampD = (v: number, lo: number, hi: number): number => (v < lo ? lo - v : v > hi ? v - hi : 0);
  for (const section of sectionsAround(bot, origin, r)) {
    const dx = clampD(origin.x, section.bx, section.bx + 15);
    const dy = clampD(origin.y, section.by, section.by + 15);
    const dz = clampD(origin.z, section.bz, section.bz + 15);
    const minD2 = dx * dx + dy * dy + dz * dz;
    if (minD2 <= r2) out.push({ ...section, minD2 });
  }
  return out.sort((a, b) => a.minD2 - b.minD2);
}

/**
 * Positions of blocks whose id is in `blockIds`, within `maxDistance` of the bot (or `point`),
 * nearest first, at most `count`. Sections are read nearest first, and once `count` are found a section
 * wholly farther than the farthest of them is not read: the nearest 32 stone blocks of a 64-block radius
 * read a section or two (all 230,000 took a second of the event loop).
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
  const limit = opts.count ?? Infinity;
  let found: Array<{ d2: number; x: number; y: number; z: number }> = [];
  // The squared distance of the farthest of the `limit` nearest found so far (none farther can be in the answer).
  let bound = r2;
  const byDistance = (a: { d2: number }, b: { d2: number }): number => a.d2 - b.d2;
  for (const { data, palette, bx, by, bz, minD2 } of sectionsNearestFirst(bot, origin, r)) {
    if (minD2 > bound) break;
    if (palette) {
      if (!palette.some((s) => states.has(s))) continue;
    } else if (data.value !== undefined && !states.has(data.value)) {
      continue;
    }
    for (let idx = 0; idx < 4096; idx++) {
      if (!states.has(data.get(idx))) continue;
      const x = bx + (idx & 15);
      const z = bz + ((idx >> 4) & 15);
      const y = by + (idx >> 8);
      const dx = x - origin.x;
      const dy = y - origin.y;
      const dz = z - origin.z;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 <= bound) found.push({ d2, x, y, z });
    }
    if (found.length >= limit) {
      found = found.sort(byDistance).slice(0, limit);
      bound = found[found.length - 1]!.d2;
    }
  }
  found.sort(byDistance);
  return found.slice(0, limit).map((f) => origin.offset(f.x - origin.x, f.y - origin.y, f.z - origin.z));
}

/**
 * The nearest block whose id is in `blockIds` within `maxDistance`, as mineflayer's `bot.findBlock` finds it
 * (measured the same way), but reading only the chunk sections that can hold one: mineflayer's reads every
 * block of every 1.18+ section as a `Block` (a 48-block search for a crafting table took a quarter of an
 * avatar host's CPU with 50 avatars on it).
 *
 * @example
 * const table = findBlockFast(bot, [bot.registry.blocksByName.crafting_table.id], 48);
 */
export function findBlockFast(bot: Bot, blockIds: readonly number[], maxDistance: number): Block | null {
  const [nearest] = findBlocksFast(bot, blockIds, { maxDistance, count: 1 });
  return nearest ? bot.blockAt(nearest) : null;
}

/** For each state id, the index of the group it belongs to (-1: none), cached per registry and group list. */
const groupMaps = new WeakMap<object, Map<string, Int16Array>>();

function groupMapOf(bot: Bot, groups: readonly (readonly number[])[]): Int16Array {
  const key = groups.map((g) => [...g].sort((a, b) => a - b).join(',')).join('|');
  return perRegistry(groupMaps, bot, key, () => {
    const sets = groups.map((g) => stateIdsOf(bot, g));
    const max = Math.max(0, ...sets.flatMap((s) => [...s]));
    const map = new Int16Array(max + 1).fill(-1);
    sets.forEach((s, i) => {
      for (const state of s) if (map[state] === -1) map[state] = i;
    });
    return map;
  });
}

/**
 * The nearest block of each group (a group is a list of block ids) within `maxDistance` of the bot, in one
 * walk over the loaded chunk sections: nearest sections first, and a section is read only while it can
 * still hold a block nearer than the best found so far of a group it holds. Nearest is measured as in
 * {@link findBlocksFast} (from the bot's block to the block's corner); a group with none in reach gets
 * undefined. With stone under the bot's feet, most sections are never read.
 *
 * @example
 * const [log, stone] = nearestOfEach(bot, [logIds, stoneIds], 32);
 */
export function nearestOfEach(bot: Bot, groups: readonly (readonly number[])[], maxDistance: number): Array<{ position: Vec3; stateId: number } | undefined> {
  const groupOf = groupMapOf(bot, groups);
  const origin = bot.entity.position.floored();
  const r2 = maxDistance * maxDistance;
  const candidates = sectionsNearestFirst(bot, origin, maxDistance);
  const best: Array<{ d2: number; x: number; y: number; z: number; stateId: number } | undefined> = groups.map(() => undefined);
  const wanted = (g: number, minD2: number): boolean => g >= 0 && (best[g] === undefined || best[g]!.d2 > minD2);
  for (const c of candidates) {
    const states = c.palette ?? (c.data.value !== undefined ? [c.data.value] : undefined);
    // A section without a palette or single value (a direct container) may hold anything: read it.
    if (states && !states.some((s) => wanted(groupOf[s] ?? -1, c.minD2))) continue;
    if (states?.length === 1) {
      // One state fills the section: its nearest block is the nearest point of the section.
      const s = states[0]!;
      const g = groupOf[s] ?? -1;
      const x = Math.min(Math.max(origin.x, c.bx), c.bx + 15);
      const y = Math.min(Math.max(origin.y, c.by), c.by + 15);
      const z = Math.min(Math.max(origin.z, c.bz), c.bz + 15);
      if (wanted(g, c.minD2)) best[g] = { d2: c.minD2, x, y, z, stateId: s };
      continue;
    }
    for (let idx = 0; idx < 4096; idx++) {
      const s = c.data.get(idx);
      const g = groupOf[s] ?? -1;
      if (g < 0) continue;
      const x = c.bx + (idx & 15);
      const z = c.bz + ((idx >> 4) & 15);
      const y = c.by + (idx >> 8);
      const dx = x - origin.x;
      const dy = y - origin.y;
      const dz = z - origin.z;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 <= r2 && (best[g] === undefined || d2 < best[g]!.d2)) best[g] = { d2, x, y, z, stateId: s };
    }
  }
  return best.map((b) => (b ? { position: origin.offset(b.x - origin.x, b.y - origin.y, b.z - origin.z), stateId: b.stateId } : undefined));
}
