/**
 * Who wrote to the Telegram bridge, where, and what it was: the chat context of a person's message, and
 * the kinds of messages mindlink does not read (named in the reply that says so).
 */
import type { Message } from 'grammy/types';
import type { ChatContext } from '../../src/chat.ts';
import type { Identity } from '../../src/store/schema.ts';
import { destinationOf } from './format.ts';

/** Messages that are not text, as the reply names them. Service messages (members joined, pins …) get no reply. */
export const UNREAD_KINDS: readonly (readonly [string, string])[] = [
  ['sticker', 'a sticker'],
  ['photo', 'a photo'],
  ['animation', 'a GIF'],
  ['video', 'a video'],
  ['video_note', 'a video message'],
  ['voice', 'a voice message'],
  ['audio', 'an audio file'],
  ['document', 'a file'],
  ['location', 'a location'],
  ['venue', 'a location'],
  ['contact', 'a contact'],
  ['poll', 'a poll'],
  ['dice', 'a dice roll'],
];

/**
 * The chat context of a message from a person, or undefined for what is not people talking to
 * their avatars (messages of other bots, channel posts).
 */
export function messageContext(msg: Message): ChatContext | undefined {
  const from = msg.from;
  if (!from || from.is_bot || msg.sender_chat !== undefined || msg.chat.type === 'channel') return undefined;
  const identity: Identity = `telegram:${from.id}`;
  const fromName = [from.first_name, from.last_name].filter(Boolean).join(' ') || from.username || String(from.id);
  const threadId = msg.is_topic_message === true ? msg.message_thread_id : undefined;
  return {
    platform: 'telegram',
    from: identity,
    fromName,
    dest: destinationOf(msg.chat.id, threadId),
    chatKind: msg.chat.type === 'private' ? 'private' : 'group',
    messageId: String(msg.message_id),
    sentAt: msg.date * 1000,
  };
}
