import { describe, expect, it } from 'vitest';
import { surfaceGoal, surfaceRun, underRoofNow } from '../../src/engines/night-goals.ts';
import { isDaytime, keepUnderRoof, minedUnderground, MONSTERS_FROM_TICK, MONSTERS_UNTIL_TICK, UNDER_ROOF_FROM_TICK, UNDER_ROOF_UNTIL_TICK } from '../../src/game/night.ts';
import { BARE, EMBEDDED, makeSnapshot, VANILLA } from './avatar-game-stub.ts';

describe('the night under a roof', () => {
  it('GIVEN the clock THEN the avatar keeps under a roof from a minute before monsters spawn until daylight has burnt them; the sun is up by vanilla daylight', () => {
    expect(UNDER_ROOF_FROM_TICK).toBeLessThan(MONSTERS_FROM_TICK);
    expect(UNDER_ROOF_UNTIL_TICK).toBeGreaterThan(MONSTERS_UNTIL_TICK);
    expect([1000, UNDER_ROOF_FROM_TICK - 1, UNDER_ROOF_UNTIL_TICK, 23_999].map(keepUnderRoof)).toEqual([false, false, false, false]);
    expect([UNDER_ROOF_FROM_TICK, 14_000, 23_000, 24_000 + 14_000].map(keepUnderRoof)).toEqual([true, true, true, true]);
    expect([6000, 12_541, 23_460, -18_000].map(isDaytime)).toEqual([true, true, true, true]);
    expect([12_542, 18_000, 23_459].map(isDaytime)).toEqual([false, false, false]);
  });

  it('GIVEN an item THEN what lies in stone is mined under ground, what grows or lies on top is not', () => {
    for (const item of ['stone', 'cobblestone', 'coal', 'raw_iron', 'iron_ore', 'deepslate_iron_ore', 'diamond']) expect(minedUnderground(item), item).toBe(true);
    for (const item of ['log', 'oak_log', 'dirt', 'sand', 'gravel', 'apple', 'beef']) expect(minedUnderground(item), item).toBe(false);
  });

  it('GIVEN a skill run THEN gathering on top, hunting, exploring and walking go out under the open sky; mining, crafting, smelting and eating do not', () => {
    expect(surfaceRun({ id: 'collect', params: { item: 'log', count: 3 } })).toBe(true);
    expect(surfaceRun({ id: 'collect', params: { item: 'sand', count: 3 } })).toBe(true);
    expect(surfaceRun({ id: 'fight', params: { target: 'cow' } })).toBe(true);
    expect(surfaceRun({ id: 'explore', params: {} })).toBe(true);
    expect(surfaceRun({ id: 'collect', params: { item: 'raw_iron', count: 3 } })).toBe(false);
    expect(surfaceRun({ id: 'collect', params: { item: 'cobblestone', count: 16 } })).toBe(false);
    for (const id of ['craft', 'smelt', 'eat']) expect(surfaceRun({ id, params: {} }), id).toBe(false);
  });

  it('GIVEN a goal THEN whether working on it now goes out depends on its next step: an iron pickaxe with the wood held mines first, without it gathers logs', () => {
    const night = (inventory: Record<string, number>) => makeSnapshot({ inventory, timeOfDay: 14_000 });
    expect(surfaceGoal('collect 16 logs', night({}), EMBEDDED)).toBe(true);
    expect(surfaceGoal('mine 16 stone', night({ stone_pickaxe: 1 }), EMBEDDED)).toBe(false);
    expect(surfaceGoal('craft an iron pickaxe', night({ stone_pickaxe: 1 }), EMBEDDED)).toBe(true);
    expect(surfaceGoal('craft an iron pickaxe', night({ stone_pickaxe: 1, oak_log: 2, oak_planks: 3 }), EMBEDDED)).toBe(false);
    expect(surfaceGoal('get 2 beef', night({}), EMBEDDED)).toBe(true);
    expect(surfaceGoal('build a castle', night({}), EMBEDDED)).toBe(false);
  });

  it('GIVEN a server THEN only where monsters spawn do the goals keep under a roof at night', () => {
    expect(underRoofNow({ timeOfDay: 14_000 }, EMBEDDED)).toBe(true);
    expect(underRoofNow({ timeOfDay: 14_000 }, VANILLA)).toBe(true);
    expect(underRoofNow({ timeOfDay: 14_000 }, BARE)).toBe(false);
    expect(underRoofNow({ timeOfDay: 6000 }, EMBEDDED)).toBe(false);
  });
});
