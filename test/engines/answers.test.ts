import { describe, expect, it } from 'vitest';
import { answerQuestion, dayPhase, shortInventory } from '../../src/engines/answers.ts';
import type { GoalView } from '../../src/engines/engine.ts';
import { makeSnapshot } from './avatar-game-stub.ts';

const snap = makeSnapshot({
  position: { x: 10.5, y: 64, z: -19.2 },
  health: 18,
  food: 11,
  xp: { level: 2, points: 5 },
  inventory: { oak_log: 5, birch_log: 2, dirt: 12, wooden_pickaxe: 1 },
  timeOfDay: 15000,
  nearbyBlocks: { oak_log: 4, water: 9 },
  nearbyEntities: [
    { name: 'alex', kind: 'player', distance: 6, position: { x: 0, y: 64, z: 0 } },
    { name: 'zombie', kind: 'hostile', distance: 12, position: { x: 0, y: 64, z: 0 } },
  ],
});
const ownerGoal: GoalView = { text: 'collect 10 oak logs', setBy: 'owner', baseline: null };
const selfGoal: GoalView = { text: 'explore', setBy: 'self', baseline: null };

const cases: [string, RegExp][] = [
  ['how many oak logs do you have?', /^I have 5 oak logs\.$/],
  ['How many logs do you have?', /^I have 7 logs \(5 oak logs, 2 birch logs\)\.$/],
  ['how much dirt do you have?', /^I have 12 dirt\.$/],
  ['how many birch logs have you got?', /^I have 2 birch logs\.$/],
  ['do you have any sand?', /^I have no sand\.$/],
  ['do you have a pickaxe?', /^I have 1 pickaxe/],
  ['how many wooden pickaxes do you have', /^I have 1 wooden pickaxe\.$/],
  ['how many sticks do you have?', /^I have no sticks\.$/],
  ['what do you have?', /^I'm carrying 12 dirt, 5 oak logs, 2 birch logs, 1 wooden pickaxe\.$/],
  ["what's in your inventory?", /^I'm carrying 12 dirt/],
  ['inventory?', /^I'm carrying/],
  ['what are you carrying?', /^I'm carrying/],
  ['where are you?', /^I'm at 10 64 -20 in the overworld\.$/],
  ['Where r u?', /^I'm at 10 64 -20/],
  ['what are your coordinates?', /^I'm at 10 64 -20/],
  ['what are you doing?', /^I'm working on: collect 10 oak logs \(set by my owner\)\.$/],
  ["what's your goal?", /collect 10 oak logs/],
  ['what are you up to?', /collect 10 oak logs/],
  ['how is your health?', /^Health 18\/20, food 11\/20\.$/],
  ['how much health do you have?', /^Health 18\/20/],
  ['how are you?', /^Health 18\/20/],
  ['are you ok?', /^Health 18\/20/],
  ['are you hungry?', /^Food 11\/20: I'm hungry\.$/],
  ['what time is it?', /^It's night in the game \(tick 15000 of 24000\)\.$/],
  ['is it day or night?', /night/],
  ['who set your goal?', /^My owner set it: collect 10 oak logs\.$/],
  ['what level are you?', /^I'm level 2 \(5 XP points\)\.$/],
  ['who is near you?', /^Near me: alex \(6 blocks\)\.$/],
  ['any players around?', /alex/],
  ['what can you see?', /oak log 4 blocks away.*zombie/],
  ['any monsters around?', /^Hostile near me: zombie \(12 blocks\)\.$/],
  ['why is the sky blue?', /^I can't tell that from here; /],
  ["what's the weather like?", /^I can't tell that from here; /],
  ['how many do you have?', /^I can't tell that from here; /],
  ['what is the meaning of life?', /^I can't tell that from here; /],
];

describe('answerQuestion', () => {
  for (const [q, expected] of cases) {
    it(`GIVEN "${q}" THEN the answer matches ${expected}`, () => {
      expect(answerQuestion(q, snap, ownerGoal, 'working')).toMatch(expected);
    });
  }

  it('GIVEN meat, fish and materials held or not THEN counts name them without a plural -s', () => {
    const pantry = makeSnapshot({ inventory: { beef: 2, cooked_chicken: 3, salmon: 2, cobblestone: 4, white_wool: 2 } });
    expect(answerQuestion('how many beef do you have?', pantry, null)).toBe('I have 2 beef.');
    expect(answerQuestion('how many beefs do you have?', pantry, null)).toBe('I have 2 beef.');
    expect(answerQuestion('do you have any mutton?', pantry, null)).toBe('I have no mutton.');
    expect(answerQuestion('how many cooked beef do you have?', pantry, null)).toBe('I have no cooked beef.');
    expect(answerQuestion('what do you have?', pantry, null)).toBe("I'm carrying 4 cobblestone, 3 cooked chicken, 2 beef, 2 salmon, 2 white wool.");
  });

  it('GIVEN no snapshot THEN it says it is not in the game right now', () => {
    expect(answerQuestion('where are you?', undefined, ownerGoal)).toMatch(/not in the game right now/);
    expect(answerQuestion('how many logs do you have?', undefined, null)).toMatch(/not in the game right now/);
  });

  it('GIVEN no snapshot THEN questions about the goal are still answered', () => {
    expect(answerQuestion('what are you doing?', undefined, ownerGoal)).toMatch(/collect 10 oak logs/);
  });

  it('GIVEN a self-chosen goal THEN "who set your goal?" says it chose it itself', () => {
    expect(answerQuestion('who set your goal?', snap, selfGoal)).toBe('I chose it myself: explore.');
  });

  it('GIVEN no goal while choosing THEN it says it is choosing', () => {
    expect(answerQuestion('what are you doing?', snap, null, 'choosing')).toBe("I'm choosing my next goal.");
  });

  it('GIVEN an empty inventory THEN it says so', () => {
    expect(answerQuestion('what do you have?', makeSnapshot(), null)).toBe('My inventory is empty.');
  });

  it('GIVEN the nether THEN where-are-you names it', () => {
    expect(answerQuestion('where are you?', makeSnapshot({ dimension: 'minecraft:the_nether' }), null)).toBe("I'm at 0 64 0 in the nether.");
  });

  it('GIVEN ticks THEN day phases are right', () => {
    expect([0, 6000, 12500, 18000, 23500].map(dayPhase)).toEqual(['morning', 'day', 'evening', 'night', 'dawn']);
  });

  it('GIVEN a large inventory THEN the short inventory lists the biggest stacks and counts the rest', () => {
    const inv = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`item_${i}`, i + 1]));
    expect(shortInventory(inv)).toMatch(/^10 item 9s, 9 item 8s, .* and 2 more kinds$/);
  });
});
