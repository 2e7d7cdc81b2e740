/**
 * Item names for the goal language: turning plain English ("oak logs",
 * "wood", "a wooden pickaxe") into registry-style names, matching a goal's
 * item against inventory entries (groups such as `log` match every log), and
 * labelling items for chat.
 *
 * Groups: `log` (any `*_log` / `*_stem`), `planks` (any `*_planks`),
 * `cobblestone` (cobblestone, stone, cobbled deepslate — what "stone" means
 * to a player who mines it), `wool`, `leaves`, `food`.
 */
import { own } from '../keyed.ts';
import { isItemKind, isItemName } from './known-items.ts';

/** Food items (the `food` group, and what the curriculum counts as food). */
export const FOOD_ITEMS: ReadonlySet<string> = new Set([
  'apple', 'bread', 'baked_potato', 'carrot', 'potato', 'beetroot', 'sweet_berries', 'glow_berries', 'melon_slice',
  'cookie', 'pumpkin_pie', 'golden_apple', 'golden_carrot', 'mushroom_stew', 'rabbit_stew', 'beetroot_soup',
  'dried_kelp', 'beef', 'porkchop', 'chicken', 'mutton', 'rabbit', 'cod', 'salmon', 'cooked_beef',
  'cooked_porkchop', 'cooked_chicken', 'cooked_mutton', 'cooked_rabbit', 'cooked_cod', 'cooked_salmon',
]);

const STONE_LIKE = new Set(['cobblestone', 'stone', 'cobbled_deepslate']);

/** Wood species, for "oak wood" → `oak_log` and picking planks from logs. */
export const WOOD_SPECIES = ['oak', 'spruce', 'birch', 'jungle', 'acacia', 'dark_oak', 'mangrove', 'cherry', 'pale_oak'] as const;

/** Whole-phrase aliases (after articles are removed, before plurals are). */
const ALIASES: Record<string, string> = {
  wood: 'log', woods: 'log', log: 'log', logs: 'log', tree: 'log', trees: 'log', timber: 'log', lumber: 'log',
  'wood log': 'log', 'wood logs': 'log', 'wooden log': 'log', 'wooden logs': 'log', 'tree trunk': 'log', 'tree trunks': 'log',
  stone: 'cobblestone', stones: 'cobblestone', cobble: 'cobblestone', cobbles: 'cobblestone', cobblestone: 'cobblestone',
  cobblestones: 'cobblestone', rock: 'cobblestone', rocks: 'cobblestone', 'stone block': 'cobblestone', 'stone blocks': 'cobblestone',
  plank: 'planks', planks: 'planks', 'wood plank': 'planks', 'wood planks': 'planks', 'wooden plank': 'planks', 'wooden planks': 'planks',
  'crafting table': 'crafting_table', 'crafting tables': 'crafting_table', workbench: 'crafting_table', workbenches: 'crafting_table',
  'craft table': 'crafting_table', bench: 'crafting_table',
  wool: 'wool', leaves: 'leaves', leaf: 'leaves', food: 'food', foods: 'food',
  iron: 'raw_iron', gold: 'raw_gold', copper: 'raw_copper', 'iron ore': 'raw_iron', 'gold ore': 'raw_gold', 'copper ore': 'raw_copper',
  diamonds: 'diamond', 'berries': 'sweet_berries', 'sweet berry': 'sweet_berries', 'sweet berries': 'sweet_berries',
  'glow berries': 'glow_berries', seeds: 'wheat_seeds', seed: 'wheat_seeds', 'wheat seed': 'wheat_seeds', 'wheat seeds': 'wheat_seeds',
  melon: 'melon_slice', melons: 'melon_slice', 'melon slice': 'melon_slice', 'melon slices': 'melon_slice',
  torch: 'torch', torches: 'torch', 'glass pane': 'glass_pane', 'glass panes': 'glass_pane',
  'raw beef': 'beef', steak: 'cooked_beef', steaks: 'cooked_beef', 'cooked steak': 'cooked_beef', pork: 'porkchop',
  'raw pork': 'porkchop', 'raw porkchop': 'porkchop', 'raw porkchops': 'porkchop', 'cooked pork': 'cooked_porkchop',
  'raw chicken': 'chicken', 'raw mutton': 'mutton', lapis: 'lapis_lazuli', 'redstone dust': 'redstone',
};

/** Last words that are already plural in the registry (`oak_planks`, `iron_boots`…). */
const KEEP_PLURAL = new Set(['planks', 'leaves', 'seeds', 'stairs', 'boots', 'leggings', 'shears', 'bars', 'bricks', 'berries', 'tiles', 'roots', 'fungus']);

/** Tool and armour kinds, for "wood pickaxe" → `wooden_pickaxe`, "gold sword" → `golden_sword`. */
const GEAR = new Set(['pickaxe', 'axe', 'shovel', 'sword', 'hoe', 'helmet', 'chestplate', 'leggings', 'boots']);

function singular(word: string): string {
  if (KEEP_PLURAL.has(word) || word.length <= 3) return word;
  if (word.endsWith('ss') || word.endsWith('us')) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('feet')) return `${word.slice(0, -4)}foot`;
  if (word.endsWith('shelves')) return `${word.slice(0, -3)}f`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('axes')) return word.slice(0, -1);
  if (/(ch|sh|x)es$/.test(word) || (word.length > 5 && word.endsWith('oes'))) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/**
 * Normalise an item phrase to a registry-style name or group.
 * Returns null when the phrase cannot be an item name (empty, odd characters, too long).
 *
 * @example
 * normaliseItem('oak logs');        // 'oak_log'
 * normaliseItem('wood');            // 'log' (the log group)
 * normaliseItem('stone');           // 'cobblestone' (accepts stone too)
 * normaliseItem('wooden pickaxe');  // 'wooden_pickaxe'
 */
export function normaliseItem(phrase: string): string | null {
  let p = phrase
    .toLowerCase()
    .replace(/[.!?,;:]+$/g, '')
    .replace(/\b(please|for me|now|nearby|around here)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  p = p.replace(/^(the|some|more|any|of|a|an)\s+/, '').replace(/^(the|some|more|any|of)\s+/, '');
  p = p.replace(/^(blocks?|pieces?|units?|stacks?|items?)\s+of\s+/, '');
  p = p.replace(/^minecraft:/, '').replace(/-/g, ' ').trim();
  if (p === '') return null;
  const alias = own(ALIASES, p);
  if (alias) return alias;
  if (!/^[a-z0-9_ ]+$/.test(p)) return null;
  const words = p.split(/[ _]+/).filter((w) => w !== '');
  if (words.length === 0 || words.length > 4) return null;
  const said = singular(words[words.length - 1] ?? '');
  const last = said === 'pick' ? 'pickaxe' : said;
  words[words.length - 1] = last;
  const joined = words.join(' ');
  const joinedAlias = own(ALIASES, joined);
  if (joinedAlias) return joinedAlias;
  const first = words[0];
  if (words.length === 2 && (first === 'wood' || first === 'wooden') && GEAR.has(last)) return `wooden_${last}`;
  if (words.length === 2 && (first === 'gold' || first === 'golden') && GEAR.has(last)) return `golden_${last}`;
  const species = words.slice(0, -1).join('_');
  if ((last === 'wood' || last === 'log' || last === 'trunk') && (WOOD_SPECIES as readonly string[]).includes(species)) return `${species}_log`;
  if (last === 'plank') return `${species}_planks`;
  const name = words.join('_');
  return name.length <= 48 ? name : null;
}

/** The groups a goal may name: each matches several items (see {@link matchesItem}). */
const GROUPS: ReadonlySet<string> = new Set(['log', 'planks', 'cobblestone', 'stone', 'wool', 'leaves', 'food']);

/**
 * Whether a goal's item (as {@link normaliseItem} gives it) names something Minecraft has: an item, a group
 * (`log`, `planks`, `food`…) or a one-word kind of item (`pickaxe`, `ingot`, `bed`).
 *
 * @example
 * knownItem('oak_log');    // true
 * knownItem('log');        // true (any log)
 * knownItem('pickaxe');    // true (any pickaxe)
 * knownItem('unobtanium'); // false
 */
export function knownItem(item: string): boolean {
  const name = item.replace(/^minecraft:/, '');
  return GROUPS.has(name) || isItemName(name) || (!name.includes('_') && isItemKind(name));
}

/**
 * Does an inventory item (registry name) count toward a goal's item (a name or a group)?
 *
 * @example
 * matchesItem('log', 'birch_log');        // true
 * matchesItem('cobblestone', 'stone');    // true
 * matchesItem('oak_log', 'birch_log');    // false
 * matchesItem('pickaxe', 'stone_pickaxe'); // true
 */
export function matchesItem(query: string, itemName: string): boolean {
  const q = query.replace(/^minecraft:/, '');
  const n = itemName.replace(/^minecraft:/, '');
  if (q === n) return true;
  switch (q) {
    case 'log':
      return n.endsWith('_log') || n.endsWith('_stem');
    case 'planks':
      return n.endsWith('_planks');
    case 'cobblestone':
    case 'stone':
      return STONE_LIKE.has(n);
    case 'wool':
      return n.endsWith('_wool');
    case 'leaves':
      return n.endsWith('_leaves');
    case 'food':
      return FOOD_ITEMS.has(n);
    default:
      // A one-word kind names every variant: "pickaxe" → wooden_pickaxe, "bed" → red_bed, "ingot" → iron_ingot.
      return !q.includes('_') && n.endsWith(`_${q}`);
  }
}

/**
 * How many of an item (or group) an inventory holds.
 *
 * @example
 * countItems({ oak_log: 2, birch_log: 3 }, 'log'); // 5
 */
export function countItems(inventory: Record<string, number>, item: string): number {
  let total = 0;
  for (const [name, n] of Object.entries(inventory)) {
    if (n > 0 && matchesItem(item, name)) total += n;
  }
  return total;
}

/**
 * Last words of item names that take no plural -s: materials, meat and fish ("2 cobblestone", "2 beef",
 * "2 cooked chicken", "2 white wool", "2 raw iron"). Names already plural end in -s and stay as they are.
 */
const MASS_WORDS = new Set([
  'beef', 'mutton', 'chicken', 'rabbit', 'cod', 'salmon', 'flesh', 'food', 'bread', 'wheat', 'kelp', 'sugar', 'cane',
  'fruit', 'cream', 'dirt', 'sand', 'gravel', 'clay', 'snow', 'ice', 'mud', 'soil', 'podzol', 'mycelium', 'coal',
  'charcoal', 'iron', 'gold', 'copper', 'scrap', 'quartz', 'lazuli', 'obsidian', 'netherrack', 'basalt', 'tuff',
  'calcite', 'prismarine', 'purpur', 'concrete', 'terracotta', 'wool', 'glass', 'gunpowder', 'leather', 'string',
  'flint', 'paper', 'bamboo', 'lichen', 'moss', 'tnt', 'meal', 'powder', 'dust',
]);
/** Endings that take no plural -s either: every kind of stone, deepslate and grass, and fish (`pufferfish`). */
const MASS_ENDING = /(?:stone|slate|grass|fish)$/;

/** The plural of an item's words: its last word is made plural (`oak log` → `oak logs`), unless it takes none. */
function pluralWords(words: string): string {
  const last = words.slice(words.lastIndexOf(' ') + 1);
  const head = words.slice(0, words.length - last.length);
  if (MASS_WORDS.has(last) || MASS_ENDING.test(last)) return words;
  if (last.endsWith('ss')) return `${words}es`;
  if (last.endsWith('s')) return words;
  if (last === 'foot') return `${head}feet`;
  if (last.endsWith('shelf')) return `${head}${last.slice(0, -1)}ves`;
  if (/(?:ch|sh|x)$/.test(last) || /[^aeiou]o$/.test(last)) return `${words}es`;
  if (/[^aeiou]y$/.test(last)) return `${words.slice(0, -1)}ies`;
  return `${words}s`;
}

/**
 * A chat label for an item and count: `oak_log`, 3 → "oak logs". Materials, meat and fish take no -s
 * ("2 beef", "5 cobblestone"), and in "X of Y" or "X on a Y" the X is made plural.
 *
 * @example
 * itemLabel('oak_log', 3);           // 'oak logs'
 * itemLabel('torch', 2);             // 'torches'
 * itemLabel('beef', 2);              // 'beef'
 * itemLabel('heart_of_the_sea', 2);  // 'hearts of the sea'
 * itemLabel('log', 1);               // 'log'
 */
export function itemLabel(item: string, count: number): string {
  const base = item.replace(/^minecraft:/, '').replace(/_/g, ' ');
  if (count === 1) return base;
  const of = / (?:of|on) /.exec(base);
  return of ? `${pluralWords(base.slice(0, of.index))}${base.slice(of.index)}` : pluralWords(base);
}

const UNOBTAINABLE: Record<string, string> = {
  air: 'air is not something anyone can hold',
  cave_air: 'air is not something anyone can hold',
  void_air: 'air is not something anyone can hold',
  water: 'water can only be carried in a bucket (say "get 1 water bucket")',
  lava: 'lava can only be carried in a bucket (say "get 1 lava bucket")',
  fire: 'fire cannot be picked up',
  soul_fire: 'fire cannot be picked up',
  nether_portal: 'a portal cannot be picked up',
  end_portal: 'a portal cannot be picked up',
  end_gateway: 'a portal cannot be picked up',
  bubble_column: 'a bubble column cannot be picked up',
  moving_piston: 'a moving piston cannot be picked up',
  piston_head: 'a piston head cannot be picked up (mine the piston)',
};

/** Blocks no survival player can mine or pick up. */
const UNBREAKABLE = new Set([
  'bedrock', 'barrier', 'end_portal_frame', 'command_block', 'chain_command_block', 'repeating_command_block',
  'structure_block', 'structure_void', 'jigsaw', 'light', 'reinforced_deepslate', 'budding_amethyst', 'spawner',
  'trial_spawner', 'vault', 'frosted_ice', 'petrified_oak_slab', 'knowledge_book', 'debug_stick',
]);

/**
 * Why a goal's item can never be in an inventory (air, water without a bucket, bedrock…), or null when
 * it can. The goal language refuses such goals at once, so the avatar never works on them in vain.
 *
 * @example
 * unobtainable('air');     // 'air is not something anyone can hold'
 * unobtainable('oak_log'); // null
 */
export function unobtainable(item: string): string | null {
  const name = item.replace(/^minecraft:/, '');
  const why = own(UNOBTAINABLE, name);
  if (why) return why;
  if (UNBREAKABLE.has(name)) return `${name.replace(/_/g, ' ')} cannot be mined or picked up in survival`;
  return null;
}
