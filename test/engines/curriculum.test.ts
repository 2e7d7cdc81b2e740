import { describe, expect, it } from 'vitest';
import { nextSelfGoal, SWORD_FROM_TICK, UNDERGROUND_FROM_TICK } from '../../src/engines/curriculum.ts';
import { UNDER_ROOF_UNTIL_TICK } from '../../src/game/night.ts';
import { parseGoal } from '../../src/goals/goal-language.ts';
import { BARE, EMBEDDED, makeSnapshot, VANILLA } from './avatar-game-stub.ts';

describe('survival curriculum', () => {
  it('GIVEN an empty inventory with oak trees in sight THEN where the server crafts the first goal is the wooden pickaxe (its plan gathers the 3 logs it needs); where it cannot, 16 oak logs', () => {
    const snap = makeSnapshot({ nearbyBlocks: { oak_log: 5 } });
    expect(nextSelfGoal(snap, BARE, [], [])).toBe('collect 16 oak logs');
    expect(nextSelfGoal(snap, VANILLA, [], [])).toBe('craft a wooden pickaxe');
    expect(nextSelfGoal(snap, EMBEDDED, [], [])).toBe('craft a wooden pickaxe');
  });

  it('GIVEN 10 logs already held THEN it asks only for the 6 still missing', () => {
    expect(nextSelfGoal(makeSnapshot({ inventory: { birch_log: 10 } }), BARE, [], [])).toBe('collect 6 birch logs');
  });

  it('GIVEN 16 logs on a vanilla server THEN the next goal is the wooden pickaxe: planks, sticks and a table come with its plan, not as goals of their own', () => {
    expect(nextSelfGoal(makeSnapshot({ inventory: { spruce_log: 16 } }), VANILLA, [], [])).toBe('craft a wooden pickaxe');
    expect(nextSelfGoal(makeSnapshot({ inventory: { spruce_planks: 8, stick: 4 } }), VANILLA, [], [])).toBe('craft a wooden pickaxe');
  });

  it('GIVEN 16 logs on a server without crafting THEN crafting steps are skipped and it mines stone', () => {
    const goal = nextSelfGoal(makeSnapshot({ inventory: { oak_log: 16 } }), BARE, [], []);
    expect(goal).toBe('mine 16 stone');
  });

  it('GIVEN planks, sticks and a crafting table on vanilla THEN the next goal is a wooden pickaxe', () => {
    const snap = makeSnapshot({ inventory: { oak_planks: 8, stick: 4, crafting_table: 1 } });
    expect(nextSelfGoal(snap, VANILLA, [], [])).toBe('craft a wooden pickaxe');
  });

  it('GIVEN a wooden pickaxe, with or without cobblestone, on vanilla THEN the stone pickaxe is next (its plan mines the 3 cobblestone)', () => {
    expect(nextSelfGoal(makeSnapshot({ inventory: { wooden_pickaxe: 1, wooden_sword: 1 } }), VANILLA, [], [])).toBe('craft a stone pickaxe');
    expect(nextSelfGoal(makeSnapshot({ inventory: { wooden_pickaxe: 1, wooden_sword: 1, cobblestone: 20 } }), VANILLA, [], [])).toBe('craft a stone pickaxe');
  });

  it('GIVEN a pickaxe and no sword THEN by day the next pickaxe comes first; near dusk or at night, where mobs spawn, a sword does (stone once stone can be mined), where none do the pickaxe', () => {
    const day = (inventory: Record<string, number>) => makeSnapshot({ inventory, timeOfDay: 1000 });
    const dusk = (inventory: Record<string, number>) => makeSnapshot({ inventory, timeOfDay: SWORD_FROM_TICK });
    const night = (inventory: Record<string, number>) => makeSnapshot({ inventory, timeOfDay: 18_000 });
    for (const caps of [VANILLA, EMBEDDED]) {
      expect(nextSelfGoal(day({ wooden_pickaxe: 1 }), caps, [], [])).toBe('craft a stone pickaxe');
      expect(nextSelfGoal(dusk({ wooden_pickaxe: 1 }), caps, [], [])).toBe('craft a wooden sword');
      expect(nextSelfGoal(night({ stone_pickaxe: 1, oak_log: 2 }), caps, [], [])).toBe('craft a stone sword');
      expect(nextSelfGoal(makeSnapshot({ inventory: { wooden_pickaxe: 1 }, timeOfDay: SWORD_FROM_TICK - 1 }), caps, [], [])).toBe('craft a stone pickaxe');
    }
    expect(nextSelfGoal(dusk({ wooden_pickaxe: 1 }), { ...EMBEDDED, mobs: false }, [], [])).toBe('craft a stone pickaxe');
    // Any sword held: no other one before night.
    expect(nextSelfGoal(dusk({ wooden_pickaxe: 1, wooden_sword: 1 }), EMBEDDED, [], [])).toBe('craft a stone pickaxe');
  });

  it('GIVEN hunger on vanilla with food held THEN it eats; on a server without hunger it never does', () => {
    const inv = { stone_pickaxe: 1, stone_sword: 1, bread: 3 };
    expect(nextSelfGoal(makeSnapshot({ inventory: inv, food: 6 }), VANILLA, [], [])).toBe('eat something');
    expect(nextSelfGoal(makeSnapshot({ inventory: { ...inv, oak_log: 16, cobblestone: 16 }, food: 6 }), BARE, [], [])).not.toBe('eat something');
  });

  it('GIVEN stone and logs on a server without crafting THEN it gathers shelter material, then explores', () => {
    expect(nextSelfGoal(makeSnapshot({ inventory: { oak_log: 16, cobblestone: 16 } }), BARE, [], [])).toBe('get 32 dirt');
    expect(nextSelfGoal(makeSnapshot({ inventory: { oak_log: 16, cobblestone: 16, dirt: 32 } }), BARE, [], [])).toBe('explore');
  });

  it('GIVEN the last finished goal was the one the curriculum wants THEN it does not repeat it', () => {
    const snap = makeSnapshot({ nearbyBlocks: { oak_log: 5 } });
    const goal = nextSelfGoal(snap, BARE, ['collect 16 oak logs'], []);
    expect(goal).not.toBe('collect 16 oak logs');
    expect(parseGoal(goal).kind).not.toBe('unknown');
  });

  it('GIVEN explore was just done and everything else is done THEN it picks something other than explore', () => {
    const snap = makeSnapshot({ inventory: { oak_log: 16, cobblestone: 16, dirt: 32 } });
    expect(nextSelfGoal(snap, BARE, ['explore'], [])).not.toBe('explore');
  });

  it('GIVEN the embedded world (it crafts and has mobs) by day THEN the curriculum goes tool by tool: wooden, stone, iron pickaxe, then the swords, a furnace, shelter material', () => {
    expect(nextSelfGoal(makeSnapshot(), EMBEDDED, [], [])).toBe('craft a wooden pickaxe');
    expect(nextSelfGoal(makeSnapshot({ inventory: { oak_log: 16 } }), EMBEDDED, [], [])).toBe('craft a wooden pickaxe');
    expect(nextSelfGoal(makeSnapshot({ inventory: { oak_planks: 8, stick: 4, crafting_table: 1 } }), EMBEDDED, [], [])).toBe('craft a wooden pickaxe');
    expect(nextSelfGoal(makeSnapshot({ inventory: { wooden_pickaxe: 1 } }), EMBEDDED, [], [])).toBe('craft a stone pickaxe');
    expect(nextSelfGoal(makeSnapshot({ inventory: { stone_pickaxe: 1 } }), EMBEDDED, [], [])).toBe('craft an iron pickaxe');
    expect(nextSelfGoal(makeSnapshot({ inventory: { stone_pickaxe: 1, stone_sword: 1, cobblestone: 16 } }), EMBEDDED, [], [])).toBe('craft an iron pickaxe');
    expect(nextSelfGoal(makeSnapshot({ inventory: { iron_pickaxe: 1 } }), EMBEDDED, [], [])).toBe('craft a stone sword');
    expect(nextSelfGoal(makeSnapshot({ inventory: { iron_pickaxe: 1, stone_sword: 1, furnace: 1, cobblestone: 16 } }), EMBEDDED, [], [])).toBe('craft an iron sword');
    expect(nextSelfGoal(makeSnapshot({ inventory: { iron_pickaxe: 1, iron_sword: 1, cobblestone: 16 } }), EMBEDDED, [], [])).toBe('craft a furnace');
    expect(nextSelfGoal(makeSnapshot({ inventory: { iron_pickaxe: 1, iron_sword: 1, furnace: 1, cobblestone: 16 } }), EMBEDDED, [], [])).toBe('get 32 dirt');
  });

  it('GIVEN the tools made and night falling where monsters spawn THEN the night is spent mining under a roof, iron and stone in turn, never explore; by day or where none spawn, the curriculum goes on', () => {
    const tools = { iron_pickaxe: 1, iron_sword: 1, furnace: 1, cobblestone: 64 };
    const night = makeSnapshot({ inventory: tools, timeOfDay: UNDERGROUND_FROM_TICK });
    const recent: string[] = [];
    for (let i = 0; i < 8; i++) recent.push(nextSelfGoal(night, EMBEDDED, recent, []));
    expect(recent).toEqual(['collect 3 raw iron', 'mine 16 stone', 'collect 3 raw iron', 'mine 16 stone', 'collect 3 raw iron', 'mine 16 stone', 'collect 3 raw iron', 'mine 16 stone']);
    // Without a stone pickaxe, once the tool steps were tried twice lately: stone.
    const tried = ['craft a stone pickaxe', 'craft an iron pickaxe', 'craft a stone pickaxe', 'craft an iron pickaxe'];
    expect(nextSelfGoal(makeSnapshot({ inventory: { wooden_pickaxe: 1, wooden_sword: 1 }, timeOfDay: 18_000 }), EMBEDDED, tried, [])).toBe('mine 16 stone');
    expect(nextSelfGoal(makeSnapshot({ inventory: tools, timeOfDay: UNDERGROUND_FROM_TICK - 1 }), EMBEDDED, [], [])).not.toMatch(/raw iron|stone|coal/);
    // Until daylight has burnt the zombies the dawn caught outside.
    expect(nextSelfGoal(makeSnapshot({ inventory: tools, timeOfDay: 23_000 }), EMBEDDED, [], [])).toBe('collect 3 raw iron');
    expect(nextSelfGoal(makeSnapshot({ inventory: tools, timeOfDay: UNDER_ROOF_UNTIL_TICK }), EMBEDDED, [], [])).not.toMatch(/raw iron|stone|coal/);
    expect(nextSelfGoal(night, { ...EMBEDDED, mobs: false }, [], [])).not.toMatch(/raw iron|stone|coal/);
  });

  it('GIVEN night where monsters spawn THEN no goal is picked whose next step goes out (hunting, logs, exploring) while there is work under a roof; by day the same avatar goes out', () => {
    const cow = { name: 'cow', kind: 'passive' as const, distance: 12, position: { x: 12, y: 64, z: 0 } };
    const night = (inventory: Record<string, number>, over = {}) => makeSnapshot({ inventory, timeOfDay: 14_000, ...over });
    // Hungry with a cow in sight: no hunt in the dark; mining instead.
    expect(nextSelfGoal(night({ stone_pickaxe: 1, stone_sword: 1 }, { food: 12, nearbyEntities: [cow] }), EMBEDDED, [], [])).toBe('collect 3 raw iron');
    expect(nextSelfGoal(makeSnapshot({ inventory: { stone_pickaxe: 1, stone_sword: 1 }, food: 12, nearbyEntities: [cow] }), EMBEDDED, [], [])).toBe('get 2 beef');
    // An iron pickaxe whose plan starts with logs waits; with the wood held it is made under ground.
    expect(nextSelfGoal(night({ stone_pickaxe: 1, stone_sword: 1 }), EMBEDDED, [], [])).toBe('collect 3 raw iron');
    expect(nextSelfGoal(night({ stone_pickaxe: 1, stone_sword: 1, oak_log: 2, oak_planks: 3 }), EMBEDDED, [], [])).toBe('craft an iron pickaxe');
    // Everything done: filler goals under the open sky (explore, logs) give way to stone.
    const done = { iron_pickaxe: 1, iron_sword: 1, furnace: 1, cobblestone: 64, dirt: 64 };
    expect(nextSelfGoal(night(done), EMBEDDED, ['collect 3 raw iron'], [])).toBe('mine 16 stone');
    expect(nextSelfGoal(night(done), EMBEDDED, ['mine 16 stone'], [])).toBe('collect 3 raw iron');
    // Nothing to do under a roof (no pickaxe at all): the first goal still (a sword, at night), the reflexes keep it alive.
    expect(nextSelfGoal(night({}), EMBEDDED, [], [])).toBe('craft a wooden sword');
  });

  it('GIVEN hunger, nothing to eat and a cow in sight THEN it hunts it: raw beef without a furnace at hand, cooked beef with one', () => {
    const cow = { name: 'cow', kind: 'passive' as const, distance: 12, position: { x: 12, y: 64, z: 0 } };
    const base = { stone_pickaxe: 1, stone_sword: 1 };
    expect(nextSelfGoal(makeSnapshot({ inventory: base, food: 12, nearbyEntities: [cow] }), EMBEDDED, [], [])).toBe('get 2 beef');
    expect(nextSelfGoal(makeSnapshot({ inventory: { ...base, furnace: 1 }, food: 12, nearbyEntities: [cow] }), EMBEDDED, [], [])).toBe('get 2 cooked beef');
    // Rotten flesh is no food to count on; an apple is.
    expect(nextSelfGoal(makeSnapshot({ inventory: { ...base, rotten_flesh: 3 }, food: 12, nearbyEntities: [cow] }), EMBEDDED, [], [])).toBe('get 2 beef');
    expect(nextSelfGoal(makeSnapshot({ inventory: { ...base, apple: 1 }, food: 12, nearbyEntities: [cow] }), EMBEDDED, [], [])).toBe('eat something');
    // Not hungry, or no animal about: no hunt (starving with no animal: an apple).
    expect(nextSelfGoal(makeSnapshot({ inventory: base, food: 18, nearbyEntities: [cow] }), EMBEDDED, [], [])).not.toMatch(/beef/);
    expect(nextSelfGoal(makeSnapshot({ inventory: base, food: 7 }), EMBEDDED, [], [])).toBe('collect 1 apple');
  });

  it('GIVEN raw meat and a furnace at hand THEN it cooks it; without a furnace it does not', () => {
    expect(nextSelfGoal(makeSnapshot({ inventory: { stone_pickaxe: 1, beef: 3, porkchop: 1 }, nearbyBlocks: { furnace: 5 } }), EMBEDDED, [], [])).toBe('get 3 cooked beef');
    expect(nextSelfGoal(makeSnapshot({ inventory: { stone_pickaxe: 1, beef: 3 } }), EMBEDDED, [], [])).not.toMatch(/cooked/);
  });

  it('GIVEN a hungry avatar on the embedded world THEN with food it eats first, and with none it forages for an apple', () => {
    expect(nextSelfGoal(makeSnapshot({ inventory: { oak_log: 3, apple: 1 }, food: 7 }), EMBEDDED, [], [])).toBe('eat something');
    expect(nextSelfGoal(makeSnapshot({ inventory: { oak_log: 3 }, food: 7 }), EMBEDDED, [], [])).toBe('collect 1 apple');
    expect(nextSelfGoal(makeSnapshot({ inventory: { oak_log: 3 }, food: 12 }), EMBEDDED, [], [])).toBe('craft a wooden pickaxe');
  });

  it('GIVEN a parked owner goal THEN it is offered first', () => {
    expect(nextSelfGoal(makeSnapshot(), BARE, [], ['collect 10 sand'])).toBe('collect 10 sand');
  });

  it('GIVEN a parked goal the server cannot do or the language cannot read THEN it is passed over', () => {
    const snap = makeSnapshot({ nearbyBlocks: { oak_log: 5 } });
    expect(nextSelfGoal(snap, BARE, [], ['craft a wooden pickaxe', 'build a castle'])).toBe('collect 16 oak logs');
  });

  it('GIVEN any capabilities THEN every chosen goal parses in the goal language', () => {
    const snaps = [makeSnapshot(), makeSnapshot({ inventory: { oak_log: 16 } }), makeSnapshot({ inventory: { oak_log: 16, cobblestone: 16, dirt: 40 } })];
    for (const caps of [BARE, EMBEDDED, VANILLA]) {
      for (const s of snaps) {
        const goal = nextSelfGoal(s, caps, ['explore', 'collect 16 logs'], []);
        expect(parseGoal(goal).kind, goal).not.toBe('unknown');
        if (!caps.crafting) expect(parseGoal(goal).kind).not.toBe('craft');
      }
    }
  });
});
