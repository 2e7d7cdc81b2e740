import { describe, expect, it } from 'vitest';
import { avatarRemove } from '../commands/avatar-remove.ts';
import { commandLine } from '../commands/parse.ts';

describe('a command written as its reader would send it', () => {
  it('GIVEN Discord THEN options read as its slash commands show them; GIVEN another platform THEN as positional words', () => {
    expect(commandLine('discord', avatarRemove, { name: 'bob', confirm: 'bob' })).toBe('/avatar remove name:bob confirm:bob');
    expect(commandLine('console', avatarRemove, { name: 'bob', confirm: 'bob' })).toBe('/avatar remove bob bob');
    expect(commandLine('telegram', avatarRemove, { confirm: 'bob', name: 'bob' })).toBe('/avatar remove bob bob');
  });
});
