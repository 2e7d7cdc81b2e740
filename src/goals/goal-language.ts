/**
 * The goal language: plain-English goals ("collect 10 oak logs", "go to 10 64 -20",
 * "craft a wooden pickaxe") parsed into {@link GoalIntent}s.
 *
 * Used by the scripted engine (what to do) and by the goal loop's completion
 * check (what "done" means), so both read a goal the same way
 * (README "Goals the avatar understands"): collect / gather / mine / chop / dig N X means N
 * more than held when the goal was set; have / get / obtain N X means holding
 * at least N. Given the avatar's places (`places.ts`), "go to base" and "stay
 * near the village" name a place it remembers.
 */
import { knownItem, normaliseItem, unobtainable } from '../game/items.ts';
import { isMobName, nearestItems } from '../game/known-items.ts';
import { smeltInputs, smeltsInto } from '../game/smelting.ts';
import { COUNT_RANGE, MAX_COUNT, readCount } from './counts.ts';
import { noSuchPlace, placeNameProblem, type KnownPlaces } from './places.ts';

/** What a goal asks for. */
export type GoalIntent =
  | { kind: 'collect'; item: string; count: number; mode: 'more' | 'have' }
  /** `place`: a place the avatar remembers ("go to base"); `stay`: to stay near it ("stay near the village"), a standing direction. */
  | { kind: 'go_to'; x: number; y: number; z: number; place?: string; stay?: true }
  | { kind: 'follow'; player: string }
  | { kind: 'come_to'; player: string }
  | { kind: 'craft'; item: string; count: number }
  | { kind: 'say'; text: string }
  | { kind: 'explore' }
  | { kind: 'eat' }
  /** `never`: no engine can ever do it as written (a count out of range, a place outside the world, air, an item Minecraft has not); see {@link impossibleGoal}. */
  | { kind: 'unknown'; reason: string; never?: true };

export { MAX_COUNT } from './counts.ts';

/** The count used when a collect/get goal names no number ("collect some logs"). */
export const DEFAULT_COUNT = 10;

/** One line listing what the goal language understands, for refusals. */
export const KNOWN_GOALS =
  'I know how to collect, mine, chop, get, go to (x y z), follow, come to, craft, smelt, say, explore and eat, e.g. "collect 10 oak logs", "go to 10 64 -20", "craft a wooden pickaxe", "smelt 3 iron"';

const MORE_VERBS = new Set(['collect', 'gather', 'mine', 'chop', 'dig', 'harvest', 'cut', 'fell', 'quarry', 'pick', 'find', 'grab', 'fetch']);
const HAVE_VERBS = new Set(['have', 'get', 'obtain', 'acquire', 'hold', 'own']);
const GO_VERBS = new Set(['go', 'walk', 'run', 'move', 'head', 'travel', 'return', 'navigate', 'sprint', 'goto', 'get', 'teleport']);
const CRAFT_VERBS = new Set(['craft', 'make']);
/** Smelting is crafting in a furnace: "smelt 3 iron" and "cook 2 beef" are goals to make the furnace's output. */
const SMELT_VERBS = new Set(['smelt', 'cook', 'roast']);
const SAY_VERBS = new Set(['say', 'chat', 'shout', 'announce', 'yell']);
const EXPLORE_WORDS = /^(explore|wander|roam|scout|look around|go exploring|go explore|wander around|explore around|look about)\b/i;
/** Words that name a place where a player's name could stand ("stay near spawn"); `the player spawn` is still a player. */
const PLACES = new Set(['spawn', 'village', 'base', 'camp', 'house', 'river', 'lake', 'sea', 'ocean', 'forest', 'woods', 'cave', 'mine', 'farm', 'town', 'city', 'castle', 'tree', 'trees', 'water', 'beach', 'mountain', 'hill', 'shore', 'portal', 'bed']);
/** Of those, what the world itself has: an engine that explores may find one, so an unknown one is not refused as written. */
const LANDMARKS = new Set(['spawn', 'village', 'river', 'lake', 'sea', 'ocean', 'forest', 'woods', 'cave', 'town', 'city', 'tree', 'trees', 'water', 'beach', 'mountain', 'hill', 'shore', 'portal']);
const PRONOUNS = new Set(['the', 'a', 'an', 'this', 'that', 'my', 'your', 'our', 'me', 'you', 'him', 'her', 'them', 'us', 'it', 'someone', 'somebody', 'everyone', 'anyone', 'here', 'there', 'player', 'home']);

/** Clean the goal's wrapping: "Goal:" prefixes, "please", "can you", trailing punctuation. */
function stripWrapping(text: string): string {
  let t = text.replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 4; i += 1) {
    const before = t;
    t = t
      .replace(/^(?:(?:your\s+)?new\s+goal(?:\s+is)?|your\s+goal\s+is|goal)\s*[:\-–]?\s*/i, '')
      .replace(/^(?:please|pls|plz|can\s+you|could\s+you|would\s+you|will\s+you|i\s+want\s+you\s+to|i'd\s+like\s+you\s+to|you\s+should|try\s+to|let's|lets|now)\s*,?\s+/i, '')
      .replace(/^go\s+and\s+/i, '')
      .replace(/^go\s+(?=(?:collect|gather|mine|chop|dig|harvest|get|grab|fetch|find|craft|make|eat|say)\b)/i, '')
      .replace(/\s*(?:,?\s*please|,?\s*thanks|,?\s*thank you|for\s+me)\s*[.!]*$/i, '')
      .trim();
    if (t === before) break;
  }
  return t;
}

/** Strip one pair of quotes around a say text. */
function unquote(s: string): string {
  const t = s.trim();
  const m = /^(["'“”‘’`])([\s\S]*)(["'“”‘’`])$/.exec(t);
  return m ? (m[2] ?? '').trim() : t;
}

function unknown(reason: string): GoalIntent {
  return { kind: 'unknown', reason };
}

/** A goal no engine can ever do as written: refused before it is set (see {@link impossibleGoal}). */
function never(reason: string): GoalIntent {
  return { kind: 'unknown', reason, never: true };
}

function cannot(goal: string): GoalIntent {
  const short = goal.length > 60 ? `${goal.slice(0, 57)}…` : goal;
  return unknown(`I can't ${short.replace(/[.!?]+$/, '')} yet; ${KNOWN_GOALS}`);
}

const MAX_COORD = 29_999_984;

/** A number as coordinates are written, exponent included (`1e308` is read whole and refused, never cut to 1). */
const COORD = '[-+]?\\d+(?:\\.\\d+)?(?:e[-+]?\\d+)?';

/** Coordinates read, or why not: `never` when they were meant as coordinates but no place in the world has them. */
type CoordsRead = { x: number; y: number; z: number } | { reason: string; never: boolean };

/** Parse "10 64 -20", "10, 64, -20", "x=10 y=64 z=-20", "(10 64 -20)". */
function readCoords(rest: string): CoordsRead {
  const r = rest
    .replace(/^(?:the\s+)?(?:coordinates|coords|coordinate|position|location|point|block|spot)\s*(?:at\s+)?:?\s*/i, '')
    .replace(/^at\s+/i, '')
    .trim();
  // A labelled coordinate followed by more digits (`x=1,000`, `x=1 000`) or `k` is refused, never cut to its first group.
  const end = '(?![.,]?\\d|\\s+\\d|\\s*k\\b)';
  const labelled = {
    x: new RegExp(`\\bx\\s*[=:]?\\s*(${COORD})${end}`, 'i'),
    y: new RegExp(`\\by\\s*[=:]?\\s*(${COORD})${end}`, 'i'),
    z: new RegExp(`\\bz\\s*[=:]?\\s*(${COORD})${end}`, 'i'),
  };
  let nums: number[] | null = null;
  if (/\b[xyz]\s*[=:]?\s*-?\d/i.test(r)) {
    const x = labelled.x.exec(r);
    const y = labelled.y.exec(r);
    const z = labelled.z.exec(r);
    if (!x || !y || !z) return { reason: 'I need all three coordinates, like "go to x=10 y=64 z=-20"', never: true };
    nums = [Number(x[1]), Number(y[1]), Number(z[1])];
  } else if (/^[\s,;()[\]\d.eE\-+]+$/.test(r) && /\d/.test(r)) {
    const found = r.match(new RegExp(COORD, 'gi')) ?? [];
    if (found.length !== 3) return { reason: 'I need all three coordinates x y z, like "go to 10 64 -20"', never: true };
    nums = found.map(Number);
  }
  if (!nums) return { reason: 'I can only go to coordinates, like "go to 10 64 -20" (or "come to <player>")', never: false };
  const [x, y, z] = nums as [number, number, number];
  if (![x, y, z].every(Number.isFinite)) return { reason: 'those coordinates are not numbers', never: true };
  if (Math.abs(x) > MAX_COORD || Math.abs(z) > MAX_COORD) return { reason: `that is outside the world border (x and z between -${MAX_COORD} and ${MAX_COORD})`, never: true };
  if (y < -64 || y > 320) return { reason: 'y must be between -64 and 320', never: true };
  return { x, y, z };
}

/** A go-to intent from coordinates read, or the reason (an impossible place is {@link never}). */
function goTo(c: CoordsRead): GoalIntent {
  if ('reason' in c) return c.never ? never(c.reason) : unknown(c.reason);
  return { kind: 'go_to', ...c };
}

/** The one word a place could be called that a phrase names ("base", "the village", "my iron-mine"), or null. */
function placeWord(phrase: string): string | null {
  const word = phrase.trim().replace(/[.!?]+$/, '').replace(/^(?:the|my|our|your)\s+/i, '').toLowerCase();
  return placeNameProblem(word) === null ? word : null;
}

/**
 * A goal to reach a remembered place, or the refusal naming the known ones: {@link never} for a name only a
 * remembered place could mean ("bse"), a goal the language does not know for what the world has ("the river").
 */
function toPlace(name: string, places: KnownPlaces, stay: boolean): GoalIntent {
  const spot = places.get(name);
  if (spot) return { kind: 'go_to', x: spot.x, y: spot.y, z: spot.z, place: spot.name, ...(stay ? { stay: true as const } : {}) };
  const why = noSuchPlace(name, places.names());
  return LANDMARKS.has(name) ? unknown(why) : never(why);
}

/** A player name at the start of the text (case kept), or a reason why there is none. */
function readPlayer(rest: string, verb: string): string | { reason: string } {
  const r = rest.replace(/^(?:the\s+)?player\s+/i, '').replace(/^@/, '').trim();
  const m = /^([A-Za-z0-9_]{1,16})\b/.exec(r);
  const name = m?.[1];
  if (!name || PRONOUNS.has(name.toLowerCase())) {
    return { reason: `tell me which player, e.g. "${verb} alex"` };
  }
  // "stay near spawn" names a place, not a player called Spawn.
  if (PLACES.has(name.toLowerCase()) && !/^(?:the\s+)?player\s+/i.test(rest)) {
    return { reason: `I ${verb} players, not places; for a place give me its coordinates, e.g. "go to 100 64 -20"` };
  }
  return name;
}

/** Words that say more than an item's name ("logs from the forest", "stone with a pickaxe"). */
const QUALIFIED = /\b(?:from|in|at|near|with|by|for|to|into|inside|on|under|using|around|behind|off|and|or)\b/;

/**
 * A goal whose item Minecraft does not have. Holding, mining or crafting a number of it (`counted`: "3", "twelve",
 * "a dozen") can never be done, by any engine: it is refused as written, with the nearest item names. Without a
 * number it may be a task ("dig a moat", "get some sleep"), and finding something ("find a village"), a mob ("get
 * 3 cows"), a place, or an item with more said about it is a goal too: one the goal language does not know, which
 * another engine may do.
 */
function noSuchItem(verb: string, phrase: string, item: string, goal: string, counted: boolean): GoalIntent {
  if (!counted || verb === 'find' || QUALIFIED.test(phrase) || isMobName(item) || PLACES.has(item)) return cannot(goal);
  const nearest = nearestItems(item, 3, (name) => unobtainable(name) !== null).map((name) => name.replace(/_/g, ' '));
  return never(`Minecraft has no item called "${phrase}"; the nearest I know are ${nearest.join(', ')}`);
}

/** Tools and blocks the craft goal accepts; anything else is refused as "no recipe I know". */
const CRAFTABLE_EXACT = new Set([
  'stick', 'crafting_table', 'furnace', 'chest', 'torch', 'ladder', 'bowl', 'bread', 'shield', 'bucket', 'shears',
  'flint_and_steel', 'bow', 'arrow', 'fishing_rod', 'paper', 'book', 'bookshelf', 'glass_pane', 'stone_bricks',
  'campfire', 'lantern', 'cake', 'cookie', 'pumpkin_pie', 'mushroom_stew', 'beetroot_soup', 'golden_apple',
  'compass', 'clock', 'map', 'lever', 'piston', 'rail', 'minecart', 'hopper', 'dispenser', 'observer', 'tnt',
  'stonecutter', 'smoker', 'blast_furnace', 'barrel', 'composter', 'loom', 'anvil', 'grindstone', 'cartography_table',
  'fletching_table', 'smithing_table', 'enchanting_table', 'jukebox', 'note_block', 'painting', 'item_frame',
  'armor_stand', 'lead', 'scaffolding', 'sandstone', 'snow_block', 'bone_meal', 'sugar', 'iron_nugget', 'gold_nugget',
  'iron_block', 'gold_block', 'iron_ingot', 'gold_ingot', 'coal_block', 'white_wool', 'planks', 'oak_planks',
  'chain', 'iron_bars', 'trapped_chest', 'redstone_torch', 'soul_torch', 'bread', 'hay_block', 'sign', 'boat',
]);
const CRAFTABLE_PATTERN =
  /^(?:(?:wooden|stone|iron|golden|diamond|netherite)_(?:pickaxe|axe|shovel|sword|hoe)|(?:leather|iron|golden|diamond|netherite)_(?:helmet|chestplate|leggings|boots)|[a-z_]+_(?:planks|slab|stairs|door|fence|fence_gate|trapdoor|pressure_plate|button|sign|boat|bed|wall|carpet|banner))$/;

/**
 * Parse a plain-English goal into an intent; never throws.
 *
 * @example
 * parseGoal('collect 10 oak logs'); // { kind: 'collect', item: 'oak_log', count: 10, mode: 'more' }
 * parseGoal('get 30 logs');         // { kind: 'collect', item: 'log', count: 30, mode: 'have' }
 * parseGoal('go to 10 64 -20');     // { kind: 'go_to', x: 10, y: 64, z: -20 }
 * parseGoal('go to base', places);  // { kind: 'go_to', x: 10, y: 64, z: -3, place: 'base' }
 * parseGoal('build a castle');      // { kind: 'unknown', reason: "I can't build a castle yet; …" }
 */
export function parseGoal(text: string, places?: KnownPlaces): GoalIntent {
  const goal = stripWrapping(String(text ?? '').split('\n')[0] ?? '');
  if (goal === '') return unknown(`there is no goal there; ${KNOWN_GOALS}`);
  const lower = goal.toLowerCase().replace(/[.!]+$/, '').trim();
  const verbMatch = /^([a-z]+)\b\s*(.*)$/.exec(lower);
  const verb = verbMatch?.[1] ?? '';
  const restLower = (verbMatch?.[2] ?? '').trim();
  /** The text after the verb with its original case. */
  const restOrig = goal.slice(verb.length).trim().replace(/[.!]+$/, '');

  if (SAY_VERBS.has(verb)) {
    const said = unquote(restOrig.replace(/^(?::|\s)+/, '').replace(/^(?:in\s+chat|out\s+loud|aloud)\s*:?\s*/i, ''));
    if (said === '') return unknown('say what? e.g. "say hello"');
    if (said.length > 256) return never('that is too long to say in game chat (256 characters at most)');
    return { kind: 'say', text: said };
  }

  if (EXPLORE_WORDS.test(lower)) return { kind: 'explore' };

  if (verb === 'eat' || /^(?:have|get)\s+(?:a\s+)?(?:snack|meal|bite|something\s+to\s+eat)\b/.test(lower)) return { kind: 'eat' };

  // "stay at base" is a place; "stay near X" is one when X is a place (known, or a word for one), else a player.
  const stayAt = verb === 'stay' ? /^(at|in|near|close\s+to|by|around)\s+(.+)$/i.exec(restOrig) : null;
  if (stayAt && places) {
    const name = placeWord(stayAt[2] ?? '');
    const alwaysPlace = /^(?:at|in)$/i.test(stayAt[1] ?? '');
    if (name && (alwaysPlace || places.get(name) || PLACES.has(name))) return toPlace(name, places, true);
  }

  if (verb === 'follow' || (verb === 'stay' && /^(?:with|near|close\s+to)\s+/.test(restLower)) || verb === 'accompany') {
    const rest = verb === 'stay' ? restOrig.replace(/^(?:with|near|close\s+to)\s+/i, '') : restOrig;
    const player = readPlayer(rest, 'follow');
    return typeof player === 'string' ? { kind: 'follow', player } : unknown(player.reason);
  }

  if (verb === 'come') {
    const rest = restOrig.replace(/^(?:back|over)\s+/i, '');
    const coordsFirst = /^(?:to|towards)\s+(.*)$/i.exec(rest);
    if (coordsFirst && /\d/.test(coordsFirst[1] ?? '')) {
      return goTo(readCoords(coordsFirst[1] ?? ''));
    }
    const target = rest.replace(/^(?:to|towards|here|over\s+here)\s*,?\s*/i, '').replace(/^(?:to\s+)/i, '');
    const name = places ? placeWord(target) : null;
    if (places && name && (places.get(name) || PLACES.has(name))) return toPlace(name, places, false);
    const player = readPlayer(target, 'come to');
    return typeof player === 'string' ? { kind: 'come_to', player } : unknown(player.reason);
  }

  if (GO_VERBS.has(verb) && /^(?:back\s+|over\s+)?(?:to|towards|toward|at)\b/.test(restLower)) {
    const rest = restOrig.replace(/^(?:back\s+|over\s+)?(?:to|towards|toward|at)\s*/i, '');
    const name = places ? placeWord(rest) : null;
    if (places && name) return toPlace(name, places, false);
    return goTo(readCoords(rest));
  }

  const isMore = MORE_VERBS.has(verb);
  const isHave = HAVE_VERBS.has(verb);
  const isSmelt = SMELT_VERBS.has(verb);
  if (isMore || isHave || CRAFT_VERBS.has(verb) || isSmelt) {
    let rest = restLower.replace(/^(?:up|out|down)\s+/, '');
    if (verb === 'have' || verb === 'get' || verb === 'hold') rest = rest.replace(/^(?:at\s+least|got)\s+/, '');
    if (/^-\s*\d/.test(rest)) return never(COUNT_RANGE);
    const read = readCount(rest);
    if (!read.ok) return never(read.reason);
    const itemPhrase = read.rest.replace(/^more\s+/, '').trim();
    if (itemPhrase === '') return unknown(`${verb} what? e.g. "${verb} 10 oak logs"`);
    if (/\b(?:then|and\s+(?:collect|gather|mine|chop|dig|get|have|craft|make|go|come|follow|say|explore|eat|build|place))\b/.test(itemPhrase)) return unknown('one goal at a time, please: give me the first step, e.g. "collect 10 oak logs"');
    const item = normaliseItem(itemPhrase);
    if (!item) return cannot(goal);
    const nobody = unobtainable(item);
    if (nobody) return never(nobody);
    // "make a castle" may be a building, not an item: the craft check below says it knows no recipe.
    if (verb !== 'make' && !knownItem(item)) return noSuchItem(verb, itemPhrase, item, goal, read.count !== null && !(read.count === 1 && /^an?\s/.test(rest)));
    if (isSmelt) {
      // What is named may be the input (iron, beef, a log) or the output (iron ingots, glass).
      const output = smeltInputs(item).length > 0 ? item : (smeltsInto(item) ?? smeltsInto(`oak_${item}`));
      if (!output) return never(`"${itemPhrase}" cannot be smelted in a furnace; I can smelt raw iron, raw meat, sand, logs…`);
      return { kind: 'craft', item: output, count: read.count ?? 1 };
    }
    if (CRAFT_VERBS.has(verb)) {
      if (!CRAFTABLE_EXACT.has(item) && !CRAFTABLE_PATTERN.test(item) && smeltInputs(item).length === 0) {
        return unknown(`I don't know a recipe for "${itemPhrase}"; I can craft tools, planks, sticks, a crafting table, a furnace, a chest, torches…`);
      }
      return { kind: 'craft', item, count: read.count ?? 1 };
    }
    return { kind: 'collect', item, count: read.count ?? DEFAULT_COUNT, mode: isMore ? 'more' : 'have' };
  }

  return cannot(goal);
}

/**
 * Why no engine can ever do this goal as written — a count out of range or unclear (`-5`, `0`,
 * `1.000`, more than an inventory holds), a place outside the world (`1e308 64 -1e308`), something
 * nobody can hold (`air`), an item Minecraft does not have (`unobtanium`, with the nearest names),
 * a line too long for game chat, a place the avatar does not remember (given its `places`)
 * — or null. A goal the goal language merely
 * does not know (`build a castle`) is not impossible: another engine may do it.
 *
 * @example
 * impossibleGoal('collect -5 dirt');    // 'a count must be a whole number from 1 to 2304'
 * impossibleGoal('go to bse', places);  // "I know no place called 'bse'; my places: base, village"
 * impossibleGoal('build a castle');     // null
 */
export function impossibleGoal(text: string, places?: KnownPlaces): string | null {
  const intent = parseGoal(text, places);
  return intent.kind === 'unknown' && intent.never === true ? intent.reason : null;
}

/**
 * A short key for "is this the same goal?" comparisons that ignores counts and wording:
 * "collect 6 oak logs" and "chop 16 oak logs" share the key `collect:oak_log`.
 *
 * @example
 * goalKey('mine 16 stone'); // 'collect:cobblestone'
 * goalKey('head back to the base', places); // 'go_to:base'
 */
export function goalKey(text: string, places?: KnownPlaces): string {
  const intent = parseGoal(text, places);
  switch (intent.kind) {
    case 'collect':
    case 'craft':
      return `${intent.kind}:${intent.item}`;
    case 'go_to':
      if (intent.place) return `${intent.stay ? 'stay' : 'go_to'}:${intent.place}`;
      return `go_to:${Math.round(intent.x)},${Math.round(intent.y)},${Math.round(intent.z)}`;
    case 'follow':
    case 'come_to':
      return `${intent.kind}:${intent.player.toLowerCase()}`;
    case 'say':
      return `say:${intent.text.toLowerCase()}`;
    case 'explore':
    case 'eat':
      return intent.kind;
    case 'unknown':
      return `text:${text.trim().toLowerCase()}`;
  }
}

/**
 * Whether two goal texts name the same goal: case, spacing and a closing `.` or `!` do not count.
 *
 * @example
 * sameGoal('Collect 3 oak logs.', 'collect  3 oak logs') // → true
 */
export function sameGoal(a: string, b: string): boolean {
  return comparable(a) === comparable(b);
}

function comparable(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[.!]+$/, '');
}
