import { describe, expect, it } from 'vitest';
import { toolSchemas } from '../../src/engines/llm/tools.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { FakeGame } from '../fakes/fake-game.ts';

describe('the llm engine tools over the production skills', () => {
  it('GIVEN the skill registry THEN the tools include smelt and fight (hunting a named animal) and look, and not the reflex-only shelter', () => {
    const names = toolSchemas(createSkillRegistry(new FakeGame())).map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(['smelt', 'fight', 'craft', 'collect', 'look']));
    expect(names).not.toContain('shelter');
    const fight = toolSchemas(createSkillRegistry(new FakeGame())).find((t) => t.function.name === 'fight');
    expect(JSON.stringify(fight)).toMatch(/cow/);
  });
});
