import { describe, expect, it } from 'vitest';
import { serverLine, systemPrompt } from '../../src/engines/llm/prompts.ts';
import { EMBEDDED, VANILLA } from './avatar-game-stub.ts';

describe('the llm system prompt and the server', () => {
  it("GIVEN a vanilla server THEN the prompt says mobs spawn; GIVEN the embedded world THEN it says there are none", () => {
    expect(serverLine(VANILLA)).toBe('This server: crafting works; food drains (eat when hungry); hostile mobs spawn at night and in the dark (carry a sword, keep away at low health).');
    expect(serverLine(EMBEDDED)).toBe('This server: crafting works; food drains (eat when hungry); no mobs.');
    expect(systemPrompt('bob', 8, VANILLA).split('\n')[1]).toBe(serverLine(VANILLA));
  });
});
