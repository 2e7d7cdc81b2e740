/**
 * The snapshot: what an avatar sees and carries, as plain data.
 *
 * Reading the nearest notable blocks walks chunk sections (nearest first, one
 * walk for every group: `nearestOfEach`), and that part is cached per bot for
 * a couple of seconds (and until the bot moves a few blocks).
 */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { cleanLine } from '../sanitize.ts';
import { nearestOfEach } from './block-search.ts';
import { standingColumns } from './columns.ts';
import type { BlockColumn, NearbyEntity, Snapshot } from './game.ts';

/** How far the snapshot looks for notable blocks and entities. */
export const SNAPSHOT_RADIUS = 32;
/** How long the nearby-blocks part of a snapshot is reused. */
export const BLOCK_CACHE_MS = 2000;

/** Groups of notable blocks; the snapshot reports the nearest block of each group under its own name. */
const NOTABLE: Array<{ group: string; test: (name: string) => boolean }> = [
  { group: 'log', test: (n) => n.endsWith('_log') || n.endsWith('_stem') },
  { group: 'stone', test: (n) => n === 'stone' || n === 'cobblestone' || n === 'deepslate' },
  { group: 'ore', test: (n) => n.endsWith('_ore') },
  { group: 'water', test: (n) => n === 'water' },
  { group: 'lava', test: (n) => n === 'lava' },
  { group: 'crafting_table', test: (n) => n === 'crafting_table' },
  { group: 'furnace', test: (n) => n === 'furnace' },
  { group: 'chest', test: (n) => n === 'chest' },
  { group: 'sand', test: (n) => n === 'sand' },
  { group: 'gravel', test: (n) => n === 'gravel' },
  { group: 'bed', test: (n) => n.endsWith('_bed') },
];

interface BlockCache {
  at: number;
  x: number;
  y: number;
  z: number;
  blocks: Record<string, number>;
}

const blockCaches = new WeakMap<Bot, BlockCache>();
/**
 * The columns each bot read last, with where it stood and how many block changes it had seen then: read again only
 * once a block changed in its world or it moved (the frequent snapshots that reuse blocks take them as they are).
 */
const columnCaches = new WeakMap<Bot, { changes: number; x: number; y: number; z: number; columns: BlockColumn[] }>();
/** Block changes (and chunk loads) each bot has seen since the count began. */
const blockChanges = new WeakMap<Bot, { n: number }>();

function changesSeen(bot: Bot): number {
  let seen = blockChanges.get(bot);
  if (!seen) {
    const counter = { n: 0 };
    const bump = (): void => {
      counter.n++;
    };
    bot.on('blockUpdate', bump);
    bot.on('chunkColumnLoad', bump);
    blockChanges.set(bot, counter);
    seen = counter;
  }
  return seen.n;
}
const groupIds = new WeakMap<Bot, Array<{ group: string; ids: number[] }>>();

const PASSIVE_TYPES = new Set(['animal', 'passive', 'water_creature', 'ambient']);

/** Whether an entity is a hostile mob. */
export function isHostile(e: Entity): boolean {
  return e.type === 'hostile' || e.kind === 'Hostile mobs';
}

/** The kind of an entity, as the snapshot reports it. */
export function entityKind(e: Entity): NearbyEntity['kind'] {
  if (e.type === 'player') return 'player';
  if (isHostile(e)) return 'hostile';
  // prismarine-entity's type union is narrower than what mineflayer sets from minecraft-data.
  const type: string = e.type;
  if (PASSIVE_TYPES.has(type) || e.kind === 'Passive mobs') return 'passive';
  return 'other';
}

function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function ids(bot: Bot): Array<{ group: string; ids: number[] }> {
  let g = groupIds.get(bot);
  if (!g) {
    const blocks = Object.values(bot.registry.blocksByName);
    g = NOTABLE.map(({ group, test }) => ({ group, ids: blocks.filter((b) => test(b.name)).map((b) => b.id) })).filter((x) => x.ids.length > 0);
    groupIds.set(bot, g);
  }
  return g;
}

/**
 * Nearest notable blocks by name → distance (blocks, one decimal). Cached; `force` rescans; `reuse` takes
 * the last reading however old (an avatar host's frequent snapshots, which must not search every time).
 */
export function nearbyBlocks(bot: Bot, force = false, reuse = false): Record<string, number> {
  const pos = bot.entity.position;
  const cached = blockCaches.get(bot);
  const now = Date.now();
  if (cached && reuse && !force) return { ...cached.blocks };
  if (
    !force &&
    cached &&
    now - cached.at < BLOCK_CACHE_MS &&
    Math.abs(cached.x - pos.x) + Math.abs(cached.y - pos.y) + Math.abs(cached.z - pos.z) < 4
  ) {
    return { ...cached.blocks };
  }
  const out: Record<string, number> = {};
  const nearest = nearestOfEach(bot, ids(bot).map((g) => g.ids), SNAPSHOT_RADIUS);
  for (const found of nearest) {
    if (!found) continue;
    const name = bot.registry.blocksByStateId[found.stateId]?.name;
    if (!name) continue;
    const d = round(found.position.offset(0.5, 0.5, 0.5).distanceTo(pos), 1);
    out[name] = Math.min(out[name] ?? Infinity, d);
  }
  blockCaches.set(bot, { at: now, x: pos.x, y: pos.y, z: pos.z, blocks: out });
  return { ...out };
}

/** Item name → count over all inventory slots. */
export function inventoryCounts(bot: Bot): Record<string, number> {
  const inv: Record<string, number> = {};
  for (const item of bot.inventory.items()) inv[item.name] = (inv[item.name] ?? 0) + item.count;
  return inv;
}

/** Entities within the snapshot radius, nearest first (at most 20), the bot itself excluded. */
export function nearbyEntities(bot: Bot, radius = SNAPSHOT_RADIUS): NearbyEntity[] {
  const me = bot.entity;
  const out: NearbyEntity[] = [];
  for (const e of Object.values(bot.entities)) {
    if (e === me || !e.position) continue;
    const distance = e.position.distanceTo(me.position);
    if (distance > radius) continue;
    out.push({
      // A server may send any player name: it enters mindlink clean (src/sanitize.ts).
      name: cleanLine(e.type === 'player' ? (e.username ?? 'player') : (e.name ?? 'unknown')),
      kind: entityKind(e),
      distance: round(distance, 1),
      position: { x: round(e.position.x), y: round(e.position.y), z: round(e.position.z) },
    });
  }
  out.sort((a, b) => a.distance - b.distance);
  return out.slice(0, 20);
}

/**
 * The free-standing columns near the bot ({@link standingColumns}): read afresh once a block changed or the bot
 * moved since the last reading (a pillar placed a moment ago is in it), else as last read; as last read whenever
 * `reuse` is set.
 */
function columnsNear(bot: Bot, reuse: boolean): BlockColumn[] {
  const changes = changesSeen(bot);
  const feet = bot.entity.position.floored();
  const cached = columnCaches.get(bot);
  const same = cached && cached.changes === changes && cached.x === feet.x && cached.y === feet.y && cached.z === feet.z;
  if (cached && (reuse || same)) return cached.columns.map((c) => ({ ...c }));
  const columns = standingColumns(bot);
  columnCaches.set(bot, { changes, x: feet.x, y: feet.y, z: feet.z, columns });
  return columns.map((c) => ({ ...c }));
}

/**
 * Read a snapshot of a spawned bot (`reuseBlocks`: the nearest blocks and columns as last read, see {@link nearbyBlocks}).
 *
 * @example
 * const s = takeSnapshot(bot); s.inventory.oak_log // → 3
 */
export function takeSnapshot(bot: Bot, opts: { reuseBlocks?: boolean } = {}): Snapshot {
  const p = bot.entity.position;
  const dim = String(bot.game?.dimension ?? 'overworld').replace(/^minecraft:/, '');
  return {
    position: { x: round(p.x), y: round(p.y), z: round(p.z) },
    health: bot.health ?? 20,
    food: bot.food ?? 20,
    xp: { level: bot.experience?.level ?? 0, points: bot.experience?.points ?? 0 },
    inventory: inventoryCounts(bot),
    timeOfDay: bot.time?.timeOfDay ?? 0,
    dimension: dim,
    nearbyBlocks: nearbyBlocks(bot, false, opts.reuseBlocks === true),
    nearbyEntities: nearbyEntities(bot),
    columns: columnsNear(bot, opts.reuseBlocks === true),
    takenAt: Date.now(),
  };
}
