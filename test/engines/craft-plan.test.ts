import { describe, expect, it } from 'vitest';
import { nextCraftStep, planCraft, planGather, toolFirst } from '../../src/engines/craft-plan.ts';

const at = (inventory: Record<string, number>, tableNearby = false) => ({ inventory, tableNearby });
const snap = (inventory: Record<string, number>, nearbyBlocks: Record<string, number> = {}) => ({ inventory, nearbyBlocks });

describe('craft planning', () => {
  it('GIVEN an empty inventory WHEN a wooden pickaxe is wanted THEN it first gathers all 3 logs the chain needs', () => {
    expect(nextCraftStep('wooden_pickaxe', 1, at({}))).toEqual({ kind: 'gather', item: 'log', count: 3 });
  });

  it('GIVEN the logs, then each part WHEN a wooden pickaxe is wanted THEN it crafts all planks, then sticks, then a table, then the pickaxe', () => {
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_log: 3 }))).toEqual({ kind: 'craft', item: 'planks', count: 12 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 12 }))).toEqual({ kind: 'craft', item: 'stick', count: 4 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 10, stick: 4 }))).toEqual({ kind: 'craft', item: 'crafting_table', count: 1 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 6, stick: 4, crafting_table: 1 }))).toEqual({ kind: 'craft', item: 'wooden_pickaxe', count: 1 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ wooden_pickaxe: 1 }))).toBeNull();
  });

  it('GIVEN a table nearby THEN no table is crafted, and fewer logs are needed', () => {
    expect(nextCraftStep('wooden_pickaxe', 1, at({}, true))).toEqual({ kind: 'gather', item: 'log', count: 2 });
    expect(nextCraftStep('wooden_pickaxe', 1, at({ oak_planks: 3, stick: 2 }, true))).toEqual({ kind: 'craft', item: 'wooden_pickaxe', count: 1 });
  });

  it('GIVEN no pickaxe WHEN a stone pickaxe is wanted THEN the wooden pickaxe comes first, then cobblestone', () => {
    expect(nextCraftStep('stone_pickaxe', 1, at({}))).toEqual({ kind: 'gather', item: 'log', count: 3 });
    expect(nextCraftStep('stone_pickaxe', 1, at({ wooden_pickaxe: 1, stick: 2 }, true))).toEqual({ kind: 'gather', item: 'cobblestone', count: 3 });
    expect(nextCraftStep('stone_pickaxe', 1, at({ wooden_pickaxe: 1, stick: 2, cobblestone: 3 }, true))).toEqual({ kind: 'craft', item: 'stone_pickaxe', count: 1 });
    expect(nextCraftStep('furnace', 1, at({ stone_pickaxe: 1, cobblestone: 2 }, true))).toEqual({ kind: 'gather', item: 'cobblestone', count: 6 });
  });

  it('GIVEN an item outside the tech tree THEN the plan says unknown; a species of planks counts as planks', () => {
    expect(nextCraftStep('diamond_block', 1, at({}))).toEqual({ kind: 'unknown', item: 'diamond_block' });
    expect(nextCraftStep('oak_planks', 8, at({ oak_log: 5 }))).toEqual({ kind: 'craft', item: 'planks', count: 8 });
  });

  it('GIVEN a stone goal without a pickaxe THEN the tool is planned first; with one, collect runs', () => {
    expect(toolFirst('cobblestone', at({}))).toEqual({ kind: 'gather', item: 'log', count: 3 });
    expect(toolFirst('cobblestone', at({ stone_pickaxe: 1 }))).toBeNull();
    expect(toolFirst('log', at({}))).toBeNull();
    expect(planGather('cobblestone', 5, snap({ oak_planks: 12 }))).toEqual({ id: 'craft', params: { item: 'stick', count: 4 } });
    expect(planGather('cobblestone', 5, snap({ wooden_pickaxe: 1 }))).toEqual({ id: 'collect', params: { item: 'cobblestone', count: 5 } });
  });

  it('GIVEN a snapshot THEN the skill run names concrete planks and sees a table in sight', () => {
    expect(planCraft('wooden_pickaxe', 1, snap({ birch_log: 2 }, { crafting_table: 12 }))).toEqual({ id: 'craft', params: { item: 'birch_planks', count: 8 } });
    expect(planCraft('wooden_pickaxe', 1, snap({}))).toEqual({ id: 'collect', params: { item: 'log', count: 3 } });
    expect(planCraft('diamond_block', 1, snap({}))).toEqual({ id: 'craft', params: { item: 'diamond_block', count: 1 } });
  });
});
