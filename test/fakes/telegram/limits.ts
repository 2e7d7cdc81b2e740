/**
 * Telegram's send limits as the fake enforces them on request: two messages to one chat closer than
 * `perChatMs`, more than `groupPerMinute` to one group in a minute, or more than `globalPerSecond` in a
 * second are over the limit (the fake then answers 429).
 */

/** The limits to enforce. */
export interface Limits {
  perChatMs: number;
  groupPerMinute: number;
  globalPerSecond: number;
}

export class SendLimits {
  private limits: Limits | null = null;
  private readonly lastSendTo = new Map<number, number>();
  private readonly groupSends = new Map<number, number[]>();
  private globalSends: number[] = [];

  /** Enforce these limits from now on (null: none). */
  set(limits: Limits | null): void {
    this.limits = limits;
  }

  /** Whether a send to `chatId` now goes over the enforced limits (and, if not, count it). */
  over(chatId: number): boolean {
    if (!this.limits) return false;
    const now = Date.now();
    const last = this.lastSendTo.get(chatId);
    this.globalSends = this.globalSends.filter((t) => now - t < 1000);
    const group = (this.groupSends.get(chatId) ?? []).filter((t) => now - t < 60_000);
    if (last !== undefined && now - last < this.limits.perChatMs) return true;
    if (chatId < 0 && group.length >= this.limits.groupPerMinute) return true;
    if (this.globalSends.length >= this.limits.globalPerSecond) return true;
    this.lastSendTo.set(chatId, now);
    this.globalSends.push(now);
    if (chatId < 0) this.groupSends.set(chatId, [...group, now]);
    return false;
  }
}
