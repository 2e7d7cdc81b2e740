import { describe, expect, it } from 'vitest';
import type { ChatContext } from '../src/chat.ts';
import { privateChatOf } from '../src/private-reply.ts';

const chat = (over: Partial<ChatContext>): ChatContext => ({ platform: 'telegram', from: 'telegram:42', fromName: 'Ada', dest: 'telegram:42', chatKind: 'private', messageId: null, ...over });

describe('where an answer for one person alone goes', () => {
  it('GIVEN a private chat or the console THEN it is answered there', () => {
    expect(privateChatOf(chat({}))).toBe('telegram:42');
    expect(privateChatOf(chat({ platform: 'discord', from: 'discord:80351110224678912', dest: 'discord:99', chatKind: 'private' }))).toBe('discord:99');
    expect(privateChatOf(chat({ platform: 'console', from: 'console:local', dest: 'console', chatKind: 'console' }))).toBe('console');
  });

  it('GIVEN a Telegram group THEN it goes to the sender’s private chat with the bot; GIVEN a Discord channel THEN there is none to reach', () => {
    expect(privateChatOf(chat({ dest: 'telegram:-100500', chatKind: 'group' }))).toBe('telegram:42');
    expect(privateChatOf(chat({ platform: 'discord', from: 'discord:80351110224678912', dest: 'discord:1234', chatKind: 'group', guild: 'g' }))).toBeNull();
  });
});
