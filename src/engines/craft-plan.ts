/**
 * Planning a craft from what the avatar holds: the early-game tech tree
 * (logs → planks → sticks → crafting table → wooden tools → cobblestone →
 * stone tools, furnace, chest, torches) and the next step toward an item.
 *
 * Pure: it reads inventory counts (registry names) and whether a crafting
 * table stands nearby, and answers with one step: gather a raw material,
 * craft an intermediate or the item itself. The scripted engine runs that
 * step and plans again on its next turn, so a step that did more or less
 * than planned is simply accounted for then.
 */
import { countItems } from '../game/items.ts';
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
};

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

/** One step toward a craft. */
export type CraftStep =
  | { kind: 'gather'; item: string; count: number }
  | { kind: 'craft'; item: string; count: number }
  | { kind: 'unknown'; item: string };

/** What the planner knows of the avatar's situation. */
export interface CraftSituation {
  /** Item name → count. */
  inventory: Readonly<Record<string, number>>;
  /** Whether a crafting table stands close enough to use. */
  tableNearby: boolean;
}

/** Is `item` something the planner can make (or gather)? */
export function canPlan(item: string): boolean {
  return item in TECH_TREE || item in RAW_TOOL || item === 'log';
}

/** The planner's name for an item: a species' planks or logs count as the group. */
function planName(item: string): string {
  if (item.endsWith('_planks')) return 'planks';
  if (item.endsWith('_log') || item.endsWith('_stem')) return 'log';
  return item;
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
 * The next step toward holding `count` of `item` (a registry name or the `planks`/`log` group), or null when that
 * many are held already. Crafts of the first item are merged when nothing is left to gather.
 *
 * @example
 * nextCraftStep('wooden_pickaxe', 1, { inventory: {}, tableNearby: false });
 * // → { kind: 'gather', item: 'log', count: 3 }  (planks for the pickaxe, sticks and a table)
 * nextCraftStep('wooden_pickaxe', 1, { inventory: { oak_log: 3 }, tableNearby: false });
 * // → { kind: 'craft', item: 'planks', count: 12 }  (all the planks at once: nothing is left to gather)
 */
export function nextCraftStep(wanted: string, count: number, situation: CraftSituation): CraftStep | null {
  const item = planName(wanted);
  if (!canPlan(item)) return { kind: 'unknown', item: wanted };
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
  const steps: CraftStep[] = [];

  const need = (name: string, n: number, depth: number): void => {
    if (n <= 0 || depth > 8) return;
    const missing = n - use(name, n);
    if (missing <= 0) return;
    const recipe = own(TECH_TREE, name);
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
  const first = steps[0];
  if (!first) return null;
  if (first.kind === 'gather') {
    // Gather everything of that material the plan needs in one go.
    const total = steps.filter((s) => s.kind === 'gather' && s.item === first.item).reduce((n, s) => n + (s.kind === 'gather' ? s.count : 0), 0);
    return { kind: 'gather', item: first.item, count: total };
  }
  if (steps.some((s) => s.kind === 'gather')) return first;
  const total = steps.filter((s) => s.kind === 'craft' && s.item === first.item).reduce((n, s) => n + (s.kind === 'craft' ? s.count : 0), 0);
  return { kind: 'craft', item: first.item, count: total };
}

/** A skill run that carries out a step: its id and params. */
export interface SkillPlan {
  id: string;
  params: Record<string, unknown>;
}

/** The most one collect or craft run asks for (the skills' own limit). */
const MAX_PER_RUN = 256;

/** The situation of a snapshot: its inventory, and a crafting table within the snapshot's sight (the craft skill walks to it). */
export function situationOf(snap: { inventory: Record<string, number>; nearbyBlocks: Record<string, number> }): CraftSituation {
  return { inventory: snap.inventory, tableNearby: snap.nearbyBlocks['crafting_table'] !== undefined };
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
 * The skill run toward gathering `count` more of `item`: first the tool it needs when none is held
 * (no pickaxe for stone), else the collect skill itself.
 */
export function planGather(item: string, count: number, snap: { inventory: Record<string, number>; nearbyBlocks: Record<string, number> }): SkillPlan {
  const first = toolFirst(item, situationOf(snap));
  if (first && first.kind !== 'unknown') return skillFor(first, snap.inventory);
  return { id: 'collect', params: { item, count: Math.min(MAX_PER_RUN, Math.max(1, count)) } };
}
