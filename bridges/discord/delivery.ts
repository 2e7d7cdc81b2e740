/**
 * Delivering a post to Discord: its parts as messages that fit with the
 * prefix and mention, a card as an embed with buttons, and what Discord's
 * answer to a send means for the outbox.
 */
import { DiscordAPIError, HTTPError, RateLimitError, Routes, type APIMessage, type Client, type RESTPostAPIChannelMessageJSONBody } from 'discord.js';
import { remember } from '../../src/bounded-map.ts';
import type { DeliveryOutcome, SentParts } from '../../src/chat.ts';
import { scrubSecrets, type Logger } from '../../src/logger.ts';
import { fitParts } from '../../src/outbox/split.ts';
import type { Post } from '../../src/store/schema.ts';
import { cardComponents, cardEmbed } from './cards.ts';
import { DISCORD_MAX_MESSAGE_LENGTH, POST_FLAGS, allowedMentions, channelOf, discordUserOf, escapeMaskedLinks, nonceFor } from './format.ts';

/** What a delivery uses of its bridge. */
export interface DeliveryDeps {
  client: Client;
  log: Logger;
  /** Message id of a bot post → the avatar it was about (for replies to it); written here. */
  postAvatars: Map<string, string>;
  memoryLimit: number;
}

/**
 * Send one post: each part prefixed with `[avatar] `, the first replying to `post.replyTo` and starting
 * with a mention of `post.ping` (the one user `allowed_mentions` lets through); every part with a nonce
 * Discord enforces, so a send repeated after a lost answer creates no second message. A card with a title
 * or fields is one message, its embed (no `SUPPRESS_EMBEDS`: that would hide it; it has no content to
 * unfurl); buttons go on the last message.
 */
export async function deliverPost(deps: DeliveryDeps, post: Post, parts: string[], progress: (sent: SentParts) => void): Promise<DeliveryOutcome> {
  const { client, log } = deps;
  const channelId = channelOf(post.dest);
  if (!channelId) return { ok: false, retry: false, reason: `not a Discord destination: ${post.dest}`, keepLink: true };
  const prefix = post.avatar ? `[${post.avatar}] ` : '';
  // In a DM the message itself notifies; a mention there would name someone the DM is not with.
  const pinged = (await isDm(deps, channelId, post)) ? null : discordUserOf(post.ping);
  const mention = pinged ? `<@${pinged}> ` : '';
  const embed = post.card ? cardEmbed(post.card) : null;
  const components = post.card ? cardComponents(post.card) : [];
  // Escaped before fitting, so the room counts the escapes too.
  const messages = embed ? [''] : fitParts(escapeMaskedLinks(post.text), parts.map(escapeMaskedLinks), DISCORD_MAX_MESSAGE_LENGTH, prefix.length, mention.length);

  // Parts an earlier attempt sent (kept in the outbox, so across a restart too) are skipped while they are still the same parts.
  const done = post.sent;
  const already = done && done.parts.length < messages.length && done.parts.every((p, i) => messages[i] === p) ? done : { parts: [], messageIds: [] };
  const messageIds = [...already.messageIds];
  for (let i = already.parts.length; i < messages.length; i += 1) {
    const first = i === 0;
    const last = i === messages.length - 1;
    const body: RESTPostAPIChannelMessageJSONBody = {
      ...(embed ? { embeds: [embed], ...(mention ? { content: mention.trim() } : {}) } : { content: `${prefix}${first ? mention : ''}${messages[i] as string}`, flags: POST_FLAGS }),
      ...(last && components.length > 0 ? { components } : {}),
      allowed_mentions: allowedMentions(first ? pinged : null),
      nonce: nonceFor(post, i),
      enforce_nonce: true,
      ...(first && post.replyTo !== null && /^\d+$/.test(post.replyTo)
        ? { message_reference: { message_id: post.replyTo, fail_if_not_exists: false } }
        : {}),
    };
    try {
      const sent = (await client.rest.post(Routes.channelMessages(channelId), { body })) as APIMessage;
      if (post.avatar) remember(deps.postAvatars, sent.id, post.avatar, deps.memoryLimit);
      messageIds.push(sent.id);
      if (i < messages.length - 1) progress({ parts: messages.slice(0, i + 1), messageIds: [...messageIds] });
    } catch (err) {
      return outcomeOf(err, post, log);
    }
  }
  return { ok: true, messageIds };
}

/** Whether a post with a ping goes to a DM (the channel from the cache, else asked for once; a failed look-up counts as not a DM). */
async function isDm(deps: DeliveryDeps, channelId: string, post: Post): Promise<boolean> {
  if (post.ping === null) return false;
  const cached = deps.client.channels.cache.get(channelId);
  if (cached) return cached.isDMBased();
  try {
    return (await deps.client.channels.fetch(channelId))?.isDMBased() === true;
  } catch (err) {
    deps.log.debug({ err: safeError(err), channel: channelId }, 'discord: channel look-up failed');
    return false;
  }
}

/** An error as a log field with every secret removed. */
export function safeError(err: unknown): { type: string; message: string } {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubSecrets(String(err)) };
  return { type: err.name, message: scrubSecrets(err.message) };
}

/**
 * A failed send in the outbox's terms: a long 429 waits its Retry-After; 404
 * or 403 means the channel is gone or forbids the bot (unlink); 401 is our
 * token (keep the post); 5xx and network errors are tried again; another 4xx
 * refused this one post (drop it, keep the link).
 */
export function outcomeOf(err: unknown, post: Post, log: Logger): Exclude<DeliveryOutcome, { ok: true }> {
  if (err instanceof RateLimitError) {
    return { ok: false, retry: true, retryAfterMs: err.retryAfter, reason: `429: rate limited for ${err.retryAfter} ms` };
  }
  if (err instanceof DiscordAPIError) {
    const reason = scrubSecrets(`${err.status} (${err.code}): ${err.message}`);
    if (err.status === 404 || err.status === 403) return { ok: false, retry: false, reason };
    if (err.status === 401) {
      log.error({ post: post.id }, 'discord: the bot token was refused (DISCORD_TOKEN)');
      return { ok: false, retry: true, retryAfterMs: 60_000, reason };
    }
    if (err.status === 429) return { ok: false, retry: true, retryAfterMs: 1000, reason };
    if (err.status >= 500) return { ok: false, retry: true, retryAfterMs: 0, reason };
    log.error({ post: post.id, dest: post.dest, reason }, 'discord refused a post');
    return { ok: false, retry: false, reason, keepLink: true };
  }
  if (err instanceof HTTPError) return { ok: false, retry: true, retryAfterMs: 0, reason: `${err.status}: ${err.message}` };
  // A network failure (or our own stop): the nonce makes the next attempt safe.
  return { ok: false, retry: true, retryAfterMs: 0, reason: safeError(err).message };
}
