import { describe, expect, it } from 'vitest';
import { canPlan, craftSteps, FIRST_LOGS, nextCraftStep, planCraft, planGather, toolFirst } from '../../src/engines/craft-plan.ts';
import { fuelTicks, smeltInputs } from '../../src/game/smelting.ts';

const at = (inventory: Record<string, number>, tableNearby = false) => ({ inventory, tableNearby });
const snap = (inventory: Record<string, number>, nearbyBlocks: Record<string, number> = {}) => ({ inventory, nearbyBlocks });

describe('craft planning', () => {
  it('GIVEN an empty inventory WHEN a wooden pickaxe is wanted THEN it first gathers the 3 logs the chain needs and 2 more for the next pickaxes, from the same tree', () => {
    expect(FIRST_LOGS).toBe(5);
    expect(nextCraftStep('wooden_pickaxe', 1, at({}))).toEqual({ kind: 'gather', item: 'log', count: 5 });
    expect(craftSteps('wooden_pickaxe', 1, at({})).filter((s) => s.kind === 'gather').reduce((n, s) => n + (s.kind === 'gather' ? s.count : 0), 0)).toBe(3);
    // Some wood held already counts.
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 4 }))).toEqual({ kind: 'gather', item: 'log', count: 4 });
  });

  it('GIVEN the logs, then each part WHEN a wooden pickaxe is wanted THEN it crafts all planks, then sticks, then a table, then the pickaxe', () => {
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_log: 3 }))).toEqual({ kind: 'craft', item: 'planks', count: 12 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 12 }))).toEqual({ kind: 'craft', item: 'stick', count: 4 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 10, stick: 4 }))).toEqual({ kind: 'craft', item: 'crafting_table', count: 1 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 6, stick: 4, crafting_table: 1 }))).toEqual({ kind: 'craft', item: 'wooden_pickaxe', count: 1 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ wooden_pickaxe: 1 }))).toBeNull();
  });

  it('GIVEN a table nearby THEN no table is crafted, and fewer logs are needed (still the first logs for the pickaxes after it)', () => {
    expect(craftSteps('wooden_pickaxe', 1, at({}, true)).filter((s) => s.kind === 'gather')).toEqual([{ kind: 'gather', item: 'log', count: 1 }, { kind: 'gather', item: 'log', count: 1 }]);
    expect(craftSteps('wooden_pickaxe', 1, at({}, true)).some((s) => s.item === 'crafting_table')).toBe(false);
    expect(nextCraftStep('wooden_pickaxe', 1, at({}, true))).toEqual({ kind: 'gather', item: 'log', count: FIRST_LOGS });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 3, stick: 2 }, true))).toEqual({ kind: 'craft', item: 'wooden_pickaxe', count: 1 });
  });

  it('GIVEN no pickaxe WHEN a stone pickaxe is wanted THEN the wooden pickaxe comes first, then cobblestone', () => {
    expect(nextCraftStep('stone_pickaxe', 1, at({}))).toEqual({ kind: 'gather', item: 'log', count: FIRST_LOGS });
    expect(nextCraftStep('stone_pickaxe', 1, at({ wooden_pickaxe: 1, stick: 2 }, true))).toEqual({ kind: 'gather', item: 'cobblestone', count: 3 });
    expect(nextCraftStep('stone_pickaxe', 1, at({ wooden_pickaxe: 1, stick: 2, cobblestone: 3 }, true))).toEqual({ kind: 'craft', item: 'stone_pickaxe', count: 1 });
    expect(nextCraftStep('furnace', 1, at({ stone_pickaxe: 1, cobblestone: 2 }, true))).toEqual({ kind: 'gather', item: 'cobblestone', count: 6 });
    // Cobblestone lies just under the surface, near the table: no wood for another.
    expect(nextCraftStep('stone_pickaxe', 1, at({ wooden_pickaxe: 1, stick: 2, oak_planks: 3 }, true))).toEqual({ kind: 'gather', item: 'cobblestone', count: 3 });
  });

  it('GIVEN a crafting table in sight THEN it counts as at hand within 12 blocks; farther, the plan makes a new one (a furnace counts within 30)', () => {
    expect(planCraft('wooden_pickaxe', 1, snap({ oak_planks: 3, stick: 2 }, { crafting_table: 12 }))).toEqual({ id: 'craft', params: { item: 'wooden_pickaxe', count: 1 } });
    expect(planCraft('wooden_pickaxe', 1, snap({ oak_planks: 7, stick: 2 }, { crafting_table: 20 }))).toEqual({ id: 'craft', params: { item: 'crafting_table', count: 1 } });
    expect(planCraft('iron_ingot', 1, snap({ raw_iron: 1, coal: 1 }, { furnace: 25 }))).toEqual({ id: 'smelt', params: { item: 'iron_ingot', count: 1 } });
  });

  it('GIVEN an item outside the tech tree THEN the plan says unknown; a species of planks counts as planks', () => {
    expect(nextCraftStep('diamond_block', 1, at({}))).toEqual({ kind: 'unknown', item: 'diamond_block' });
    expect(nextCraftStep('oak_planks', 8, at({ oak_log: 5 }))).toEqual({ kind: 'craft', item: 'planks', count: 8 });
  });

  it('GIVEN a stone goal without a pickaxe THEN the tool is planned first; with one, collect runs', () => {
    expect(toolFirst('cobblestone', at({}))).toEqual({ kind: 'gather', item: 'log', count: FIRST_LOGS });
    expect(toolFirst('cobblestone', at({ stone_pickaxe: 1 }))).toBeNull();
    expect(toolFirst('log', at({}))).toBeNull();
    expect(planGather('cobblestone', 5, snap({ oak_planks: 12 }))).toEqual({ id: 'craft', params: { item: 'stick', count: 4 } });
    expect(planGather('cobblestone', 5, snap({ wooden_pickaxe: 1 }))).toEqual({ id: 'collect', params: { item: 'cobblestone', count: 5 } });
  });

  it('GIVEN a snapshot THEN the skill run names concrete planks and sees a table in sight', () => {
    expect(planCraft('wooden_pickaxe', 1, snap({ birch_log: 2 }, { crafting_table: 12 }))).toEqual({ id: 'craft', params: { item: 'birch_planks', count: 8 } });
    expect(planCraft('wooden_pickaxe', 1, snap({}))).toEqual({ id: 'collect', params: { item: 'log', count: FIRST_LOGS } });
    expect(planCraft('diamond_block', 1, snap({}))).toEqual({ id: 'craft', params: { item: 'diamond_block', count: 1 } });
  });

  it('GIVEN nothing WHEN cooked beef is wanted THEN it hunts the beef first; with the beef it gathers for a furnace; with a furnace and planks it smelts', () => {
    expect(nextCraftStep('cooked_beef', 1, at({}))).toEqual({ kind: 'hunt', item: 'beef', count: 1 });
    expect(nextCraftStep('cooked_beef', 1, at({ beef: 1 }))).toMatchObject({ kind: 'gather', item: 'log' });
    expect(nextCraftStep('cooked_beef', 1, at({ beef: 1, stone_pickaxe: 1, cobblestone: 8, oak_planks: 1 }, true))).toEqual({ kind: 'craft', item: 'furnace', count: 1 });
    expect(nextCraftStep('cooked_beef', 1, { inventory: { beef: 1, oak_planks: 1 }, tableNearby: false, furnaceNearby: true })).toEqual({ kind: 'smelt', item: 'cooked_beef', count: 1 });
  });

  it('GIVEN a furnace nearby WHEN smelting needs more fuel than held THEN coal goes first, then planks, and missing planks are crafted from logs', () => {
    const near = (inventory: Record<string, number>) => ({ inventory, tableNearby: true, furnaceNearby: true });
    // 3 items take 600 ticks: one coal (1600) is enough.
    expect(nextCraftStep('iron_ingot', 3, near({ raw_iron: 3, coal: 1 }))).toEqual({ kind: 'smelt', item: 'iron_ingot', count: 3 });
    // Without coal: 2 planks (300 each); one is held, the other is crafted from a log.
    expect(nextCraftStep('iron_ingot', 3, near({ raw_iron: 3, oak_planks: 1, oak_log: 1 }))).toEqual({ kind: 'craft', item: 'planks', count: 4 });
    expect(nextCraftStep('iron_ingot', 3, near({ raw_iron: 3, oak_planks: 2 }))).toEqual({ kind: 'smelt', item: 'iron_ingot', count: 3 });
  });

  it('GIVEN stone tools WHEN an iron pickaxe is wanted THEN it mines raw iron, smelts 3 ingots and crafts the pickaxe; from nothing it starts with logs', () => {
    const near = (inventory: Record<string, number>) => ({ inventory, tableNearby: true, furnaceNearby: true });
    // Iron lies deep, where the table up here is out of reach: the table goes along (collect takes its own), so no wood
    // for another; with no table at hand, a log for one made down there comes first.
    expect(nextCraftStep('iron_pickaxe', 1, near({ stone_pickaxe: 1, stick: 2, coal: 1 }))).toEqual({ kind: 'gather', item: 'raw_iron', count: 3 });
    expect(nextCraftStep('iron_pickaxe', 1, { inventory: { stone_pickaxe: 1, stick: 2, coal: 1 }, tableNearby: false })).toEqual({ kind: 'gather', item: 'log', count: 1 });
    expect(nextCraftStep('iron_pickaxe', 1, near({ stone_pickaxe: 1, stick: 2, coal: 1, oak_log: 1 }))).toEqual({ kind: 'gather', item: 'raw_iron', count: 3 });
    expect(nextCraftStep('iron_pickaxe', 1, near({ stone_pickaxe: 1, stick: 2, coal: 1, raw_iron: 3 }))).toEqual({ kind: 'smelt', item: 'iron_ingot', count: 3 });
    expect(nextCraftStep('iron_pickaxe', 1, near({ stone_pickaxe: 1, stick: 2, iron_ingot: 3 }))).toEqual({ kind: 'craft', item: 'iron_pickaxe', count: 1 });
    expect(nextCraftStep('iron_pickaxe', 1, at({}))).toMatchObject({ kind: 'gather', item: 'log' });
    // A wooden pickaxe does not mine iron ore: the stone one comes first (after the log for fuel: wood is gathered before going down).
    expect(nextCraftStep('iron_pickaxe', 1, near({ wooden_pickaxe: 1, stick: 4 }))).toEqual({ kind: 'gather', item: 'log', count: 1 });
    expect(nextCraftStep('iron_pickaxe', 1, near({ wooden_pickaxe: 1, stick: 4, oak_log: 1 }))).toEqual({ kind: 'gather', item: 'cobblestone', count: 3 });
  });

  it('GIVEN a plan that mines below and needs wood as well THEN all its logs are gathered first, on the surface; without logs in it the order stays', () => {
    // The stone pickaxe's sticks, fuel for 3 smelts and a new table: 2 logs before the iron.
    expect(nextCraftStep('iron_pickaxe', 1, at({ stone_pickaxe: 1, oak_planks: 3 }))).toEqual({ kind: 'gather', item: 'log', count: 2 });
    expect(nextCraftStep('iron_pickaxe', 1, at({ stone_pickaxe: 1, oak_planks: 3, oak_log: 2 }))).toEqual({ kind: 'gather', item: 'raw_iron', count: 3 });
    expect(nextCraftStep('furnace', 1, at({ stone_pickaxe: 1, cobblestone: 2 }, true))).toEqual({ kind: 'gather', item: 'cobblestone', count: 6 });
    // Cobblestone lies just under the surface, near the table: no wood for another.
    expect(nextCraftStep('stone_pickaxe', 1, at({ wooden_pickaxe: 1, stick: 2, oak_planks: 3 }, true))).toEqual({ kind: 'gather', item: 'cobblestone', count: 3 });
  });

  it('GIVEN a crafting table in sight THEN it counts as at hand within 12 blocks; farther, the plan makes a new one (a furnace counts within 30)', () => {
    expect(planCraft('wooden_pickaxe', 1, snap({ oak_planks: 3, stick: 2 }, { crafting_table: 12 }))).toEqual({ id: 'craft', params: { item: 'wooden_pickaxe', count: 1 } });
    expect(planCraft('wooden_pickaxe', 1, snap({ oak_planks: 7, stick: 2 }, { crafting_table: 20 }))).toEqual({ id: 'craft', params: { item: 'crafting_table', count: 1 } });
    expect(planCraft('iron_ingot', 1, snap({ raw_iron: 1, coal: 1 }, { furnace: 25 }))).toEqual({ id: 'smelt', params: { item: 'iron_ingot', count: 1 } });
  });

  it('GIVEN a goal to get something made or hunted THEN planGather follows its plan instead of mining for it', () => {
    expect(planGather('cooked_beef', 1, snap({}))).toEqual({ id: 'fight', params: { target: 'cow' } });
    expect(planGather('mutton', 2, snap({}))).toEqual({ id: 'fight', params: { target: 'sheep' } });
    expect(planGather('iron_ingot', 2, snap({ raw_iron: 2, coal: 1 }, { furnace: 3 }))).toEqual({ id: 'smelt', params: { item: 'iron_ingot', count: 2 } });
    expect(planGather('sand', 4, snap({}))).toEqual({ id: 'collect', params: { item: 'sand', count: 4 } });
  });

  it('GIVEN names that are members of every object (constructor, toString, __proto__) THEN they are no recipe, fuel, smelt or raw item', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(canPlan(name)).toBe(false);
      expect(fuelTicks(name)).toBe(0);
      expect(smeltInputs(name)).toEqual([]);
      expect(toolFirst(name, at({}))).toBeNull();
    }
  });
});
