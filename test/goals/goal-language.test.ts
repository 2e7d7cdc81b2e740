import { describe, expect, it } from 'vitest';
import { goalKey, impossibleGoal, MAX_COUNT, parseGoal, type GoalIntent } from '../../src/goals/goal-language.ts';

const understood: [string, GoalIntent][] = [
  ['collect 10 oak logs', { kind: 'collect', item: 'oak_log', count: 10, mode: 'more' }],
  ['Collect 30 oak logs', { kind: 'collect', item: 'oak_log', count: 30, mode: 'more' }],
  ['gather 5 wood', { kind: 'collect', item: 'log', count: 5, mode: 'more' }],
  ['chop 3 logs', { kind: 'collect', item: 'log', count: 3, mode: 'more' }],
  ['mine 5 stone', { kind: 'collect', item: 'cobblestone', count: 5, mode: 'more' }],
  ['dig 8 dirt', { kind: 'collect', item: 'dirt', count: 8, mode: 'more' }],
  ['get 5 stone', { kind: 'collect', item: 'cobblestone', count: 5, mode: 'have' }],
  ['have 20 dirt', { kind: 'collect', item: 'dirt', count: 20, mode: 'have' }],
  ['get 30 logs', { kind: 'collect', item: 'log', count: 30, mode: 'have' }],
  ['obtain 4 sand', { kind: 'collect', item: 'sand', count: 4, mode: 'have' }],
  ['collect three logs', { kind: 'collect', item: 'log', count: 3, mode: 'more' }],
  ['collect twenty-five birch logs', { kind: 'collect', item: 'birch_log', count: 25, mode: 'more' }],
  ['chop a log', { kind: 'collect', item: 'log', count: 1, mode: 'more' }],
  ['collect a dozen oak wood', { kind: 'collect', item: 'oak_log', count: 12, mode: 'more' }],
  ['Goal: mine 2 stacks of stone', { kind: 'collect', item: 'cobblestone', count: 128, mode: 'more' }],
  ['please go collect 5 sand', { kind: 'collect', item: 'sand', count: 5, mode: 'more' }],
  ['collect 10 more oak logs.', { kind: 'collect', item: 'oak_log', count: 10, mode: 'more' }],
  ['collect 10 oak planks', { kind: 'collect', item: 'oak_planks', count: 10, mode: 'more' }],
  ['get some wood', { kind: 'collect', item: 'log', count: 10, mode: 'have' }],
  ['go to 10 64 -20', { kind: 'go_to', x: 10, y: 64, z: -20 }],
  ['go to x=10 y=64 z=-20', { kind: 'go_to', x: 10, y: 64, z: -20 }],
  ['walk to 10, 64, -20', { kind: 'go_to', x: 10, y: 64, z: -20 }],
  ['head to (0, 70, 5)', { kind: 'go_to', x: 0, y: 70, z: 5 }],
  ['get to 1 2 3', { kind: 'go_to', x: 1, y: 2, z: 3 }],
  ['follow alex', { kind: 'follow', player: 'alex' }],
  ['Follow Steve_99 for a while', { kind: 'follow', player: 'Steve_99' }],
  ['stay with alex', { kind: 'follow', player: 'alex' }],
  ['follow the player spawn', { kind: 'follow', player: 'spawn' }],
  ['come to alex', { kind: 'come_to', player: 'alex' }],
  ['come here alex', { kind: 'come_to', player: 'alex' }],
  ['craft a wooden pickaxe', { kind: 'craft', item: 'wooden_pickaxe', count: 1 }],
  ['craft 4 sticks', { kind: 'craft', item: 'stick', count: 4 }],
  ['make a crafting table', { kind: 'craft', item: 'crafting_table', count: 1 }],
  ['craft 2 stone axes', { kind: 'craft', item: 'stone_axe', count: 2 }],
  ['make four torches', { kind: 'craft', item: 'torch', count: 4 }],
  ['smelt 3 iron', { kind: 'craft', item: 'iron_ingot', count: 3 }],
  ['smelt 2 iron ingots', { kind: 'craft', item: 'iron_ingot', count: 2 }],
  ['cook 2 beef', { kind: 'craft', item: 'cooked_beef', count: 2 }],
  ['cook the raw porkchop', { kind: 'craft', item: 'cooked_porkchop', count: 1 }],
  ['smelt 4 sand', { kind: 'craft', item: 'glass', count: 4 }],
  ['smelt some logs', { kind: 'craft', item: 'charcoal', count: 1 }],
  ['craft 3 iron ingots', { kind: 'craft', item: 'iron_ingot', count: 3 }],
  ['get 1 cooked beef', { kind: 'collect', item: 'cooked_beef', count: 1, mode: 'have' }],
  ['get 2 steaks', { kind: 'collect', item: 'cooked_beef', count: 2, mode: 'have' }],
  ['collect 3 raw beef', { kind: 'collect', item: 'beef', count: 3, mode: 'more' }],
  ['say hello', { kind: 'say', text: 'hello' }],
  ['say "hi all"', { kind: 'say', text: 'hi all' }],
  ['Say Good Morning, Village!', { kind: 'say', text: 'Good Morning, Village' }],
  ['explore', { kind: 'explore' }],
  ['explore the area', { kind: 'explore' }],
  ['wander around', { kind: 'explore' }],
  ['eat something', { kind: 'eat' }],
  ['eat', { kind: 'eat' }],
];

const refused: [string, RegExp][] = [
  ['build a castle', /can't build a castle/],
  ['defeat the ender dragon', /can't defeat the ender dragon/],
  ['fly to the moon', /can't fly to the moon/],
  ['collect -3 logs', /whole number from 1 to 2304/],
  ['collect 100000 logs', /more than a full inventory/],
  ['collect 0 logs', /whole number/],
  ['collect 2.5 logs', /whole number/],
  ['go to the village', /only go to coordinates/],
  ['go to 10 64', /all three coordinates/],
  ['go to x=10 z=5', /all three coordinates/],
  ['go to 10 999 5', /y must be between/],
  ['follow me', /which player/],
  ['stay near the village', /which player/],
  ['stay near spawn', /not places.*go to 100 64 -20/],
  ['follow river', /not places/],
  ['come here', /which player/],
  ['make a castle', /don't know a recipe/],
  ['smelt 3 dirt', /cannot be smelted/],
  ['say', /say what/],
  ['collect', /collect what/],
  ['', /no goal/],
  ['collect 10 oak logs and then craft planks', /one goal at a time/],
  ['dance', /can't dance/],
  ['collect 5 $$$', /can't collect/],
  ['get 1 air', /air is not something anyone can hold/],
  ['collect 3 cave air', /air is not something anyone can hold/],
  ['get 2 water', /only be carried in a bucket/],
  ['mine 3 bedrock', /bedrock cannot be mined or picked up in survival/],
  ['get a nether portal', /portal cannot be picked up/],
];

describe('parseGoal', () => {
  for (const [text, intent] of understood) {
    it(`GIVEN "${text}" THEN it parses to ${intent.kind}`, () => {
      expect(parseGoal(text)).toEqual(intent);
    });
  }
  for (const [text, reason] of refused) {
    it(`GIVEN "${text}" THEN it is refused with a reason`, () => {
      const intent = parseGoal(text);
      expect(intent.kind).toBe('unknown');
      if (intent.kind === 'unknown') expect(intent.reason).toMatch(reason);
    });
  }
  it('GIVEN a refusal of an unknown verb THEN the reason lists what the language knows', () => {
    const intent = parseGoal('build a castle');
    expect(intent.kind === 'unknown' && intent.reason).toMatch(/collect.*go to.*follow.*craft.*say.*explore/);
  });
  it('GIVEN the largest allowed count THEN it is accepted', () => {
    expect(parseGoal(`collect ${MAX_COUNT} dirt`)).toMatchObject({ kind: 'collect', count: MAX_COUNT });
  });
});

describe('items Minecraft does not have', () => {
  it('GIVEN an item no version of Minecraft has THEN the goal can never be done, and the reason names the nearest items', () => {
    expect(impossibleGoal('collect 3 unobtanium')).toMatch(/^Minecraft has no item called "unobtanium"; the nearest I know are [a-z ]+, [a-z ]+, [a-z ]+$/);
    expect(impossibleGoal('collect 3 diamnods')).toMatch(/^Minecraft has no item called "diamnods"; the nearest I know are diamond, /);
    expect(impossibleGoal('get 2 wood pickaxes please')).toBeNull();
    expect(impossibleGoal('craft 2 obsidain swords')).toMatch(/no item called "obsidain swords"; the nearest I know are/);
    expect(impossibleGoal('smelt 3 unobtanium')).toMatch(/no item called "unobtanium"/);
    expect(impossibleGoal('get a dozen unobtanium')).toMatch(/no item called "unobtanium"/);
    expect(impossibleGoal('get 1 air')).toBe('air is not something anyone can hold');
  });

  it('GIVEN the names, groups, kinds, plurals and synonyms the language reads THEN each is an item, as before', () => {
    const goals = [
      'collect 10 oak logs', 'get 30 logs', 'gather wood', 'chop 3 trees', 'mine 5 stone', 'collect 5 cobblestone', 'get 8 planks',
      'get 3 spruce planks', 'collect leaves', 'get 3 wool', 'get 3 white wool', 'get 5 food', 'get 2 cooked beef', 'get 2 steaks',
      'collect 3 raw beef', 'get 2 raw porkchops', 'get a pickaxe', 'get an iron pick', 'get 2 ingots', 'get a bed', 'get 2 boats',
      'collect 3 seeds', 'get 3 berries', 'get 3 lapis', 'get 2 redstone dust', 'collect 5 grass', 'collect 5 short grass',
      'get 3 bookshelves', 'get 2 rabbit feet', 'craft a wooden pickaxe', 'craft 4 oak planks', 'make four torches', 'smelt 3 iron',
      'cook 2 beef', 'get 4 iron ingots', 'collect 12 diamonds', 'get 3 cherry logs', 'get a crafting table', 'get 2 workbenches',
    ];
    for (const goal of goals) expect(parseGoal(goal).kind, goal).toMatch(/^(collect|craft)$/);
  });

  it('GIVEN no number, a place, a mob, a search or more said about the item THEN it is not refused up front: another engine may do it', () => {
    const tasks = ['dig a moat', 'get some sleep', 'find a village', 'find 3 strongholds', 'get 3 cows', 'collect 3 villagers', 'get 2 houses', 'collect 3 logs near spawn', 'get 3 emeralds from villagers', 'make a shelter'];
    for (const goal of tasks) {
      const intent = parseGoal(goal);
      expect([goal, intent.kind, impossibleGoal(goal)]).toEqual([goal, 'unknown', null]);
    }
  });
});

describe('numbers in goals are read one way, or refused, never shortened', () => {
  const read: [string, number][] = [
    ['collect 1,000 oak logs', 1000],
    ['collect 1 000 oak logs', 1000],
    ['collect 1\u00a0000 oak logs', 1000],
    ['collect 1\u202f000 oak logs', 1000],
    ['collect 1k oak logs', 1000],
    ['collect 1K oak logs', 1000],
    ['collect 1.5k oak logs', 1500],
    ['collect 2,304 dirt', 2304],
    ['get 2.0 dirt', 2],
    ['collect 3x oak logs', 3],
  ];
  for (const [text, count] of read) {
    it(`GIVEN "${text}" THEN the count is ${count}`, () => {
      expect(parseGoal(text)).toMatchObject({ kind: 'collect', count });
    });
  }
  const refusedNumbers: [string, RegExp][] = [
    ['collect 1.000 oak logs', /"1\.000" could be a thousand-something or a fraction/],
    ['collect 1,5 oak logs', /whole number/],
    ['collect 10k oak logs', /10000 is more than a full inventory/],
    ['collect 1,000,000 dirt', /more than a full inventory/],
    ['collect 1,0000 dirt', /could be a thousand-something/],
    ['go to x=1,000 y=64 z=5', /all three coordinates/],
    ['go to x=1 000 y=64 z=5', /all three coordinates/],
    ['go to 1,000 64 5', /all three coordinates/],
    ['go to 1k 64 5', /only go to coordinates/],
  ];
  for (const [text, reason] of refusedNumbers) {
    it(`GIVEN "${text}" THEN it is refused with a reason`, () => {
      const intent = parseGoal(text);
      expect(intent.kind).toBe('unknown');
      if (intent.kind === 'unknown') expect(intent.reason).toMatch(reason);
    });
  }
});

describe('goalKey', () => {
  it('GIVEN two wordings of the same collect goal THEN they share a key', () => {
    expect(goalKey('collect 6 oak logs')).toBe(goalKey('chop 16 oak logs'));
    expect(goalKey('mine 16 stone')).toBe('collect:cobblestone');
  });
  it('GIVEN different goals THEN their keys differ', () => {
    expect(goalKey('explore')).not.toBe(goalKey('collect 3 logs'));
  });
});
