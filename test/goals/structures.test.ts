/**
 * Goals about blocks standing in the world (src/goals/structures.ts): how "build a pillar of 3 dirt" is read,
 * and how the completion check judges it against the snapshot's free-standing columns.
 */
import { describe, expect, it } from 'vitest';
import { checkGoal } from '../../src/goals/check.ts';
import { parseGoal } from '../../src/goals/goal-language.ts';
import { checkColumnGoal, readColumnGoal } from '../../src/goals/structures.ts';
import { snapshotOf } from '../fakes/fake-game.ts';

describe('column goals', () => {
  it.each([
    ['build a pillar of 3 dirt', { block: 'dirt', count: 3, at: null }],
    ['Build a pillar of 3 dirt.', { block: 'dirt', count: 3, at: null }],
    ['make a tower of twelve oak planks', { block: 'oak_planks', count: 12, at: null }],
    ['a column of 4 cobblestone at 10 64 -5', { block: 'cobblestone', count: 4, at: { x: 10, y: 64, z: -5 } }],
    ['stack a pillar of 3 blocks of dirt', { block: 'dirt', count: 3, at: null }],
  ])('GIVEN %j THEN it is read as a column goal', (text, goal) => {
    expect(readColumnGoal(text)).toEqual(goal);
  });

  it.each(['build a pillar of 1 dirt', 'build a pillar of 13 dirt', 'build a pillar of 3 unobtanium', 'build a pillar of dirt', 'build a castle', 'collect 3 dirt'])(
    'GIVEN %j THEN it is no column goal the check can see (and not checkable as one)',
    (text) => {
      expect(readColumnGoal(text)).toBeNull();
      expect(checkColumnGoal(text, snapshotOf({ columns: [] }))).toEqual({ checkable: false });
    },
  );

  it('GIVEN "build a pillar of 3 dirt" THEN the scripted engine does not know it, and the completion check judges it by the columns near', () => {
    expect(parseGoal('build a pillar of 3 dirt').kind).toBe('unknown');
    const goal = 'build a pillar of 3 dirt';
    expect(checkGoal(goal, {}, snapshotOf())).toEqual({ checkable: false });
    expect(checkGoal(goal, {}, snapshotOf({ columns: [] }))).toEqual({
      checkable: true,
      met: false,
      says: 'no free-standing column of dirt stands within 6 blocks of you (3 high needed, nothing solid beside it)',
    });
    const columns = [
      { block: 'oak_log', height: 5, x: 1, y: 64, z: 1 },
      { block: 'dirt', height: 2, x: 3, y: 64, z: 0 },
    ];
    expect(checkGoal(goal, {}, snapshotOf({ columns }))).toMatchObject({ met: false, says: 'the tallest free-standing column of dirt within 6 blocks of you is 2 high (3 needed)' });
    expect(checkGoal(goal, {}, snapshotOf({ columns: [...columns, { block: 'dirt', height: 4, x: -2, y: 63, z: 5 }] }))).toEqual({
      checkable: true,
      met: true,
      says: 'a pillar of 4 dirt stands at -2 63 5 (3 needed)',
    });
  });

  it('GIVEN a column goal at a place THEN only a column whose lowest block is there counts', () => {
    const snap = snapshotOf({ columns: [{ block: 'cobblestone', height: 4, x: 10, y: 64, z: -5 }] });
    expect(checkColumnGoal('a column of 4 cobblestone at 10 64 -5', snap)).toMatchObject({ met: true });
    expect(checkColumnGoal('a column of 4 cobblestone at 10 65 -5', snap)).toMatchObject({ met: false, says: 'no free-standing column of cobblestone stands at 10 65 -5 (4 high needed, nothing solid beside it)' });
  });
});
