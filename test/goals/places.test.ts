/**
 * Places in the goal language and the completion check: "go to base" and "stay near the village" read against the
 * avatar's places, an unknown one refused naming the known ones, and Done only within 2 blocks of the place.
 */
import { describe, expect, it } from 'vitest';
import { checkGoal } from '../../src/goals/check.ts';
import { goalKey, impossibleGoal, parseGoal } from '../../src/goals/goal-language.ts';
import { noSuchPlace, placeList, placeNameProblem } from '../../src/goals/places.ts';
import { snapshotOf } from '../fakes/fake-game.ts';

const places = placeList([
  { name: 'base', x: 10, y: 64, z: -3, dimension: 'overworld' },
  { name: 'village', x: 200, y: 70, z: 40, dimension: 'overworld' },
  { name: 'fortress', x: 30, y: 70, z: 8, dimension: 'the_nether' },
]);

describe('places in the goal language', () => {
  it('GIVEN "go to base" and its wordings THEN each is a go-to of the base, keyed alike', () => {
    for (const goal of ['go to base', 'Goal: go to base', 'head back to the base', 'return to my base', 'please go to Base!', 'come back to base']) {
      expect(parseGoal(goal, places), goal).toEqual({ kind: 'go_to', x: 10, y: 64, z: -3, place: 'base' });
      expect(goalKey(goal, places), goal).toBe('go_to:base');
    }
  });

  it('GIVEN "stay near the village" THEN it is a go-to of the village that stays, and "stay near alex" still follows alex', () => {
    expect(parseGoal('stay near the village', places)).toEqual({ kind: 'go_to', x: 200, y: 70, z: 40, place: 'village', stay: true });
    expect(parseGoal('stay at base', places)).toMatchObject({ kind: 'go_to', place: 'base', stay: true });
    expect(goalKey('stay near the village', places)).toBe('stay:village');
    expect(parseGoal('stay near alex', places)).toEqual({ kind: 'follow', player: 'alex' });
    expect(parseGoal('come to alex', places)).toEqual({ kind: 'come_to', player: 'alex' });
  });

  it('GIVEN a place it does not know THEN the goal is refused as written, naming the places it knows', () => {
    expect(impossibleGoal('go to bse', places)).toBe("I know no place called 'bse'; my places: base, village, fortress");
    expect(parseGoal('Goal: go to bse', places)).toEqual({ kind: 'unknown', reason: "I know no place called 'bse'; my places: base, village, fortress", never: true });
    expect(impossibleGoal('stay near base', placeList([]))).toBe("I know no place called 'base'; I remember no places yet (/place set <name> remembers where I stand)");
  });

  it('GIVEN something the world has that it did not remember ("the river") THEN it is a goal the language does not know, not refused', () => {
    const river = parseGoal('go to the river', places);
    expect(river).toMatchObject({ kind: 'unknown', reason: "I know no place called 'river'; my places: base, village, fortress" });
    expect(impossibleGoal('go to the river', places)).toBeNull();
  });

  it('GIVEN no places at hand THEN goals read as before: coordinates only, nothing refused for a name', () => {
    expect(parseGoal('go to base')).toMatchObject({ kind: 'unknown' });
    expect(impossibleGoal('go to bse')).toBeNull();
    expect(parseGoal('go to 10 64 -20', places)).toEqual({ kind: 'go_to', x: 10, y: 64, z: -20 });
  });
});

describe('the completion check of a place', () => {
  it('GIVEN the avatar within 2 blocks of base THEN "go to base" is met, and 3 blocks away it is not', () => {
    const near = checkGoal('go to base', null, snapshotOf({ position: { x: 11.5, y: 64, z: -2.5 } }), places);
    expect(near).toMatchObject({ checkable: true, met: true });
    expect(near.checkable && near.says).toMatch(/^you are at base \(10 64 -3\) \(1\.6 blocks away\)$/);
    const far = checkGoal('go to base', null, snapshotOf({ position: { x: 13, y: 64, z: -3 } }), places);
    expect(far).toEqual({ checkable: true, met: false, says: 'you are 3 blocks from base (10 64 -3)' });
    expect(checkGoal('stay near the village', null, snapshotOf({ position: { x: 200, y: 70, z: 41 } }), places)).toMatchObject({ met: true });
  });

  it('GIVEN a place in the nether and the avatar in the overworld at its coordinates THEN it is not there', () => {
    expect(checkGoal('go to fortress', null, snapshotOf({ position: { x: 30, y: 70, z: 8 } }), places)).toEqual({
      checkable: true,
      met: false,
      says: 'you are in the overworld; fortress is in the nether',
    });
  });

  it('GIVEN no places at hand THEN "go to base" cannot be checked', () => {
    expect(checkGoal('go to base', null, snapshotOf())).toEqual({ checkable: false });
  });
});

describe('place names', () => {
  it('GIVEN names THEN lowercase words of letters, digits and dashes are good and the rest says why not', () => {
    for (const good of ['base', 'iron-mine', 'camp2', 'a1-b2']) expect(placeNameProblem(good), good).toBeNull();
    expect(placeNameProblem('my base')).toBe('a place name is one word: lowercase letters, digits and dashes (my-base, not "my base")');
    expect(placeNameProblem('base!')).toMatch(/^a place name is lowercase letters, digits and dashes/);
    expect(placeNameProblem('-base')).toMatch(/^a place name is lowercase letters/);
    expect(placeNameProblem('a--b')).toMatch(/^a place name is lowercase letters/);
    expect(placeNameProblem('42')).toMatch(/needs a letter/);
    expect(placeNameProblem('x'.repeat(25))).toBe('a place name is at most 24 characters');
    expect(placeNameProblem('the')).toMatch(/cannot be a place name/);
    expect(placeNameProblem('')).toBe('name the place, e.g. base');
  });

  it('GIVEN a very long unknown name THEN the refusal cuts it', () => {
    expect(noSuchPlace('y'.repeat(200), ['base'])).toBe(`I know no place called '${'y'.repeat(24)}…'; my places: base`);
  });
});
