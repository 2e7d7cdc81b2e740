import { describe, expect, it } from 'vitest';
import { deathCause } from '../../src/game/death-watch.ts';

describe('what killed an avatar, from the death message', () => {
  it('GIVEN vanilla death messages THEN the player and a leading "was" are left out', () => {
    expect(deathCause('demo was slain by Zombie', 'demo')).toBe('slain by Zombie');
    expect(deathCause('demo was killed', 'demo')).toBe('killed');
    expect(deathCause('demo starved to death', 'demo')).toBe('starved to death');
    expect(deathCause('Demo hit the ground too hard.', 'demo')).toBe('hit the ground too hard');
  });

  it('GIVEN a message that does not begin with the player, or a long or odd one THEN it is kept, on one line, at most 80 characters', () => {
    expect(deathCause('A creeper blew up', 'demo')).toBe('A creeper blew up');
    expect(deathCause('demo was slain by\nBob\u0007', 'demo')).not.toMatch(/[\n\u0007]/);
    const long = deathCause(`demo was slain by ${'x'.repeat(200)}`, 'demo');
    expect(long.length).toBe(80);
    expect(long.endsWith('…')).toBe(true);
    expect(deathCause('  ', 'demo')).toBe('cause unknown');
  });
});
