/** Which kept skills fit a goal (src/learned/relevance.ts). */
import { describe, expect, it } from 'vitest';
import type { KeptSkill } from '../../src/learned/manifest.ts';
import { rankSkills, words } from '../../src/learned/relevance.ts';

function skill(name: string, description: string, goal = '', runs = 1, successes = 1): KeptSkill {
  return { version: 1, name, description, params: { type: 'object', properties: {}, required: [] }, goal, postcondition: null, createdAt: '', runs, successes, lastRunAt: null, lastError: null };
}

const kept = [
  skill('chop_oak_logs', 'Chop oak logs from the nearest trees', 'collect 3 oak logs'),
  skill('birch_planks', 'Turn birch logs into planks', 'craft 4 birch planks'),
  skill('mine_stone', 'Dig stone with a pickaxe', 'collect 8 cobblestone'),
  skill('night_shelter', 'Build a dirt hut before night falls', 'survive the night'),
  skill('oak_planks', 'Craft oak planks from oak logs', 'craft 4 oak planks', 4, 1),
  skill('oak_planks_fast', 'Craft oak planks from oak logs', 'craft 4 oak planks', 4, 4),
];

describe('which kept skills fit a goal', () => {
  it('GIVEN a text THEN its words are lower case, split at _ and spaces, without plurals, numbers and stop words', () => {
    expect(words('Collect 3 oak_logs for the NIGHT')).toEqual(['collect', 'oak', 'log', 'night']);
  });

  it('GIVEN goals THEN the skills sharing their rarer words come first, a better record wins a tie, and one sharing nothing is not offered', () => {
    expect(rankSkills('collect 10 oak logs', kept, 2).map((s) => s.name)).toEqual(['chop_oak_logs', 'oak_planks_fast']);
    expect(rankSkills('craft 8 oak planks', kept, 3).map((s) => s.name)).toEqual(['oak_planks_fast', 'oak_planks', 'birch_planks']);
    expect(rankSkills('hide for the night', kept, 3).map((s) => s.name)).toEqual(['night_shelter']);
    expect(rankSkills('go to 10 64 10', kept, 3)).toEqual([]);
    expect(rankSkills('collect oak logs', kept, 0)).toEqual([]);
    expect(rankSkills('collect oak logs', [], 3)).toEqual([]);
  });
});
