import { describe, expect, it } from 'vitest';
import { serverLine, systemPrompt } from '../../src/engines/llm/prompts.ts';
import { EMBEDDED, VANILLA } from './avatar-game-stub.ts';

describe('the llm system prompt and the server', () => {
  it("GIVEN a vanilla server or the embedded world THEN the prompt says mobs spawn; GIVEN a server without mobs THEN it says there are none", () => {
    expect(serverLine(VANILLA)).toBe('This server: crafting works; food drains (eat when hungry); monsters spawn at night and in the dark (carry a sword, flee at low health).');
    expect(serverLine(EMBEDDED)).toBe(serverLine(VANILLA));
    expect(serverLine({ ...EMBEDDED, mobs: false })).toBe('This server: crafting works; food drains (eat when hungry); no mobs.');
    expect(systemPrompt('bob', 8, VANILLA).split('\n')[1]).toBe(serverLine(VANILLA));
  });
});
