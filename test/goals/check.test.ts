import { describe, expect, it } from 'vitest';
import { checkGoal, countItems } from '../../src/goals/check.ts';
import { itemLabel, matchesItem, normaliseItem } from '../../src/game/items.ts';
import { snapshotOf } from '../fakes/fake-game.ts';

const snap = snapshotOf;

describe('countItems and item names', () => {
  it('GIVEN logs of several kinds THEN the log group counts them all and oak_log only oak', () => {
    const inv = { oak_log: 2, birch_log: 3, oak_planks: 4 };
    expect(countItems(inv, 'log')).toBe(5);
    expect(countItems(inv, 'oak_log')).toBe(2);
    expect(countItems(inv, 'planks')).toBe(4);
  });
  it('GIVEN stone and cobblestone THEN the cobblestone group accepts both', () => {
    expect(countItems({ cobblestone: 3, stone: 2, dirt: 9 }, 'cobblestone')).toBe(5);
    expect(matchesItem('cobblestone', 'stone')).toBe(true);
    expect(matchesItem('oak_log', 'birch_log')).toBe(false);
  });
  it('GIVEN plain phrases THEN they normalise to registry names', () => {
    expect(normaliseItem('oak logs')).toBe('oak_log');
    expect(normaliseItem('sticks')).toBe('stick');
    expect(normaliseItem('wooden pickaxe')).toBe('wooden_pickaxe');
    expect(normaliseItem('crafting table')).toBe('crafting_table');
    expect(normaliseItem('torches')).toBe('torch');
    expect(normaliseItem('iron axes')).toBe('iron_axe');
    expect(normaliseItem('spruce planks')).toBe('spruce_planks');
    expect(normaliseItem('??')).toBeNull();
  });
  it('GIVEN counts THEN labels are plural where English wants it', () => {
    expect(itemLabel('oak_log', 3)).toBe('oak logs');
    expect(itemLabel('oak_log', 1)).toBe('oak log');
    expect(itemLabel('cobblestone', 5)).toBe('cobblestone');
    expect(itemLabel('torch', 2)).toBe('torches');
  });
  it('GIVEN meat, fish and materials THEN their labels take no plural -s, and irregular names their own plural', () => {
    const plural = (items: string[]): string[] => items.map((i) => itemLabel(i, 2));
    expect(plural(['beef', 'cooked_beef', 'mutton', 'chicken', 'cooked_chicken', 'rabbit', 'cod', 'salmon', 'pufferfish', 'tropical_fish'])).toEqual([
      'beef', 'cooked beef', 'mutton', 'chicken', 'cooked chicken', 'rabbit', 'cod', 'salmon', 'pufferfish', 'tropical fish',
    ]);
    expect(plural(['cobbled_deepslate', 'redstone', 'white_wool', 'raw_iron', 'coal', 'sand', 'glass', 'bone_meal', 'glowstone_dust', 'short_grass'])).toEqual([
      'cobbled deepslate', 'redstone', 'white wool', 'raw iron', 'coal', 'sand', 'glass', 'bone meal', 'glowstone dust', 'short grass',
    ]);
    expect(plural(['oak_planks', 'porkchop', 'potato', 'poppy', 'compass', 'bookshelf', 'rabbit_foot', 'heart_of_the_sea', 'glass_pane'])).toEqual([
      'oak planks', 'porkchops', 'potatoes', 'poppies', 'compasses', 'bookshelves', 'rabbit feet', 'hearts of the sea', 'glass panes',
    ]);
    expect(['beefs', 'compasses', 'bookshelves', 'rabbit feet'].map(normaliseItem)).toEqual(['beef', 'compass', 'bookshelf', 'rabbit_foot']);
  });
});

describe('checkGoal', () => {
  it('GIVEN collect 3 with 3 held at the start and 5 now THEN not met, and it says how many more are needed', () => {
    const r = checkGoal('collect 3 oak logs', { oak_log: 3 }, snap({ inventory: { oak_log: 5 } }));
    expect(r).toEqual({ checkable: true, met: false, says: 'you hold 2 of the 3 more oak logs needed (5 now, 3 when the goal was set)' });
  });
  it('GIVEN collect 3 with 3 held at the start and 6 now THEN met', () => {
    const r = checkGoal('collect 3 oak logs', { oak_log: 3 }, snap({ inventory: { oak_log: 6 } }));
    expect(r.checkable && r.met).toBe(true);
  });
  it('GIVEN a null baseline THEN it counts from an empty inventory', () => {
    expect(checkGoal('chop 4 logs', null, snap({ inventory: { birch_log: 4 } }))).toMatchObject({ checkable: true, met: true });
    expect(checkGoal('chop 4 logs', null, snap({ inventory: { birch_log: 3 } }))).toMatchObject({ checkable: true, met: false });
  });
  it('GIVEN items were used up since the goal was set THEN the gain never shows negative', () => {
    const r = checkGoal('mine 5 stone', { cobblestone: 10 }, snap({ inventory: { cobblestone: 4 } }));
    expect(r).toMatchObject({ checkable: true, met: false });
    if (r.checkable) expect(r.says).toMatch(/^you hold 0 of the 5 more/);
  });
  it('GIVEN have 20 dirt with 20 held THEN met regardless of the baseline', () => {
    expect(checkGoal('have 20 dirt', { dirt: 20 }, snap({ inventory: { dirt: 20 } }))).toMatchObject({ checkable: true, met: true });
  });
  it('GIVEN get 30 logs with 12 held THEN not met and says 12 of 30', () => {
    const r = checkGoal('get 30 logs', null, snap({ inventory: { oak_log: 12 } }));
    expect(r).toEqual({ checkable: true, met: false, says: 'you hold 12 of the 30 logs needed' });
  });
  it('GIVEN go to a place 14 blocks away THEN not met and says the distance', () => {
    const r = checkGoal('go to 10 64 -20', null, snap({ position: { x: 10, y: 64, z: -6 } }));
    expect(r).toEqual({ checkable: true, met: false, says: 'you are 14 blocks from 10 64 -20' });
  });
  it('GIVEN go to a place 1.5 blocks away THEN met', () => {
    expect(checkGoal('go to 10 64 -20', null, snap({ position: { x: 11.5, y: 64, z: -20 } }))).toMatchObject({ checkable: true, met: true });
  });
  it('GIVEN craft a wooden pickaxe and one more is held THEN met', () => {
    expect(checkGoal('craft a wooden pickaxe', {}, snap({ inventory: { wooden_pickaxe: 1 } }))).toMatchObject({ met: true });
    expect(checkGoal('craft a wooden pickaxe', { wooden_pickaxe: 1 }, snap({ inventory: { wooden_pickaxe: 1 } }))).toMatchObject({ met: false });
  });
  it('GIVEN come to a player in sight THEN it checks the distance; out of sight THEN not checkable', () => {
    const alex = { name: 'Alex', kind: 'player' as const, distance: 2, position: { x: 2, y: 64, z: 0 } };
    expect(checkGoal('come to alex', null, snap({ nearbyEntities: [alex] }))).toMatchObject({ checkable: true, met: true });
    expect(checkGoal('come to alex', null, snap())).toEqual({ checkable: false });
  });
  it('GIVEN follow, say, explore, eat or an unknown goal THEN it is not checkable', () => {
    for (const g of ['follow alex', 'say hi', 'explore', 'eat something', 'build a castle']) {
      expect(checkGoal(g, null, snap())).toEqual({ checkable: false });
    }
  });
});

describe('the check reads numbers as the goal language does', () => {
  it('GIVEN "collect 1,000 oak logs" and one log gathered THEN the check says not met', () => {
    const r = checkGoal('collect 1,000 oak logs', {}, snap({ inventory: { oak_log: 1 } }));
    expect(r).toMatchObject({ checkable: true, met: false });
    expect(r.checkable && r.says).toMatch(/1 of the 1000 more oak logs/);
  });
  it('GIVEN "get 1 000 dirt" or "get 1k dirt" and 999 dirt THEN not met; 1000 THEN met', () => {
    for (const goal of ['get 1 000 dirt', 'get 1k dirt', 'get 1,000 dirt']) {
      expect(checkGoal(goal, null, snap({ inventory: { dirt: 999 } }))).toMatchObject({ checkable: true, met: false });
      expect(checkGoal(goal, null, snap({ inventory: { dirt: 1000 } }))).toMatchObject({ checkable: true, met: true });
    }
  });
});
