/**
 * The courier: takes one platform's pending posts from the {@link Outbox} and
 * delivers them through its bridge, in order per destination, paced under the
 * platform's rate limits, each post removed only once the platform accepted it.
 */
import { backoffMs } from '../backoff.ts';
import type { Bridge, DeliveryOutcome } from '../chat.ts';
import type { Logger } from '../logger.ts';
import { DestinationSchema, type Destination, type Post } from '../store/schema.ts';
import { platformOf, type Outbox } from './outbox.ts';
import { splitMessage } from './split.ts';

/** How a {@link Courier} delivers. */
export interface CourierOptions {
  /** Where the posts wait. */
  outbox: Outbox;
  /** The platform to deliver to; the courier takes the posts of `bridge.platform`. */
  bridge: Bridge;
  /** Where delivery failures are logged. */
  log: Logger;
  /** A post to `dest` was refused for good (bot blocked, chat gone); the core unlinks the chat. */
  onUndeliverable?(dest: Destination, reason: string): void;
  /**
   * The chat at `from` now lives at `to` (a Telegram group became a
   * supergroup); the core relinks it. Called before the post is sent again to `to`.
   */
  onMoved?(from: Destination, to: Destination): void;
  /** Least time between the starts of two deliveries to one destination (ms). Default 0. */
  perChatIntervalMs?: number;
  /** Most deliveries per minute to one Telegram group (chat id < 0). Default: no limit. */
  groupPerMinute?: number;
  /** Most deliveries per second overall. Default: no limit. */
  globalPerSecond?: number;
  /** Merge consecutive plain posts that piled up for a chat into one message. Default false. */
  coalesce?: boolean;
  /** Retry delays: `minMs · 2^attempts`, capped at `maxMs`, with jitter (`src/backoff.ts`). Default 1 s … 5 min. */
  backoff?: { minMs: number; maxMs: number };
}

/** The default of every optional {@link CourierOptions} setting. */
export const DefaultCourierOptions = {
  perChatIntervalMs: 0,
  groupPerMinute: Number.POSITIVE_INFINITY,
  globalPerSecond: Number.POSITIVE_INFINITY,
  coalesce: false,
  backoff: { minMs: 1_000, maxMs: 300_000 },
} satisfies Required<Omit<CourierOptions, 'outbox' | 'bridge' | 'log' | 'onUndeliverable' | 'onMoved'>>;

/** A sliding window of start times, for "at most N per period". */
class RateWindow {
  private readonly starts: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly periodMs: number,
  ) {}

  /** The earliest time a new start fits the window. */
  readyAt(now: number): number {
    while (this.starts.length > 0 && (this.starts[0] ?? 0) <= now - this.periodMs) this.starts.shift();
    if (this.starts.length < this.limit) return now;
    const oldest = this.starts[this.starts.length - this.limit] ?? now;
    return oldest + this.periodMs;
  }

  record(at: number): void {
    this.starts.push(at);
  }
}

/** What the courier remembers about one destination between deliveries (in memory only). */
interface DestState {
  inFlight: boolean;
  /**
   * When the chat last heard from us (epoch ms): the start of the last delivery
   * attempt, moved to its end when it ends. A bridge may wait out a 429 and send
   * again inside one attempt (grammy's auto-retry does), so pacing from the start
   * alone would send the next post right behind that late send.
   */
  lastStart: number;
}

/** Telegram groups and supergroups have negative chat ids: `telegram:-100123` or `telegram:-100123:<thread>`. */
function groupChatOf(dest: Destination): string | null {
  const m = /^telegram:(-\d+)/.exec(dest);
  return m?.[1] ?? null;
}

/**
 * Delivers the pending posts of one bridge's platform.
 *
 * - At most one delivery in flight per destination, posts of a destination in
 *   creation order; different destinations go in parallel.
 * - A post leaves the outbox only after `bridge.deliver` returned ok.
 * - A reply that `answers` an update the platform may deliver again is sent
 *   only once it is on disk (or the disk refused it: then it is sent anyway).
 * - `{ retry: true }` or a throw: the post and every later post of that
 *   destination wait `max(retryAfterMs, backoff)`; the backoff doubles per
 *   attempt up to `backoff.maxMs`.
 * - `{ retry: false }`: the post is dropped and `onUndeliverable` called (not with `keepLink`).
 * - `{ movedTo }`: `onMoved` is called, every pending post of the old
 *   destination moves to the new one (in the outbox, in creation order), and
 *   the same post goes out there at once, ahead of the posts that were behind it.
 * - A post is never in flight twice, even when its destination changed while
 *   it was in flight.
 * - Wakes on the outbox's `posted` events and on (unref'd) timers; never polls.
 *
 * @example
 * const courier = new Courier({ outbox, bridge: telegram, log, perChatIntervalMs: 1000, groupPerMinute: 20, globalPerSecond: 30, coalesce: true });
 * courier.start();
 * // … on shutdown
 * await courier.stop();
 */
export class Courier {
  private readonly outbox: Outbox;
  private readonly bridge: Bridge;
  private readonly log: Logger;
  private readonly onUndeliverable: ((dest: Destination, reason: string) => void) | undefined;
  private readonly onMoved: ((from: Destination, to: Destination) => void) | undefined;
  private readonly perChatIntervalMs: number;
  private readonly groupPerMinute: number;
  private readonly coalesce: boolean;
  private readonly backoff: { minMs: number; maxMs: number };

  private readonly dests = new Map<Destination, DestState>();
  private readonly groups = new Map<string, RateWindow>();
  private readonly global: RateWindow;
  private readonly inFlight = new Set<Promise<void>>();
  /** Ids of the posts in flight: a post moved to another destination mid-delivery must not start again there. */
  private readonly sending = new Set<string>();
  private idleWaiters: Array<() => void> = [];
  private running = false;
  private pumpScheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private readonly onPosted = (): void => this.schedulePump();

  constructor(opts: CourierOptions) {
    this.outbox = opts.outbox;
    this.bridge = opts.bridge;
    this.log = opts.log.child({ component: 'courier', platform: opts.bridge.platform });
    this.onUndeliverable = opts.onUndeliverable;
    this.onMoved = opts.onMoved;
    this.perChatIntervalMs = opts.perChatIntervalMs ?? DefaultCourierOptions.perChatIntervalMs;
    this.groupPerMinute = opts.groupPerMinute ?? DefaultCourierOptions.groupPerMinute;
    this.coalesce = opts.coalesce ?? DefaultCourierOptions.coalesce;
    this.backoff = opts.backoff ?? DefaultCourierOptions.backoff;
    this.global = new RateWindow(opts.globalPerSecond ?? DefaultCourierOptions.globalPerSecond, 1_000);
  }

  /** Start delivering: the posts already pending (e.g. from before a restart) and every new one. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.outbox.on('posted', this.onPosted);
    this.schedulePump();
  }

  /** Stop taking posts and wait for the deliveries in flight; what is left stays in the outbox. */
  async stop(): Promise<void> {
    this.running = false;
    this.outbox.off('posted', this.onPosted);
    this.clearTimer();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    this.settleIdle();
  }

  /**
   * Resolve once nothing of this platform is pending or in flight (or the
   * courier is stopped). For tests: with fake timers, advance them while waiting.
   */
  idle(): Promise<void> {
    return new Promise((resolve) => {
      this.idleWaiters.push(resolve);
      this.settleIdle();
    });
  }

  private settleIdle(): void {
    if (this.idleWaiters.length === 0) return;
    const done = !this.running || (this.inFlight.size === 0 && this.outbox.pending(this.bridge.platform).length === 0);
    if (!done) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Run {@link Courier.pump} once after the current tick, so a burst of posts is seen together. */
  private schedulePump(): void {
    if (this.pumpScheduled || !this.running) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      // The boundary of every wake-up: a fault here must not stop later deliveries.
      try {
        this.pump();
      } catch (err) {
        this.log.error({ err }, 'courier pump failed');
      }
      this.settleIdle();
    });
  }

  /** Start every delivery that may start now, and set a timer for the earliest one that may not. */
  private pump(): void {
    if (!this.running) return;
    const now = Date.now();
    const queues = new Map<Destination, Post[]>();
    for (const post of this.outbox.pending(this.bridge.platform)) {
      const queue = queues.get(post.dest);
      if (queue) queue.push(post);
      else queues.set(post.dest, [post]);
    }

    let wakeAt = Number.POSITIVE_INFINITY;
    for (const [dest, queue] of queues) {
      const state = this.destState(dest);
      if (state.inFlight) continue; // its completion pumps again
      const head = queue[0];
      if (!head || this.sending.has(head.id)) continue; // moved here while in flight elsewhere: that completion pumps again
      const readyAt = this.readyAt(dest, head, state, now);
      if (readyAt > now) {
        wakeAt = Math.min(wakeAt, readyAt);
        continue;
      }
      this.begin(dest, queue, state, now);
    }
    this.armTimer(wakeAt, now);
  }

  private destState(dest: Destination): DestState {
    let state = this.dests.get(dest);
    if (!state) {
      state = { inFlight: false, lastStart: Number.NEGATIVE_INFINITY };
      this.dests.set(dest, state);
    }
    return state;
  }

  private groupWindow(dest: Destination): RateWindow | null {
    if (!Number.isFinite(this.groupPerMinute)) return null;
    const chat = groupChatOf(dest);
    if (chat === null) return null;
    let window = this.groups.get(chat);
    if (!window) {
      window = new RateWindow(this.groupPerMinute, 60_000);
      this.groups.set(chat, window);
    }
    return window;
  }

  /** The earliest time the head post of `dest` may go: its retry time, the chat's pacing, the group's and the global rate. */
  private readyAt(dest: Destination, head: Post, state: DestState, now: number): number {
    return Math.max(
      head.notBefore,
      state.lastStart + this.perChatIntervalMs,
      this.groupWindow(dest)?.readyAt(now) ?? now,
      this.global.readyAt(now),
    );
  }

  /**
   * The head post, or — when coalescing — the head merged with the plain posts
   * right behind it (same avatar, no ping, no reply) while the text fits one message.
   */
  private nextBatch(queue: Post[]): { post: Post; ids: string[] } {
    const head = queue[0] as Post;
    // A post with a card (buttons, a status) goes as it is: merged, its card would be lost or land on other text.
    const plain = (p: Post): boolean => p.ping === null && p.replyTo === null && !p.card;
    // A post partly sent already is resent alone, so its remaining parts are the same as before.
    if (!this.coalesce || queue.length < 2 || !plain(head) || head.sent) return { post: head, ids: [head.id] };
    let text = head.text;
    const ids = [head.id];
    for (const next of queue.slice(1)) {
      if (!plain(next) || next.avatar !== head.avatar || this.sending.has(next.id)) break;
      const joined = `${text}\n${next.text}`;
      if (joined.length > this.bridge.maxMessageLength) break;
      text = joined;
      ids.push(next.id);
    }
    return ids.length === 1 ? { post: head, ids } : { post: { ...head, text }, ids };
  }

  private begin(dest: Destination, queue: Post[], state: DestState, now: number): void {
    const { post, ids } = this.nextBatch(queue);
    state.inFlight = true;
    state.lastStart = now;
    this.global.record(now);
    this.groupWindow(dest)?.record(now);
    for (const id of ids) this.sending.add(id);
    // A copy: the outbox may rewrite the pending post's dest while it is in flight (a chat that moved).
    const delivery = this.deliver(dest, { ...post }, ids).finally(() => {
      state.inFlight = false;
      state.lastStart = Math.max(state.lastStart, Date.now());
      for (const id of ids) this.sending.delete(id);
      this.inFlight.delete(delivery);
      this.schedulePump();
      this.settleIdle();
    });
    this.inFlight.add(delivery);
  }

  /** One delivery attempt and its bookkeeping. Never rejects. */
  private async deliver(dest: Destination, post: Post, ids: string[]): Promise<void> {
    const parts = splitMessage(post.text, this.bridge.maxMessageLength);
    if (parts.length === 0) {
      // Nothing visible to send: a blank post is done as it is.
      this.outbox.delivered(ids);
      return;
    }
    // On disk first, the update marked answered: a restart after the chat saw it does not answer that update again.
    if (post.answers !== undefined) await this.outbox.saved().catch((err: unknown) => this.log.warn({ err, post: post.id }, 'a reply is not on disk; sent anyway'));
    let outcome: DeliveryOutcome;
    try {
      outcome = await this.bridge.deliver(post, parts, (sent) => this.outbox.partsSent(post.id, sent));
    } catch (err) {
      // A throwing bridge is a transient fault until proven otherwise.
      outcome = { ok: false, retry: true, retryAfterMs: 0, reason: err instanceof Error ? err.message : String(err) };
      this.log.warn({ err, post: post.id, dest: post.dest }, 'bridge threw while delivering');
    }
    try {
      this.settle(dest, post, ids, outcome);
    } catch (err) {
      this.log.error({ err, post: post.id, dest: post.dest }, 'could not record a delivery outcome');
    }
  }

  private settle(dest: Destination, post: Post, ids: string[], outcome: DeliveryOutcome): void {
    if (outcome.ok) {
      this.outbox.delivered(ids);
      this.log.debug({ posts: ids, dest: post.dest, messages: outcome.messageIds }, 'delivered');
      return;
    }
    if ('movedTo' in outcome) {
      this.move(dest, post, outcome.movedTo, outcome.reason);
      return;
    }
    if (outcome.retry) {
      const delay = Math.max(outcome.retryAfterMs, backoffMs(post.attempts, this.backoff));
      this.outbox.retryLater(post.id, delay);
      this.log.warn({ post: post.id, dest: post.dest, attempts: post.attempts + 1, delayMs: delay, reason: outcome.reason }, 'delivery failed, will retry');
      return;
    }
    for (const id of ids) this.outbox.drop(id);
    this.log.warn({ posts: ids, dest: post.dest, reason: outcome.reason }, 'undeliverable, dropped');
    if (this.onUndeliverable && outcome.keepLink !== true) {
      try {
        this.onUndeliverable(post.dest, outcome.reason);
      } catch (err) {
        this.log.error({ err, dest: post.dest }, 'onUndeliverable failed');
      }
    }
  }

  /**
   * The chat of `post` moved: relink (through `onMoved`) and move its queue.
   * The post stays pending, first of the moved queue, so the pump that follows
   * this delivery sends it to the new destination at once.
   */
  private move(from: Destination, post: Post, to: Destination, reason: string): void {
    if (to === from || !DestinationSchema.safeParse(to).success || platformOf(to) !== this.bridge.platform) {
      // A bridge fault: keep the post here and try again later rather than send it somewhere unknown.
      const delay = backoffMs(post.attempts, this.backoff);
      this.outbox.retryLater(post.id, delay);
      this.log.error({ post: post.id, dest: from, movedTo: to, reason, delayMs: delay }, 'bridge named an unusable new destination; will retry');
      return;
    }
    if (this.onMoved) {
      try {
        this.onMoved(from, to);
      } catch (err) {
        this.log.error({ err, from, to }, 'onMoved failed');
      }
    }
    // The core moves the queue too; doing it here (a no-op then) keeps the posts whatever onMoved did.
    const moved = this.outbox.moveDest(from, to);
    this.log.debug({ post: post.id, from, to, reason, alsoMoved: moved.length }, 'chat moved; its queue follows');
  }

  private armTimer(at: number, now: number): void {
    if (!Number.isFinite(at)) {
      this.clearTimer();
      return;
    }
    if (this.timer && this.timerAt <= at) return;
    this.clearTimer();
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.schedulePump();
    }, Math.max(0, at - now));
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
  }
}
