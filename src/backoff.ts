/**
 * The one retry policy of mindlink: exponential backoff with jitter, used by
 * the courier (failed deliveries), the game (reconnects) and the goal loop
 * (crashes, and turns that changed nothing). The jitter keeps many avatars
 * or chats that failed together from retrying in step.
 */

/** The delay of the first retry and the cap the doubling stops at. */
export interface Backoff {
  minMs: number;
  maxMs: number;
}

/** The jitter adds up to this fraction of the delay. */
export const BACKOFF_JITTER = 0.2;

/**
 * The delay before retry number `attempt` (0 for the first): `minMs · 2^attempt`, capped at `maxMs`,
 * plus up to {@link BACKOFF_JITTER} of it drawn from `random` (never less than the plain delay).
 *
 * @example
 * backoffMs(3, { minMs: 1000, maxMs: 30_000 }, () => 0); // → 8000
 * backoffMs(3, { minMs: 1000, maxMs: 30_000 });          // → 8000 … 9600
 */
export function backoffMs(attempt: number, { minMs, maxMs }: Backoff, random: () => number = Math.random): number {
  const plain = Math.min(maxMs, minMs * 2 ** Math.min(Math.max(0, attempt), 30));
  return Math.round(plain * (1 + BACKOFF_JITTER * random()));
}
