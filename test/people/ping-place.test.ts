import { describe, expect, it } from 'vitest';
import { keyed } from '../../src/keyed.ts';
import { pingPlace, schedulePingPlace } from '../../src/people/ping-place.ts';
import type { Link, StateFile } from '../../src/store/store.ts';

const link = (dest: string, mode: Link['mode'] = 'control', extra: Partial<Link> = {}): Link => ({ avatar: 'steve', dest, mode, createdAt: '2026-12-01T00:00:00Z', ...extra });

function state(links: Link[]): StateFile {
  return {
    version: 1,
    avatars: [],
    persons: [
      { id: 'alice', name: 'alice', identities: ['telegram:42', 'discord:80351110224678912'], admin: false },
      { id: 'console', name: 'console', identities: ['console:local'], admin: true },
    ],
    links,
    servers: [],
    shares: [],
    streams: [],
    readMarks: keyed<string>(),
    mcpTokens: [],
    relays: [],
    sayCommands: [],
    places: [],
    handled: [],
  };
}

describe('where a Done pings its setter', () => {
  const s = state([link('console'), link('telegram:-100', 'watch'), link('telegram:-200'), link('telegram:42'), link('discord:1'), link('discord:2', 'control', { dmWith: 'discord:80351110224678912' })]);

  it('GIVEN a goal set in a linked chat THEN it pings there', () => {
    expect(pingPlace(s, 'steve', 'alice', 'telegram:-100')).toBe('telegram:-100');
    expect(pingPlace(s, 'steve', 'alice', 'discord:1')).toBe('discord:1');
  });

  it('GIVEN a goal set in a chat that is not linked THEN it pings in the setter\'s DM on that platform', () => {
    expect(pingPlace(s, 'steve', 'alice', 'telegram:-999')).toBe('telegram:42');
    expect(pingPlace(s, 'steve', 'alice', 'discord:999')).toBe('discord:2');
  });

  it('GIVEN no DM linked THEN the first control link on that platform; a watch link is never picked for that', () => {
    const noDm = state([link('telegram:-100', 'watch'), link('telegram:-200'), link('telegram:-300')]);
    expect(pingPlace(noDm, 'steve', 'alice', 'telegram:-999')).toBe('telegram:-200');
    expect(schedulePingPlace(noDm, 'steve', 'alice', 'telegram:-300')).toBe('telegram:-200');
  });

  it('GIVEN a schedule made in a linked group THEN its Done pings in the creator\'s DM, not the group', () => {
    expect(schedulePingPlace(s, 'steve', 'alice', 'telegram:-200')).toBe('telegram:42');
    expect(schedulePingPlace(s, 'steve', 'alice', 'discord:1')).toBe('discord:2');
  });

  it('GIVEN the console, or a person with no identity on any linked platform THEN nobody is pinged', () => {
    expect(pingPlace(s, 'steve', 'console', 'console')).toBeNull();
    expect(schedulePingPlace(s, 'steve', 'console', 'console')).toBeUndefined();
    expect(pingPlace(s, 'steve', 'nobody', 'telegram:-100')).toBeNull();
  });
});
