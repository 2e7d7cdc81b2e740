/**
 * When Telegram is told an update was received. Long polling confirms every update below the `offset` of
 * the next `getUpdates`, and Telegram never sends a confirmed update again: so the offset moves past an update
 * only once the core has accepted it (`BridgeHost`: its change and its reply on disk), and an update a kill
 * caught before that comes again at the next start (the core does not handle it twice: `src/handled-updates.ts`).
 *
 * This is an API transformer on `getUpdates` under grammy's own long polling (`bot.start`), which hands the
 * updates of a poll to the bridge one after the other (the bridge queues each chat's in order and returns at
 * once) and polls again. That next poll waits until the updates handed over are accepted; while one is slow
 * (a command waiting on the game) it goes out after {@link HOLD_MS} all the same, its offset left at the slow
 * update, and passes on only the newer updates it brings. A slow chat holds back the confirmation of the
 * updates after it, never the handling of other chats' messages. An update not accepted within
 * {@link STUCK_MS} (a handler stuck) is confirmed all the same: Telegram sends at most 100 updates from the
 * offset, so one held for ever would in the end stop the bot reading any chat. On stop, the last
 * `getUpdates` (grammy's confirmation) waits for every update handed over.
 */
import type { Transformer } from 'grammy';
import type { Update } from 'grammy/types';
import type { Logger } from '../../src/logger.ts';

/** How long a poll waits for the updates handed over before it goes out without confirming the slow ones. */
export const HOLD_MS = 1000;
/** How long an update may go unaccepted before it is confirmed all the same. */
export const STUCK_MS = 60_000;

/** An update handed over and not accepted yet. */
interface Waiting {
  /** Settles once it is accepted (never rejects). */
  settled: Promise<void>;
  /** When it was handed over (epoch ms). */
  since: number;
}

/** What a `getUpdates` is asked (the fields this reads). */
interface UpdatesAsked {
  offset?: number;
  timeout?: number;
}

/**
 * @example
 * const acceptance = new UpdateAcceptance();
 * bot.api.config.use(acceptance.transformer);
 * bot.on('message', (ctx) => acceptance.track(ctx.update.update_id, handle(ctx.message)));
 * // on stop
 * acceptance.finish();
 * await bot.stop();
 */
export class UpdateAcceptance {
  /** The updates handed over and not accepted yet, by id. */
  private readonly waiting = new Map<number, Waiting>();
  /** Updates confirmed before they were accepted (stuck), each logged once. */
  private readonly givenUp = new Set<number>();
  private finishing = false;

  constructor(private readonly log?: Logger) {}

  /** Update `id` was handed over; it is accepted once `accepted` settles (a failed handler is not tried again). */
  track(id: number, accepted: Promise<unknown>): void {
    const settled = accepted.then(
      () => undefined,
      () => undefined,
    );
    const entry = { settled, since: Date.now() };
    this.waiting.set(id, entry);
    void settled.then(() => {
      if (this.waiting.get(id) === entry) this.waiting.delete(id);
      this.givenUp.delete(id);
    });
  }

  /** The updates a poll holds back: handed over, not accepted, not stuck; oldest first. */
  private held(): number[] {
    const now = Date.now();
    const held: number[] = [];
    for (const [id, w] of this.waiting) {
      if (now - w.since < STUCK_MS) held.push(id);
      else if (!this.givenUp.has(id)) {
        this.givenUp.add(id);
        this.log?.warn({ update: id, waitedMs: now - w.since }, 'telegram: an update still not handled is confirmed all the same');
      }
    }
    return held.sort((a, b) => a - b);
  }

  /** From now on a `getUpdates` (grammy's last one, which confirms on stop) waits for every update handed over. */
  finish(): void {
    this.finishing = true;
  }

  /** Install with `bot.api.config.use`: every `getUpdates` goes through {@link UpdateAcceptance.poll}. */
  readonly transformer: Transformer = (prev, method, payload, signal) =>
    method === 'getUpdates' ? (this.poll(prev, payload as UpdatesAsked, signal) as ReturnType<typeof prev<typeof method>>) : prev(method, payload, signal);

  /** One `getUpdates`: after the updates handed over are accepted (or {@link HOLD_MS}), from the oldest one that is not. */
  private async poll(prev: Parameters<Transformer>[0], asked: UpdatesAsked, signal: Parameters<Transformer>[3]) {
    await this.settle(signal);
    const held = this.held()[0];
    // grammy asks for the offset past every update it handed over.
    const offset = held ?? asked.offset;
    const res = await prev('getUpdates', { ...asked, ...(offset !== undefined ? { offset } : {}), ...(held !== undefined ? { timeout: 0 } : {}) }, signal);
    if (!res.ok || held === undefined) return res;
    // Telegram sends the held updates again: grammy handed them over already.
    const newer = (res.result as Update[]).filter((u) => asked.offset === undefined || u.update_id >= asked.offset);
    return { ...res, result: newer };
  }

  /**
   * Wait until the updates held are accepted, or {@link HOLD_MS} passed, or `signal` aborts (throws); when
   * finishing, until every update handed over is accepted.
   */
  private async settle(signal: Parameters<Transformer>[3]): Promise<void> {
    if (this.finishing) {
      await Promise.all([...this.waiting.values()].map((w) => w.settled));
      return;
    }
    const held = this.held();
    if (held.length === 0) return;
    const all = Promise.all(held.map((id) => this.waiting.get(id)?.settled)).then(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    let onAbort = (): void => undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        onAbort = () => reject(new Error('polling stopped'));
        if (signal?.aborted) onAbort();
        signal?.addEventListener('abort', onAbort);
        timer = setTimeout(resolve, HOLD_MS);
        void all.then(resolve);
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
