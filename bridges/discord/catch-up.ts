/**
 * What was written while mindlink was away from Discord. The gateway does
 * not replay it (Telegram's getUpdates does), so on connecting, and on every
 * new gateway session after that, the bridge reads each chat it keeps a read
 * mark for (a linked channel or thread, a DM) on from that mark.
 */
import type { Client, Message } from 'discord.js';
import { newerId } from '../../src/read-marks.ts';

/** A message older than this is not read late (as Telegram keeps updates for 24 hours). */
export const CATCH_UP_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** One REST page: the newest this many messages of a chat are looked at. */
export const CATCH_UP_PAGE = 100;

/** What came in one chat after its read mark (in the page's order; {@link byId} sorts). */
export interface Missed {
  messages: Message[];
  /** Even the oldest message of the page is after the mark: older ones may have been missed too. */
  more: boolean;
  /** Messages after the mark left out for being over {@link CATCH_UP_MAX_AGE_MS} old. */
  tooOld: number;
}

/**
 * The messages of channel `channelId` after message `after`, at most one page and none older
 * than a day. A channel that is gone or not text gives none.
 *
 * @example
 * const { messages } = await missedMessages(client, '1311…', '1311…', Date.now());
 * for (const m of messages.sort(byId)) await handle(m);
 */
export async function missedMessages(client: Client, channelId: string, after: string, now: number): Promise<Missed> {
  const channel = await client.channels.fetch(channelId);
  if (!channel || !channel.isTextBased()) return { messages: [], more: false, tooOld: 0 };
  const page = [...(await channel.messages.fetch({ limit: CATCH_UP_PAGE })).values()];
  const unread = page.filter((m) => newerId(m.id, after));
  const fresh = unread.filter((m) => now - m.createdTimestamp <= CATCH_UP_MAX_AGE_MS);
  return { messages: fresh, more: page.length === CATCH_UP_PAGE && unread.length === page.length, tooOld: unread.length - fresh.length };
}

/** Oldest first: snowflakes grow with time. */
export function byId(a: Message, b: Message): number {
  return a.id === b.id ? 0 : newerId(a.id, b.id) ? 1 : -1;
}
