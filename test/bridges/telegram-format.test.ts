import { describe, expect, it } from 'vitest';
import {
  avatarFromPrefix,
  destinationOf,
  escapeHtml,
  isPrivateChatId,
  mentionHtml,
  parseCommand,
  parseDestination,
  stripLeadingMention,
} from '../../bridges/telegram/format.ts';
import { renderTelegramHtml } from '../fakes/telegram-api.ts';

const cmd = (text: string): { type: 'bot_command'; offset: number; length: number }[] => {
  const m = /^\/\S+/.exec(text);
  return m ? [{ type: 'bot_command', offset: 0, length: m[0].length }] : [];
};

describe('Telegram format helpers', () => {
  it('GIVEN markup, entities and quotes THEN escapeHtml makes Telegram show them as typed', () => {
    const text = '<b>x</b> & &amp; "q" <a href="tg://user?id=1">y</a>';
    const rendered = renderTelegramHtml(escapeHtml(text));
    expect(rendered).toEqual({ plain: text, mentions: [] });
  });

  it('GIVEN a name with markup THEN mentionHtml escapes it and mentions only that id', () => {
    expect(mentionHtml('42', 'Ann <3')).toBe('<a href="tg://user?id=42">Ann &lt;3</a>');
    expect(renderTelegramHtml(mentionHtml('42', 'Ann <3 & co'))).toEqual({ plain: 'Ann <3 & co', mentions: [42] });
  });

  it('GIVEN destinations THEN they parse to chat and topic, and back', () => {
    expect(parseDestination('telegram:-100123:7')).toEqual({ chatId: -100123, threadId: 7 });
    expect(parseDestination('telegram:55')).toEqual({ chatId: 55, threadId: undefined });
    expect(parseDestination('discord:55')).toBeNull();
    expect(destinationOf(-5)).toBe('telegram:-5');
    expect(destinationOf(-5, 3)).toBe('telegram:-5:3');
    expect(isPrivateChatId(55)).toBe(true);
    expect(isPrivateChatId(-55)).toBe(false);
  });

  it('GIVEN commands with and without a bot name THEN parseCommand says whose they are', () => {
    const p = (t: string) => parseCommand(t, cmd(t), 'MyBot');
    expect(p('/goal@mybot get 30 logs')).toEqual({ name: 'goal', argsText: 'get 30 logs', forThisBot: true });
    expect(p('/Goal get 30 logs')).toEqual({ name: 'goal', argsText: 'get 30 logs', forThisBot: true });
    expect(p('/goal@otherbot get 30 logs')?.forThisBot).toBe(false);
    expect(p('/status')).toEqual({ name: 'status', argsText: '', forThisBot: true });
    expect(parseCommand('hello /goal', [{ type: 'bot_command', offset: 6, length: 5 }], 'mybot')).toBeNull();
    expect(parseCommand('/goal x', undefined, 'mybot')).toBeNull();
  });

  it('GIVEN a bot post THEN avatarFromPrefix reads its avatar', () => {
    expect(avatarFromPrefix('[steve] Done: x')).toBe('steve');
    expect(avatarFromPrefix('[mindlink] Avatars: …')).toBe('mindlink');
    expect(avatarFromPrefix('steve: hi')).toBeNull();
    expect(avatarFromPrefix(undefined)).toBeNull();
  });

  it('GIVEN a leading mention of the bot THEN only that mention is removed', () => {
    expect(stripLeadingMention('@MyBot steve: Goal: x', 'mybot')).toBe('steve: Goal: x');
    expect(stripLeadingMention('@mybot, where are you?', 'mybot')).toBe('where are you?');
    expect(stripLeadingMention('@mybot_fan hi', 'mybot')).toBe('@mybot_fan hi');
    expect(stripLeadingMention('hi @mybot', 'mybot')).toBe('hi @mybot');
  });
});
