/**
 * What the Discord bridge needs to deliver a post: parts that fit with the
 * prefix and mention, and what Discord's answer to a send means for the outbox.
 */
import { DiscordAPIError, HTTPError, RateLimitError } from 'discord.js';
import type { DeliveryOutcome } from '../../src/chat.ts';
import { scrubSecrets, type Logger } from '../../src/logger.ts';
import type { Post } from '../../src/store/schema.ts';

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
