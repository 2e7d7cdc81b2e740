/**
 * Pure text helpers of the Telegram bridge: HTML escaping, mentions,
 * destinations and command parsing. No I/O here, so each is tested alone.
 */
import type { MessageEntity } from 'grammy/types';
import type { Destination } from '../../src/store/schema.ts';

/** Telegram's limit on a message's text, counted after entity parsing (UTF-16 code units). */
export const TELEGRAM_MAX_MESSAGE_LENGTH = 4096;

/**
 * Escape text for `parse_mode: HTML`, so that nothing in it becomes markup:
 * `<b>` stays `<b>`, and a link or `@everyone` is plain text.
 *
 * @example
 * escapeHtml('<b>x</b> & y') // → '&lt;b&gt;x&lt;/b&gt; &amp; y'
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A text mention of one user: notifies exactly that user, needs no username.
 *
 * @example
 * mentionHtml(42, 'Ann <3') // → '<a href="tg://user?id=42">Ann &lt;3</a>'
 */
export function mentionHtml(userId: string, name: string): string {
  return `<a href="tg://user?id=${userId}">${escapeHtml(name)}</a>`;
}

/** A Telegram destination taken apart: the chat, and the forum topic when there is one. */
export interface TelegramTarget {
  chatId: number;
  threadId: number | undefined;
}

/**
 * Parse `telegram:<chatId>` or `telegram:<chatId>:<threadId>`; null for another platform's destination.
 *
 * @example
 * parseDestination('telegram:-100123:7') // → { chatId: -100123, threadId: 7 }
 */
export function parseDestination(dest: Destination): TelegramTarget | null {
  const m = /^telegram:(-?\d+)(?::(\d+))?$/.exec(dest);
  if (!m || m[1] === undefined) return null;
  return { chatId: Number(m[1]), threadId: m[2] === undefined ? undefined : Number(m[2]) };
}

/** The destination of a chat (and forum topic). */
export function destinationOf(chatId: number, threadId?: number): Destination {
  return threadId === undefined ? `telegram:${chatId}` : `telegram:${chatId}:${threadId}`;
}

/** Private chats have the user's (positive) id; groups and supergroups negative ids. */
export function isPrivateChatId(chatId: number): boolean {
  return chatId > 0;
}

/** A command found at the start of a message. */
export interface ParsedCommand {
  /** Lower-case name without slash or `@bot`. */
  name: string;
  /** The text after the command, trimmed. */
  argsText: string;
  /** False when the command names another bot (`/goal@otherbot`). */
  forThisBot: boolean;
}

/**
 * Find a command at the start of `text`, as Telegram marks it (a `bot_command`
 * entity at offset 0). `/cmd@name` is for this bot only when `name` is its
 * username (case-insensitive).
 *
 * @example
 * parseCommand('/goal@mybot get 30 logs', [{ type: 'bot_command', offset: 0, length: 11 }], 'mybot')
 * // → { name: 'goal', argsText: 'get 30 logs', forThisBot: true }
 */
export function parseCommand(text: string, entities: readonly MessageEntity[] | undefined, botUsername: string): ParsedCommand | null {
  const entity = entities?.find((e) => e.type === 'bot_command' && e.offset === 0);
  if (!entity) return null;
  const token = text.slice(1, entity.length);
  const at = token.indexOf('@');
  const name = (at === -1 ? token : token.slice(0, at)).toLowerCase();
  const target = at === -1 ? null : token.slice(at + 1);
  if (name === '') return null;
  return {
    name,
    argsText: text.slice(entity.length).trim(),
    forThisBot: target === null || target.toLowerCase() === botUsername.toLowerCase(),
  };
}

/**
 * The avatar a bot post was about, from its `[name] ` prefix (what a reply
 * to it still shows after a restart).
 *
 * @example
 * avatarFromPrefix('[steve] Done: collect 10 logs') // → 'steve'
 */
export function avatarFromPrefix(text: string | undefined): string | null {
  const m = /^\[([A-Za-z0-9_]{3,16})\] /.exec(text ?? '');
  return m?.[1] ?? null;
}

/**
 * Remove a leading `@botname` (how group members address the bot under
 * privacy mode) so the core sees the message itself.
 *
 * @example
 * stripLeadingMention('@mybot steve: Goal: mine 5 stone', 'mybot') // → 'steve: Goal: mine 5 stone'
 */
export function stripLeadingMention(text: string, botUsername: string): string {
  const prefix = `@${botUsername.toLowerCase()}`;
  if (!text.toLowerCase().startsWith(prefix)) return text;
  const rest = text.slice(prefix.length);
  if (rest !== '' && !/^[\s,:]/.test(rest)) return text; // @mybot_fan is someone else
  return rest.replace(/^[\s,:]+/, '');
}
