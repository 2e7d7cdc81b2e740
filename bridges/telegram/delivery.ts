/**
 * What the Telegram bridge needs to deliver a post and log its failures: an
 * error with every secret removed, and what the Bot API's answer to a send
 * means for the outbox.
 */
import { GrammyError, HttpError } from 'grammy';
import type { DeliveryOutcome } from '../../src/chat.ts';
import { scrubSecrets, type Logger } from '../../src/logger.ts';
import { destinationOf } from './format.ts';

/** An error as a log field with every secret removed (grammy's network errors carry the URL, token included). */
export function safeError(err: unknown): { type: string; message: string; cause?: string } {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubSecrets(String(err)) };
  const out: { type: string; message: string; cause?: string } = { type: err.name, message: scrubSecrets(err.message) };
  const inner = err instanceof HttpError ? err.error : err.cause;
  if (inner !== undefined) out.cause = scrubSecrets(inner instanceof Error ? inner.message : String(inner));
  return out;
}

/**
 * A failed sendMessage in the outbox's terms: a group that became a supergroup
 * moves the link; 429 waits its `retry_after`; 5xx and network errors are tried
 * again; 401 is our token (keep the post); 403 or another 400 refused this chat.
 *
 * @example
 * outcomeOf(new GrammyError(…429…), log) // → { ok: false, retry: true, retryAfterMs: 5000, reason: '429: Too Many Requests…' }
 */
export function outcomeOf(err: unknown, log: Logger): Exclude<DeliveryOutcome, { ok: true }> {
  if (err instanceof GrammyError) {
    const reason = scrubSecrets(`${err.error_code}: ${err.description}`);
    const movedTo = err.parameters.migrate_to_chat_id;
    if (err.error_code === 400 && movedTo !== undefined) {
      // The group became a supergroup: the chat itself (a basic group has no forum topics to carry over).
      return { ok: false, movedTo: destinationOf(movedTo), reason };
    }
    if (err.error_code === 429) return { ok: false, retry: true, retryAfterMs: (err.parameters.retry_after ?? 1) * 1000, reason };
    if (err.error_code >= 500) return { ok: false, retry: true, retryAfterMs: 0, reason };
    if (err.error_code === 401) {
      // Our token, not the chat: keep the post until the token works again.
      log.error({ err: safeError(err) }, 'telegram: the bot token was refused');
      return { ok: false, retry: true, retryAfterMs: 60_000, reason };
    }
    // 403 (blocked, kicked), 400 (chat not found …): this chat will not take it.
    return { ok: false, retry: false, reason };
  }
  // A network failure (or our own stop): the request may not have arrived; the outbox backs off.
  const e = safeError(err);
  return { ok: false, retry: true, retryAfterMs: 0, reason: e.cause ? `${e.message} (${e.cause})` : e.message };
}
