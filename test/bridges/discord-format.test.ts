import { describe, expect, it } from 'vitest';
import {
  allowedMentions,
  avatarFromPrefix,
  channelOf,
  discordUserOf,
  mentionsUser,
  nonceFor,
  parseTextCommand,
  stripLeadingMention,
} from '../../bridges/discord/format.ts';

describe('Discord format helpers', () => {
  it('GIVEN destinations and identities THEN only Discord ones give ids', () => {
    expect(channelOf('discord:123')).toBe('123');
    expect(channelOf('telegram:123')).toBeNull();
    expect(discordUserOf('discord:42')).toBe('42');
    expect(discordUserOf('telegram:42')).toBeNull();
    expect(discordUserOf(null)).toBeNull();
  });

  it('GIVEN a ping or none THEN allowed_mentions parses nothing and lists at most that user', () => {
    expect(allowedMentions(null)).toEqual({ parse: [], users: [], replied_user: false });
    expect(allowedMentions('42')).toEqual({ parse: [], users: ['42'], replied_user: false });
  });

  it('GIVEN a post THEN its nonces are stable per part, ≤ 25 characters, and differ between posts and parts', () => {
    const post = { id: 'p000001', createdAt: '2026-12-01T08:00:00.000Z' };
    expect(nonceFor(post, 0)).toBe(nonceFor({ ...post }, 0));
    expect(nonceFor(post, 0)).not.toBe(nonceFor(post, 1));
    expect(nonceFor(post, 0)).not.toBe(nonceFor({ ...post, createdAt: '2026-12-01T08:00:00.001Z' }, 0));
    expect(nonceFor(post, 0).length).toBeLessThanOrEqual(25);
  });

  it('GIVEN message text THEN prefixes, mentions and typed commands are read', () => {
    expect(avatarFromPrefix('[steve] Done: get logs')).toBe('steve');
    expect(avatarFromPrefix('steve: hi')).toBeNull();
    expect(mentionsUser('hey <@!99> you', '99')).toBe(true);
    expect(mentionsUser('hey <@990>', '99')).toBe(false);
    expect(stripLeadingMention('<@99>, steve: Goal: dig', '99')).toBe('steve: Goal: dig');
    expect(parseTextCommand('/Goal get 30 logs')).toEqual({ name: 'goal', argsText: 'get 30 logs' });
    expect(parseTextCommand('/status')).toEqual({ name: 'status', argsText: '' });
    expect(parseTextCommand('a /status')).toBeNull();
    expect(parseTextCommand('/ status')).toBeNull();
  });
});
