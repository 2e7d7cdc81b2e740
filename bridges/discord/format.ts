/**
 * Pure helpers of the Discord bridge: destinations, the mentions a post may
 * make, nonces, and reading commands and addresses out of message text.
 * No I/O here, so each is tested alone.
 */
import { createHash } from 'node:crypto';
import { MessageFlags } from 'discord.js';
import type { Destination, Identity, Post } from '../../src/store/schema.ts';

/** Discord's limit on a message's content. */
export const DISCORD_MAX_MESSAGE_LENGTH = 2000;

/**
 * The channel id of `discord:<channelId>` (a guild channel, a thread or a DM channel); null for another platform's destination.
 *
 * @example
 * channelOf('discord:123') // → '123'
 */
export function channelOf(dest: Destination): string | null {
  return /^discord:(\d+)$/.exec(dest)?.[1] ?? null;
}

/** The destination of a channel, thread or DM channel. */
export function destinationOf(channelId: string): Destination {
  return `discord:${channelId}`;
}

/** The user id of a `discord:<id>` identity; null for another platform's identity. */
export function discordUserOf(identity: Identity | null): string | null {
  if (identity === null) return null;
  return /^discord:(\d+)$/.exec(identity)?.[1] ?? null;
}

/** The `allowed_mentions` of a message: nothing parsed from the text, no replied-user ping, at most the one user named. */
export interface AllowedMentions {
  parse: [];
  users: string[];
  replied_user: false;
}

/**
 * What a message may ping: nobody, or the one user given. `@everyone`, `@here`,
 * `<@&role>` and `<@user>` written in the text stay plain text.
 *
 * @example
 * allowedMentions('42') // → { parse: [], users: ['42'], replied_user: false }
 */
export function allowedMentions(userId: string | null): AllowedMentions {
  return { parse: [], users: userId === null ? [] : [userId], replied_user: false };
}

/**
 * Markdown link syntax shown as text: on every line that could hold a masked link (`[text](url)`),
 * each `[` is escaped (`\[`), and the backslashes right before it doubled so they cannot undo
 * the escape. Discord then shows the brackets and the bare URL, never a link whose text hides where it goes.
 *
 * @example
 * escapeMaskedLinks('[click](https://evil.example)') // → '\\[click](https://evil.example)'
 */
export function escapeMaskedLinks(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.includes('](') ? line.replace(/(\\*)\[/g, (_, slashes: string) => `${slashes}${slashes}\\[`) : line))
    .join('\n');
}

/** Message flags every post and reply carries: no link previews (SUPPRESS_EMBEDS). */
export const POST_FLAGS = MessageFlags.SuppressEmbeds;

/**
 * A nonce for one part of a post, the same on every attempt (a restart
 * included) and different for every post and part: with `enforce_nonce`,
 * Discord answers a repeated send with the message it already created.
 * At most 25 characters, as Discord requires.
 */
export function nonceFor(post: Pick<Post, 'id' | 'createdAt'>, part: number): string {
  return createHash('sha256').update(`${post.id}\u0000${post.createdAt}\u0000${part}`).digest('base64url').slice(0, 25);
}

/** The avatar a post of ours was about, from its `[name] ` prefix. */
export function avatarFromPrefix(content: string | null | undefined): string | null {
  return /^\[([A-Za-z0-9_]{3,16})\] /.exec(content ?? '')?.[1] ?? null;
}

/** Whether the text mentions the user `<@id>` (or the old nickname form `<@!id>`). */
export function mentionsUser(text: string, userId: string): boolean {
  return text.includes(`<@${userId}>`) || text.includes(`<@!${userId}>`);
}

/** The text without a leading mention of the bot ("@mindlink steve: Goal: …" → "steve: Goal: …"). */
export function stripLeadingMention(text: string, userId: string): string {
  return text.replace(new RegExp(`^\\s*<@!?${userId}>[\\s,:]*`), '').trim();
}

/**
 * A command typed as text (`/status steve`): its name and the rest. Null when
 * the text does not start with `/` and a command word.
 *
 * @example
 * parseTextCommand('/goal get 30 logs') // → { name: 'goal', argsText: 'get 30 logs' }
 */
export function parseTextCommand(text: string): { name: string; argsText: string } | null {
  const m = /^\/([A-Za-z][A-Za-z0-9_-]{0,31})(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m?.[1]) return null;
  return { name: m[1].toLowerCase(), argsText: (m[2] ?? '').trim() };
}
