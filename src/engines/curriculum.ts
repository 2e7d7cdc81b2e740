/**
 * The survival curriculum: a deterministic early-game progression
 * the scripted engine picks self goals from.
 *
 * Where the server crafts, it goes as a speedrunner does, one tool a goal,
 * each gathering only what that tool needs (the craft planner's plan): a
 * wooden pickaxe (3 logs, planks, sticks, a table) → a stone pickaxe (3
 * cobblestone) → an iron pickaxe (raw iron, a furnace, fuel, 3 ingots) →
 * a stone sword and an iron sword → a furnace at hand → shelter
 * materials; the rest (more logs, stone) comes later, as filler goals.
 * Where monsters spawn, a sword comes first once night is near, and from a
 * minute before dusk until daylight no goal is picked whose next step goes
 * out under the open sky (logs, hunting, exploring: night-goals.ts) while
 * there is work under a roof; once the tools are made the night is spent
 * mining (iron, stone) under ground. Where
 * the server cannot craft: 16 logs, 16 stone, shelter materials. Before
 * all of them, food: eating when hungry with food at hand, hunting an
 * animal in sight when hungry with nothing to eat (cooking the meat where
 * a furnace is at hand), cooking raw meat carried when a furnace is at
 * hand, and foraging for an apple when starving with no animal in sight.
 * Sheltering or fighting at night are reflexes (skills/reflexes.ts), not
 * goals.
 *
 * Each step is a goal in the goal language with an `isDone(snapshot)`
 * predicate. A later tier implies the earlier ones are done (a stone
 * pickaxe held, the wooden one is not asked for again). Steps the server
 * cannot do (crafting on a server without it) are skipped.
 */
import type { GameCapabilities, Snapshot } from '../game/game.ts';
import { goalKey, parseGoal } from '../goals/goal-language.ts';
import type { KnownPlaces } from '../goals/places.ts';
import { countItems, FOOD_ITEMS, WOOD_SPECIES } from '../game/items.ts';
import { keepUnderRoof, UNDER_ROOF_FROM_TICK } from '../game/night.ts';
import { surfaceGoal, underRoofNow } from './night-goals.ts';

/** One curriculum step. */
export interface CurriculumStep {
  id: string;
  /** Does this step need crafting on the server? */
  needsCrafting: boolean;
  /** Is the step done, given what the avatar holds and sees? */
  isDone(snap: Snapshot, caps: GameCapabilities): boolean;
  /** The goal (goal language) to work on this step now. */
  goal(snap: Snapshot): string;
  /** May come again however often it was finished lately (never twice in a row): the night's mining takes turns. */
  repeatable?: boolean;
}

const has = (snap: Snapshot, item: string): boolean => countItems(snap.inventory, item) > 0;
const hasAny = (snap: Snapshot, items: string[]): boolean => items.some((i) => has(snap, i));

const PICKAXES = ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe', 'golden_pickaxe', 'diamond_pickaxe', 'netherite_pickaxe'];
const BETTER_THAN_WOOD = ['stone_pickaxe', 'iron_pickaxe', 'diamond_pickaxe', 'netherite_pickaxe'];
const SWORDS = ['wooden_sword', 'stone_sword', 'iron_sword', 'golden_sword', 'diamond_sword', 'netherite_sword'];

/** The wood species to name: the nearest log in sight, else the one held most, else none. */
function woodSpecies(snap: Snapshot): string | null {
  const seen = Object.entries(snap.nearbyBlocks)
    .filter(([name]) => name.endsWith('_log'))
    .sort(([, a], [, b]) => a - b)[0];
  const fromName = (name: string): string | null => {
    const s = name.replace(/_log$/, '');
    return (WOOD_SPECIES as readonly string[]).includes(s) ? s : null;
  };
  if (seen) return fromName(seen[0]);
  const held = Object.entries(snap.inventory)
    .filter(([name, n]) => name.endsWith('_log') && n > 0)
    .sort(([, a], [, b]) => b - a)[0];
  return held ? fromName(held[0]) : null;
}

function woodWords(snap: Snapshot): string {
  const s = woodSpecies(snap);
  return s ? `${s.replace(/_/g, ' ')} logs` : 'logs';
}

function plankWords(snap: Snapshot): string {
  const held = Object.entries(snap.inventory)
    .filter(([name, n]) => name.endsWith('_log') && n > 0)
    .sort(([, a], [, b]) => b - a)[0];
  const s = held ? held[0].replace(/_log$/, '') : (woodSpecies(snap) ?? 'oak');
  return `${s.replace(/_/g, ' ')} planks`;
}

/** Logs, counting planks and crafted wood as logs already gathered. */
function woodGathered(snap: Snapshot): number {
  return countItems(snap.inventory, 'log') + countItems(snap.inventory, 'planks') / 4 + countItems(snap.inventory, 'stick') / 8;
}

/** Remaining count toward a target (at least 1). */
const remaining = (target: number, held: number): number => Math.max(1, Math.ceil(target - held));

/** Food that can make the eater ill in vanilla: not counted as food at hand (the eat reflex keeps it for starving). */
const RISKY_FOOD = new Set(['rotten_flesh', 'spider_eye', 'poisonous_potato', 'pufferfish', 'chicken']);
const holdsFood = (s: Snapshot): boolean => Object.keys(s.inventory).some((i) => FOOD_ITEMS.has(i) && !RISKY_FOOD.has(i) && (s.inventory[i] ?? 0) > 0);

/** At or below this food level with nothing to eat and no animal in sight, foraging for an apple comes first. */
export const FORAGE_AT_FOOD = 8;
/** Below this food level (where the eat reflex eats), an avatar with nothing to eat hunts an animal in sight. */
export const HUNT_BELOW_FOOD = 14;

/** The raw meat of each animal, and what a furnace makes of it. */
const MEAT: Readonly<Record<string, { raw: string; cooked: string }>> = {
  cow: { raw: 'beef', cooked: 'cooked_beef' },
  pig: { raw: 'porkchop', cooked: 'cooked_porkchop' },
  sheep: { raw: 'mutton', cooked: 'cooked_mutton' },
  chicken: { raw: 'chicken', cooked: 'cooked_chicken' },
};

/** The nearest animal in sight, if any. */
function animalInSight(s: Snapshot): string | undefined {
  return s.nearbyEntities.find((e) => e.kind === 'passive' && MEAT[e.name] !== undefined)?.name;
}

/** A furnace carried or standing within 16 blocks. */
const furnaceAtHand = (s: Snapshot): boolean => has(s, 'furnace') || (s.nearbyBlocks['furnace'] ?? Infinity) <= 16;

/** Raw meat carried, the kind held most: its cooked name and how many. */
function rawMeat(s: Snapshot): { cooked: string; count: number } | undefined {
  const best = Object.values(MEAT)
    .map(({ raw, cooked }) => ({ cooked, count: s.inventory[raw] ?? 0 }))
    .sort((a, b) => b.count - a.count)[0];
  return best && best.count > 0 ? best : undefined;
}

/** From this tick of the day (about 2 minutes before night falls at 13,188) until the night ends, a sword is due. */
export const SWORD_FROM_TICK = 10_800;
const NIGHT_ENDS_TICK = 22_812;
const duskNear = (s: Snapshot): boolean => s.timeOfDay >= SWORD_FROM_TICK && s.timeOfDay < NIGHT_ENDS_TICK;
/** From this tick (a minute before monsters spawn at 13,188) until daylight has burnt them, goals keep under a roof. */
export const UNDERGROUND_FROM_TICK = UNDER_ROOF_FROM_TICK;
const nightNow = (s: Snapshot): boolean => keepUnderRoof(s.timeOfDay);

const IRON_PICKAXES = ['iron_pickaxe', 'diamond_pickaxe', 'netherite_pickaxe'];
const IRON_SWORDS = ['iron_sword', 'diamond_sword', 'netherite_sword'];

/** The steps, in order. */
export const CURRICULUM: readonly CurriculumStep[] = [
  {
    id: 'hunt',
    needsCrafting: false,
    // Hungry with nothing to eat and an animal in sight: its meat, cooked when a furnace is at hand.
    isDone: (s, caps) => !caps.hunger || !caps.mobs || s.food >= HUNT_BELOW_FOOD || holdsFood(s) || animalInSight(s) === undefined,
    goal: (s) => {
      const meat = MEAT[animalInSight(s) ?? 'cow'] ?? { raw: 'beef', cooked: 'cooked_beef' };
      return furnaceAtHand(s) ? `get 2 ${meat.cooked.replace(/_/g, ' ')}` : `get 2 ${meat.raw}`;
    },
  },
  {
    id: 'forage',
    needsCrafting: false,
    // Oak leaves drop an apple now and then (1 in 200, as in vanilla): food when no animal is about.
    isDone: (s, caps) => !caps.hunger || s.food > FORAGE_AT_FOOD || holdsFood(s),
    goal: () => 'collect 1 apple',
  },
  {
    id: 'food',
    needsCrafting: false,
    // Eating is due when hungry and holding food.
    isDone: (s, caps) => !caps.hunger || s.food >= 14 || !holdsFood(s),
    goal: () => 'eat something',
  },
  {
    id: 'cook',
    needsCrafting: true,
    // Raw meat and a furnace at hand: cooked meat fills two to three times as much.
    isDone: (s) => !furnaceAtHand(s) || rawMeat(s) === undefined,
    goal: (s) => {
      const meat = rawMeat(s) ?? { cooked: 'cooked_beef', count: 1 };
      return `get ${countItems(s.inventory, meat.cooked) + Math.min(8, meat.count)} ${meat.cooked.replace(/_/g, ' ')}`;
    },
  },
  {
    id: 'night_sword',
    needsCrafting: true,
    // Where monsters spawn, a sword before the first night: the defend reflex fights with it. Earlier, the pickaxes come first.
    isDone: (s, caps) => !caps.mobs || hasAny(s, SWORDS) || !duskNear(s),
    goal: (s) => (hasAny(s, BETTER_THAN_WOOD) ? 'craft a stone sword' : 'craft a wooden sword'),
  },
  {
    id: 'wood',
    needsCrafting: false,
    // Where the server crafts, each tool's plan gathers the logs it needs (3 for the first pickaxe), no more.
    isDone: (s, caps) => caps.crafting || woodGathered(s) >= 16,
    goal: (s) => `collect ${remaining(16, woodGathered(s))} ${woodWords(s)}`,
  },
  {
    id: 'wooden_tools',
    needsCrafting: true,
    // From nothing: 3 logs, planks, sticks, a table, the pickaxe, in one goal.
    isDone: (s) => hasAny(s, PICKAXES),
    goal: () => 'craft a wooden pickaxe',
  },
  {
    id: 'stone',
    needsCrafting: false,
    // Material where the server cannot craft; where it can, the stone pickaxe's plan mines the cobblestone it needs.
    isDone: (s, caps) => caps.crafting || countItems(s.inventory, 'cobblestone') >= 16,
    goal: (s) => `mine ${remaining(16, countItems(s.inventory, 'cobblestone'))} stone`,
  },
  {
    id: 'stone_tools',
    needsCrafting: true,
    isDone: (s) => hasAny(s, BETTER_THAN_WOOD),
    goal: () => 'craft a stone pickaxe',
  },
  {
    id: 'iron_pickaxe',
    needsCrafting: true,
    // Its plan mines the iron, makes a furnace and smelts the ingots.
    isDone: (s) => hasAny(s, IRON_PICKAXES),
    goal: () => 'craft an iron pickaxe',
  },
  {
    id: 'stone_sword',
    needsCrafting: true,
    isDone: (s) => hasAny(s, SWORDS.filter((w) => w !== 'wooden_sword' && w !== 'golden_sword')),
    goal: () => 'craft a stone sword',
  },
  {
    id: 'iron_sword',
    needsCrafting: true,
    isDone: (s) => hasAny(s, IRON_SWORDS),
    goal: () => 'craft an iron sword',
  },
  {
    id: 'furnace',
    needsCrafting: true,
    // A furnace at hand cooks the meat of a hunt.
    isDone: (s) => has(s, 'furnace') || (s.nearbyBlocks['furnace'] ?? Infinity) <= 16,
    goal: () => 'craft a furnace',
  },
  {
    id: 'night_iron',
    needsCrafting: false,
    // Where monsters spawn on the open sky at night, the night is spent under a roof, mining iron (a stone pickaxe
    // takes it) and stone in turn.
    isDone: (s, caps) => !caps.mobs || !nightNow(s) || !hasAny(s, BETTER_THAN_WOOD),
    goal: () => 'collect 3 raw iron',
    repeatable: true,
  },
  {
    id: 'night_stone',
    needsCrafting: false,
    isDone: (s, caps) => !caps.mobs || !nightNow(s) || !hasAny(s, PICKAXES),
    goal: () => 'mine 16 stone',
    repeatable: true,
  },
  {
    id: 'shelter',
    needsCrafting: false,
    isDone: (s) => countItems(s.inventory, 'dirt') + countItems(s.inventory, 'cobblestone') >= 48,
    goal: (s) => `get ${Math.max(1, 48 - countItems(s.inventory, 'cobblestone'))} dirt`,
  },
];

/** Goals for when the curriculum is done or everything in it was just tried. */
export const FILLER_GOALS: readonly string[] = ['explore', 'collect 16 logs', 'mine 16 stone', 'collect 16 sand', 'collect 16 dirt'];

/** Can the server do this goal at all? (Crafting on a server without crafting cannot work.) */
function feasible(goal: string, caps: GameCapabilities, places?: KnownPlaces): boolean {
  const intent = parseGoal(goal, places);
  if (intent.kind === 'unknown') return false;
  if (intent.kind === 'craft' && !caps.crafting) return false;
  if (intent.kind === 'eat' && !caps.hunger) return false;
  return true;
}

/**
 * Choose the next self goal: a parked owner goal first, then the first
 * unfinished curriculum step, then a filler goal; never what was just
 * finished (same goal key as the last recent goal), nor a goal finished
 * twice in the last five. Always returns a goal.
 *
 * @param recentGoals finished goals, newest last
 * @param parked parked owner goals, oldest first
 * @param places the places the avatar remembers (a parked "go to base" is a goal it can take up)
 * @example
 * nextSelfGoal(snap, { crafting: false, hunger: false, mobs: false }, [], []); // 'collect 16 oak logs'
 * nextSelfGoal(snap, { crafting: true, hunger: true, mobs: true }, [], []);    // 'craft a wooden pickaxe'
 */
export function nextSelfGoal(snap: Snapshot, caps: GameCapabilities, recentGoals: string[], parked: string[], places?: KnownPlaces): string {
  const key = (goal: string): string => goalKey(goal, places);
  const lastFive = recentGoals.slice(-5).map(key);
  const lastKey = lastFive[lastFive.length - 1];
  const tooRecent = (goal: string, repeatable = false): boolean => {
    const k = key(goal);
    return k === lastKey || (!repeatable && lastFive.filter((f) => f === k).length >= 2);
  };

  for (const goal of parked) {
    if (feasible(goal, caps, places) && key(goal) !== lastKey) return goal;
  }

  const candidates: Array<{ goal: string; repeatable?: boolean }> = [];
  for (const step of CURRICULUM) {
    if (step.needsCrafting && !caps.crafting) continue;
    if (step.isDone(snap, caps)) continue;
    candidates.push({ goal: step.goal(snap), ...(step.repeatable ? { repeatable: true } : {}) });
  }
  candidates.push(...FILLER_GOALS.map((goal) => ({ goal })));
  // Where monsters roam at night, a goal that starts under the open sky waits for the day while there is
  // anything to do under a roof.
  const night = underRoofNow(snap, caps);
  let outside: string | undefined;
  for (const { goal, repeatable } of candidates) {
    if (!feasible(goal, caps, places) || tooRecent(goal, repeatable)) continue;
    if (night && surfaceGoal(goal, snap, caps)) {
      outside ??= goal;
      continue;
    }
    return goal;
  }
  return outside ?? (lastKey === 'explore' ? 'collect 16 logs' : 'explore');
}
