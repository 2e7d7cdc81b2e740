/**
 * Planning a craft from what the avatar holds: the early-game tech tree
 * (logs → planks → sticks → crafting table → wooden tools → cobblestone →
 * stone tools, furnace, chest, torches → raw iron → iron ingots in the
 * furnace → iron tools), what a furnace makes (cooked meat, glass,
 * charcoal), what animals drop, and the next step toward an item.
 *
 * Pure: it reads inventory counts (registry names) and whether a crafting
 * table and a furnace stand nearby, and answers with one step: gather a raw
 * material, hunt for an animal's drop, craft an intermediate or the item,
 * or smelt. A furnace needs fuel: the plan burns the coal or charcoal held,
 * then planks (crafted from logs when short). The scripted engine runs that
 * step and plans again on its next turn, so a step that did more or less
 * than planned is simply accounted for then.
 */
import { countItems } from '../game/items.ts';
import { COOK_TICKS, fuelTicks, smeltInputs } from '../game/smelting.ts';
import { own } from '../keyed.ts';

/** How an item is made: `makes` of it from `needs` (item or group → count); `table` when the 3×3 grid is needed. */
export interface CraftRecipe {
  makes: number;
  needs: Readonly<Record<string, number>>;
  table: boolean;
}

/** The recipes the planner knows, by item or group (`planks` is any planks, made from any log). */
export const TECH_TREE: Readonly<Record<string, CraftRecipe>> = {
  planks: { makes: 4, needs: { log: 1 }, table: false },
  stick: { makes: 4, needs: { planks: 2 }, table: false },
  crafting_table: { makes: 1, needs: { planks: 4 }, table: false },
  wooden_pickaxe: { makes: 1, needs: { planks: 3, stick: 2 }, table: true },
  wooden_axe: { makes: 1, needs: { planks: 3, stick: 2 }, table: true },
  wooden_shovel: { makes: 1, needs: { planks: 1, stick: 2 }, table: true },
  wooden_sword: { makes: 1, needs: { planks: 2, stick: 1 }, table: true },
  wooden_hoe: { makes: 1, needs: { planks: 2, stick: 2 }, table: true },
  stone_pickaxe: { makes: 1, needs: { cobblestone: 3, stick: 2 }, table: true },
  stone_axe: { makes: 1, needs: { cobblestone: 3, stick: 2 }, table: true },
  stone_shovel: { makes: 1, needs: { cobblestone: 1, stick: 2 }, table: true },
  stone_sword: { makes: 1, needs: { cobblestone: 2, stick: 1 }, table: true },
  stone_hoe: { makes: 1, needs: { cobblestone: 2, stick: 2 }, table: true },
  furnace: { makes: 1, needs: { cobblestone: 8 }, table: true },
  chest: { makes: 1, needs: { planks: 8 }, table: true },
  torch: { makes: 4, needs: { coal: 1, stick: 1 }, table: false },
  iron_pickaxe: { makes: 1, needs: { iron_ingot: 3, stick: 2 }, table: true },
  iron_axe: { makes: 1, needs: { iron_ingot: 3, stick: 2 }, table: true },
  iron_shovel: { makes: 1, needs: { iron_ingot: 1, stick: 2 }, table: true },
  iron_sword: { makes: 1, needs: { iron_ingot: 2, stick: 1 }, table: true },
  iron_hoe: { makes: 1, needs: { iron_ingot: 2, stick: 2 }, table: true },
  iron_helmet: { makes: 1, needs: { iron_ingot: 5 }, table: true },
  iron_chestplate: { makes: 1, needs: { iron_ingot: 8 }, table: true },
  iron_leggings: { makes: 1, needs: { iron_ingot: 7 }, table: true },
  iron_boots: { makes: 1, needs: { iron_ingot: 4 }, table: true },
  bucket: { makes: 1, needs: { iron_ingot: 3 }, table: true },
  shears: { makes: 1, needs: { iron_ingot: 2 }, table: false },
};

/** Animal drops, got by hunting: the animal that drops each (the fight skill on it picks the drops up). */
const HUNTED_FROM: Readonly<Record<string, string>> = {
  beef: 'cow',
  leather: 'cow',
  porkchop: 'pig',
  mutton: 'sheep',
  wool: 'sheep',
  white_wool: 'sheep',
  chicken: 'chicken',
  feather: 'chicken',
};
const HUNTED: ReadonlySet<string> = new Set(Object.keys(HUNTED_FROM));

/** Raw materials gathered without a tool (their blocks are mined by hand). */
const BY_HAND: ReadonlySet<string> = new Set(['log', 'sand', 'gravel', 'dirt']);

/** Fuel the plan burns, best first: what a furnace gets from the inventory (planks are crafted when short). */
const PLAN_FUELS: ReadonlyArray<[string, number]> = [
  ['coal', fuelTicks('coal')],
  ['charcoal', fuelTicks('charcoal')],
  ['planks', fuelTicks('oak_planks')],
];

/** Raw materials: gathered, not crafted; some need a tool to drop anything. */
const RAW_TOOL: Readonly<Record<string, string>> = {
  cobblestone: 'wooden_pickaxe',
  coal: 'wooden_pickaxe',
  raw_iron: 'stone_pickaxe',
};

/** Tools that count as having the tool a raw material needs (a better one will do). */
const TOOL_TIERS: Readonly<Record<string, readonly string[]>> = {
  wooden_pickaxe: ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe', 'golden_pickaxe', 'diamond_pickaxe', 'netherite_pickaxe'],
  stone_pickaxe: ['stone_pickaxe', 'iron_pickaxe', 'diamond_pickaxe', 'netherite_pickaxe'],
};

/** Raw materials that lie deep (iron ore a dozen blocks and more under the surface): a table at the surface is out of reach there, and goes along. */
const DEEP: ReadonlySet<string> = new Set(['raw_iron']);

/**
 * The logs gathered for a wooden pickaxe made from nothing: its own 3 (planks, sticks, a table) and 2 more from the
 * same tree for the sticks, fuel and table the stone and iron pickaxes after it need, rather than another trip up
 * to the trees later.
 */
export const FIRST_LOGS = 5;

/** The logs a plan gathers, in all its steps. */
function logsIn(steps: readonly CraftStep[]): number {
  return steps.reduce((n, s) => n + (s.kind === 'gather' && s.item === 'log' ? s.count : 0), 0);
}

/** One step toward a craft. */
export type CraftStep =
  | { kind: 'gather'; item: string; count: number }
  | { kind: 'hunt'; item: string; count: number }
  | { kind: 'craft'; item: string; count: number }
  | { kind: 'smelt'; item: string; count: number }
  | { kind: 'unknown'; item: string };

/** What the planner knows of the avatar's situation. */
export interface CraftSituation {
  /** Item name → count. */
  inventory: Readonly<Record<string, number>>;
  /** Whether a crafting table stands close enough to use. */
  tableNearby: boolean;
  /** Whether a furnace stands close enough to use (the smelt skill walks to one in sight). */
  furnaceNearby?: boolean;
}

/** The planner's name for an item: a species' planks or logs count as the group. */
function planName(item: string): string {
  if (item.endsWith('_planks')) return 'planks';
  if (item.endsWith('_log') || item.endsWith('_stem')) return 'log';
  return item;
}

/** Is `item` gathered (mined, with or without a tool) or hunted rather than made? */
function isRaw(item: string): boolean {
  return Object.hasOwn(RAW_TOOL, item) || BY_HAND.has(item) || HUNTED.has(item);
}

/** The inputs a furnace makes `item` from that the planner can get (planner names), usual one first. */
function smeltSources(item: string): string[] {
  if (isRaw(item) || Object.hasOwn(TECH_TREE, item)) return [];
  return [...new Set(smeltInputs(item).map(planName))].filter((i) => isRaw(i) || Object.hasOwn(TECH_TREE, i));
}

/** Is `item` something the planner can make, smelt, hunt or gather? */
export function canPlan(item: string): boolean {
  const name = planName(item);
  return Object.hasOwn(TECH_TREE, name) || isRaw(name) || smeltSources(name).length > 0;
}

/**
 * The tool a raw material needs before gathering it drops anything, when none that will do is held:
 * the first step toward that tool. Null when no tool is needed or one is held.
 *
 * @example
 * toolFirst('cobblestone', { inventory: {}, tableNearby: false }); // → { kind: 'gather', item: 'log', count: 3 }
 */
export function toolFirst(item: string, situation: CraftSituation): CraftStep | null {
  const tool = own(RAW_TOOL, planName(item));
  if (!tool) return null;
  if ((own(TOOL_TIERS, tool) ?? [tool]).some((t) => (own(situation.inventory, t) ?? 0) > 0)) return null;
  return nextCraftStep(tool, 1, situation);
}

/**
 * Every step toward holding `count` of `item` (a registry name or the `planks`/`log` group), in order; empty when
 * that many are held already, one `unknown` step for an item the planner does not know. An item may come more than
 * once (logs and planks for the pickaxe, then for the sticks, then for the table).
 *
 * @example
 * craftSteps('wooden_pickaxe', 1, { inventory: {}, tableNearby: false }).map((s) => s.item);
 * // → ['log', 'planks', 'log', 'planks', 'stick', 'log', 'planks', 'crafting_table', 'wooden_pickaxe']
 */
export function craftSteps(wanted: string, count: number, situation: CraftSituation): CraftStep[] {
  const item = planName(wanted);
  if (!canPlan(item)) return [{ kind: 'unknown', item: wanted }];
  // A simulated inventory (by group) that the plan draws from as it goes.
  const pool = new Map<string, number>();
  const held = (name: string): number => {
    if (!pool.has(name)) pool.set(name, countItems(situation.inventory as Record<string, number>, name));
    return pool.get(name) ?? 0;
  };
  const use = (name: string, n: number): number => {
    const taken = Math.min(held(name), n);
    pool.set(name, held(name) - taken);
    return taken;
  };
  const give = (name: string, n: number): void => {
    pool.set(name, held(name) + n);
  };
  let table = situation.tableNearby;
  let furnace = situation.furnaceNearby === true;
  const steps: CraftStep[] = [];

  /** Fuel for `items` smelts: coal or charcoal held, then planks held, then planks to craft. */
  const fuelFor = (items: number, depth: number): void => {
    let ticks = items * COOK_TICKS;
    for (const [fuel, per] of PLAN_FUELS) {
      if (ticks <= 0) return;
      ticks -= use(fuel, Math.ceil(ticks / per)) * per;
    }
    if (ticks > 0) need('planks', Math.ceil(ticks / fuelTicks('oak_planks')), depth + 1);
  };

  const need = (name: string, n: number, depth: number): void => {
    if (n <= 0 || depth > 10) return;
    const missing = n - use(name, n);
    if (missing <= 0) return;
    const recipe = own(TECH_TREE, name);
    const sources = recipe ? [] : smeltSources(name);
    if (sources.length > 0) {
      // The input held already, else the usual one.
      const input = sources.find((s) => held(s) > 0) ?? (sources[0] as string);
      need(input, missing, depth + 1);
      if (!furnace) {
        need('furnace', 1, depth + 1);
        give('furnace', 1); // placed by the smelt skill, then used for every later smelt
        furnace = true;
      }
      fuelFor(missing, depth);
      steps.push({ kind: 'smelt', item: name, count: missing });
      give(name, missing);
      use(name, missing);
      return;
    }
    if (!recipe && HUNTED.has(name)) {
      steps.push({ kind: 'hunt', item: name, count: missing });
      give(name, missing);
      use(name, missing);
      return;
    }
    if (!recipe) {
      const tool = own(RAW_TOOL, name);
      if (tool && !(own(TOOL_TIERS, tool) ?? [tool]).some((t) => held(t) > 0)) {
        need(tool, 1, depth + 1);
        give(tool, 1); // a tool is kept, not used up
      }
      steps.push({ kind: 'gather', item: name, count: missing });
      give(name, missing);
      use(name, missing);
      return;
    }
    const times = Math.ceil(missing / recipe.makes);
    for (const [ingredient, per] of Object.entries(recipe.needs)) need(ingredient, per * times, depth + 1);
    if (recipe.table && !table) {
      need('crafting_table', 1, depth + 1);
      table = true; // placed by the craft skill, then used for every later craft
    }
    steps.push({ kind: 'craft', item: name, count: times * recipe.makes });
    give(name, times * recipe.makes - missing);
  };

  need(item, count, 0);
  return steps;
}

/**
 * The next step toward holding `count` of `item` (a registry name or the `planks`/`log` group), or null when that
 * many are held already. Crafts of the first item are merged when nothing is left to gather; the logs a plan needs
 * are gathered before anything else it mines.
 *
 * @example
 * nextCraftStep('wooden_pickaxe', 1, { inventory: {}, tableNearby: false });
 * // → { kind: 'gather', item: 'log', count: 3 }  (planks for the pickaxe, sticks and a table)
 * nextCraftStep('wooden_pickaxe', 1, { inventory: { oak_log: 3 }, tableNearby: false });
 * // → { kind: 'craft', item: 'planks', count: 12 }  (all the planks at once: nothing is left to gather)
 * nextCraftStep('iron_pickaxe', 1, { inventory: { stone_pickaxe: 1 }, tableNearby: true });
 * // → { kind: 'gather', item: 'log', count: 1 }  (the wood for sticks and fuel before going down for the iron)
 */
export function nextCraftStep(wanted: string, count: number, situation: CraftSituation): CraftStep | null {
  const steps = craftSteps(wanted, count, situation);
  const first = steps[0];
  if (!first || first.kind === 'unknown') return first ?? null;
  // Wood grows on the surface and the rest of the early tree (cobblestone, coal, iron) lies under it: the logs a plan
  // needs are gathered before it goes down for the rest, so that it need not climb back up for a plank or a table.
  // Deep down (iron) a table up here is out of reach: the avatar takes the one at hand along (the collect skill picks
  // up its own table before it goes for ore), so the plan counts it as carried.
  if (first.kind === 'gather' && first.item !== 'log') {
    const deep = steps.some((s) => s.kind === 'gather' && DEEP.has(s.item));
    const tables = (own(situation.inventory, 'crafting_table') ?? 0) + 1;
    const below = { ...situation, tableNearby: false, inventory: { ...situation.inventory, crafting_table: tables } };
    const logs = logsIn(deep && situation.tableNearby ? craftSteps(wanted, count, below) : steps);
    if (logs > 0) return { kind: 'gather', item: 'log', count: logs };
  }
  const sameAsFirst = (s: CraftStep): s is Exclude<CraftStep, { kind: 'unknown' }> => s.kind === first.kind && s.item === first.item;
  let total = steps.filter(sameAsFirst).reduce((n, s) => n + s.count, 0);
  if (first.kind === 'gather' && first.item === 'log' && steps.some((s) => s.kind === 'craft' && s.item === 'wooden_pickaxe')) {
    const inv = situation.inventory as Record<string, number>;
    total = Math.max(total, FIRST_LOGS - countItems(inv, 'log') - Math.floor(countItems(inv, 'planks') / 4));
  }
  // Gather (or hunt) everything of that material the plan needs in one go; craft or smelt all of an item at once
  // when nothing is left to get.
  if (first.kind === 'gather' || first.kind === 'hunt') return { kind: first.kind, item: first.item, count: total };
  if (steps.some((s) => s.kind === 'gather' || s.kind === 'hunt')) return first;
  return { kind: first.kind, item: first.item, count: total };
}

/** A skill run that carries out a step: its id and params. */
export interface SkillPlan {
  id: string;
  params: Record<string, unknown>;
}

/** The most one collect or craft run asks for (the skills' own limit). */
const MAX_PER_RUN = 256;

/** A furnace this close counts as at hand (the smelt skill looks for one within 48 blocks and walks there). */
export const STATION_REACH = 30;
/**
 * A crafting table this close counts as at hand. Farther (up at the surface from a mine, say) a new one is made from
 * 4 planks rather than walked to: the craft skill places a carried table instead of walking to one farther than this.
 */
export const TABLE_REACH = 12;

/** The situation of a snapshot: its inventory, and a crafting table and a furnace at hand. */
export function situationOf(snap: { inventory: Record<string, number>; nearbyBlocks: Record<string, number> }): CraftSituation {
  const near = (block: string, reach: number): boolean => (snap.nearbyBlocks[block] ?? Infinity) <= reach;
  return { inventory: snap.inventory, tableNearby: near('crafting_table', TABLE_REACH), furnaceNearby: near('furnace', STATION_REACH) };
}

/** A registry name for a planner name: `planks` → the planks of the log species held most (oak when none). */
function concrete(item: string, inventory: Readonly<Record<string, number>>): string {
  if (item !== 'planks') return item;
  const log = Object.entries(inventory)
    .filter(([name, n]) => name.endsWith('_log') && n > 0)
    .sort(([, a], [, b]) => b - a)[0];
  return `${log ? log[0].replace(/_log$/, '') : 'oak'}_planks`;
}

/** The skill run for a step. */
export function skillFor(step: Exclude<CraftStep, { kind: 'unknown' }>, inventory: Readonly<Record<string, number>>): SkillPlan {
  const count = Math.min(MAX_PER_RUN, Math.max(1, step.count));
  if (step.kind === 'gather') return { id: 'collect', params: { item: step.item, count } };
  // One animal a run (the next turn plans again for what is still missing); the smelt skill takes at most 64.
  if (step.kind === 'hunt') return { id: 'fight', params: { target: own(HUNTED_FROM, step.item) ?? 'cow' } };
  if (step.kind === 'smelt') return { id: 'smelt', params: { item: step.item, count: Math.min(64, count) } };
  return { id: 'craft', params: { item: concrete(step.item, inventory), count } };
}

/**
 * The skill run toward holding `hold` of `item` by crafting: the next step of the plan, or (for an item the planner
 * does not know) the craft skill on the item itself, which then says what is missing.
 *
 * @example
 * planCraft('wooden_pickaxe', 1, { inventory: {}, nearbyBlocks: {} }); // → { id: 'collect', params: { item: 'log', count: 3 } }
 */
export function planCraft(item: string, hold: number, snap: { inventory: Record<string, number>; nearbyBlocks: Record<string, number> }): SkillPlan {
  const step = nextCraftStep(item, hold, situationOf(snap));
  if (step && step.kind !== 'unknown') return skillFor(step, snap.inventory);
  const left = hold - countItems(snap.inventory, planName(item));
  return { id: 'craft', params: { item: concrete(planName(item) === 'planks' ? 'planks' : item, snap.inventory), count: Math.min(MAX_PER_RUN, Math.max(1, left)) } };
}

/**
 * The skill run toward getting `count` more of `item`: for a block's drop, first the tool it needs when none is
 * held (no pickaxe for stone), else the collect skill itself; for something made or hunted, the next step of its plan.
 */
export function planGather(item: string, count: number, snap: { inventory: Record<string, number>; nearbyBlocks: Record<string, number> }): SkillPlan {
  // Something made (cooked beef, an ingot, a pickaxe) or hunted is got by its plan, not by mining.
  const name = planName(item);
  if (canPlan(name) && !Object.hasOwn(RAW_TOOL, name) && !BY_HAND.has(name)) return planCraft(item, countItems(snap.inventory, name) + count, snap);
  const first = toolFirst(item, situationOf(snap));
  if (first && first.kind !== 'unknown') return skillFor(first, snap.inventory);
  return { id: 'collect', params: { item, count: Math.min(MAX_PER_RUN, Math.max(1, count)) } };
}

/**
 * Every step toward getting `count` more of `item`, in the order {@link planGather} takes them one turn at a time:
 * something made or hunted by its plan, a block's drop after the tool it needs (none when one is held).
 *
 * @example
 * gatherSteps('cobblestone', 5, { inventory: {}, nearbyBlocks: {} }).map((s) => `${s.kind} ${s.item}`);
 * // → ['gather log', 'craft planks', …, 'craft wooden_pickaxe', 'gather cobblestone']
 */
export function gatherSteps(item: string, count: number, snap: { inventory: Record<string, number>; nearbyBlocks: Record<string, number> }): CraftStep[] {
  const name = planName(item);
  const situation = situationOf(snap);
  if (canPlan(name) && !Object.hasOwn(RAW_TOOL, name) && !BY_HAND.has(name)) return craftSteps(item, countItems(snap.inventory, name) + count, situation);
  const tool = own(RAW_TOOL, name);
  const toolHeld = tool !== undefined && (own(TOOL_TIERS, tool) ?? [tool]).some((t) => (own(snap.inventory, t) ?? 0) > 0);
  return [...(tool && !toolHeld ? craftSteps(tool, 1, situation) : []), { kind: 'gather', item, count }];
}
