/**
 * The item and mob names Minecraft has, from minecraft-data: whether a goal's
 * item exists at all, and the names nearest one that does not.
 *
 * A goal is read before it is known which server will play it, so the names
 * are those of two versions together: 1.13.2, the first with today's names
 * (`oak_log`, not `log` with a number), and the newest minecraft-data knows.
 * An item renamed since (`grass`, now `short_grass`) is known by both names.
 * They are read once, when a goal first names an item, from the two tables
 * they are in (items and entities) alone.
 */
import { createRequire } from 'node:module';
import type minecraftData from 'minecraft-data';
import { distance } from 'fastest-levenshtein';

const requireHere = createRequire(import.meta.url);

/** The part of one version's item and entity tables read here. */
interface NameTables {
  items?: ReadonlyArray<{ name: string }> | undefined;
  entities?: ReadonlyArray<{ name: string; type?: string }> | undefined;
}

/**
 * minecraft-data's tables by version, each table read from its file when first asked (its `data.js`).
 * `minecraftData(version)` would read every table of the version (its protocol, recipes, languages…) and index them
 * all: a fifth of a second each, for two tables.
 */
const dataFiles = requireHere('minecraft-data/data.js') as { pc: Record<string, NameTables | undefined> };

/** The item and entity tables of `version` (through `minecraftData` for a name that is not a folder of its own). */
function nameTables(version: string): NameTables {
  const files = dataFiles.pc[version];
  if (files) return { items: files.items, entities: files.entities };
  const data = (requireHere('minecraft-data') as typeof minecraftData)(version);
  return { items: data?.itemsArray, entities: data?.entitiesArray };
}

/**
 * The versions whose names count: the first flattened one and the newest (minecraft-data's list of them, read from its
 * own file: minecraft-data's index reads and indexes its version lists and schemas, which the names need none of).
 */
const NAME_VERSIONS = ['1.13.2', (requireHere('minecraft-data/minecraft-data/data/pc/common/versions.json') as string[]).at(-1) ?? '1.21.4'];

interface Names {
  items: ReadonlySet<string>;
  /** Items as lists of words, for {@link nearestItems}. */
  words: ReadonlyArray<{ name: string; words: string[] }>;
  mobs: ReadonlySet<string>;
}

let names: Names | undefined;

function loaded(): Names {
  if (names) return names;
  const items = new Set<string>();
  const mobs = new Set<string>();
  for (const version of NAME_VERSIONS) {
    const data = nameTables(version);
    for (const item of data.items ?? []) items.add(item.name);
    for (const entity of data.entities ?? []) if (entity.type !== 'projectile' && entity.type !== 'other') mobs.add(entity.name);
  }
  names = { items, words: [...items].sort().map((name) => ({ name, words: name.split('_') })), mobs };
  return names;
}

/**
 * Read the names now rather than when a goal first names an item: mindlink does it while the world starts, so
 * the first avatar's first goal (its first line) does not wait for two versions' tables.
 *
 * @example
 * readItemNames();
 */
export function readItemNames(): void {
  loaded();
}

/**
 * Whether Minecraft has an item of this registry name (`oak_log`, `cooked_beef`).
 *
 * @example
 * isItemName('cooked_beef'); // true
 * isItemName('unobtanium');  // false
 */
export function isItemName(name: string): boolean {
  return loaded().items.has(name);
}

/**
 * Whether some item's name ends with `_<word>`: a one-word kind (`pickaxe`, `ingot`, `bed`).
 *
 * @example
 * isItemKind('pickaxe'); // true (wooden_pickaxe, iron_pickaxe…)
 */
export function isItemKind(word: string): boolean {
  const end = `_${word}`;
  for (const name of loaded().items) if (name.endsWith(end)) return true;
  return false;
}

/**
 * Whether this is a mob's (or another living thing's) registry name: `cow`, `villager`, `zombie`.
 *
 * @example
 * isMobName('cow'); // true
 */
export function isMobName(name: string): boolean {
  return loaded().mobs.has(name);
}

/**
 * The `max` item names nearest `name` (a registry-style name), nearest first: by edit distance, less two for
 * each word of `name` that begins a word of the item (`iron_pick` is nearer `iron_pickaxe` than `iron_block`).
 * `skip` leaves names out (things no one can hold).
 *
 * @example
 * nearestItems('diamnod', 1);          // ['diamond']
 * nearestItems('wood_pickaxe', 1);     // ['wooden_pickaxe']
 */
export function nearestItems(name: string, max = 3, skip: (item: string) => boolean = () => false): string[] {
  const asked = name.split('_').filter((w) => w !== '');
  const scored: { name: string; score: number }[] = [];
  for (const item of loaded().words) {
    if (skip(item.name)) continue;
    const shared = asked.filter((w) => item.words.some((iw) => iw.startsWith(w))).length;
    scored.push({ name: item.name, score: distance(name, item.name) - 2 * shared });
  }
  return scored
    .sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : 1))
    .slice(0, max)
    .map((s) => s.name);
}
