/**
 * Messages a platform may deliver again (Telegram sends an update until the bot confirms it, and a bot killed
 * before confirming gets it again at its next start): which were handled, so one delivered again is neither
 * applied nor answered twice (docs/guarantees.md).
 *
 * Two marks, each written with what it marks, so a kill between two writes cannot split them:
 * - a message that changed something is recorded here (`state.json` `handled`: its update's key and its
 *   reply) in the same write as its change;
 * - the reply to it marks the update answered in the outbox (`outbox.json` `answered`) in the same write as
 *   the reply (`src/outbox/outbox.ts`).
 *
 * Delivered again, an update marked answered is done; one recorded here but not answered gets its recorded
 * reply posted, nothing applied again; any other is handled as new (nothing of it reached the disk). A record
 * goes once its reply is on disk (dropped with the next record, in that write).
 */
import { scrubSecrets } from './logger.ts';
import type { Handled } from './store/schema.ts';
import type { Store } from './store/store.ts';
import { handledWriter } from './store/writers/handled.ts';

/** The most records kept: a platform delivers again only what came just before a kill. */
export const HANDLED_LIMIT = 100;

/** The reply a message got, as recorded with its change. */
export type HandledReply = Omit<Handled, 'key'>;

/**
 * @example
 * const handled = new HandledUpdates(store);
 * handled.before('telegram:7000001:812'); // → undefined (new), 'answered', or the reply to post again
 * handled.record('telegram:7000001:812', { avatar: 'demo', text: 'Noted as direction #3.' }); // in the tick of the change
 */
export class HandledUpdates {
  private readonly records;
  /** Keys whose reply is on disk: their records go with the next record's write. */
  private readonly settledKeys = new Set<string>();

  constructor(private readonly store: Store) {
    this.records = handledWriter(store);
  }

  /** What came of update `key` before: `answered`, its change recorded with the reply it got, or undefined when it is new. */
  before(key: string): 'answered' | HandledReply | undefined {
    if (this.store.outbox.data.answered.includes(key)) return 'answered';
    const found = this.records.value.handled.find((h) => h.key === key);
    return found && { avatar: found.avatar, text: found.text };
  }

  /**
   * Update `key` changed something and is answered with `reply` (kept without the secrets a post never shows).
   * Call it in the same tick as the change, so one write carries both. A reply for the sender's eyes only (a
   * token) is never recorded: such a command delivered again is run again.
   */
  record(key: string, reply: HandledReply): void {
    this.records.update((d) => {
      d.handled = d.handled.filter((h) => h.key !== key && !this.settledKeys.has(h.key));
      d.handled.push({ key, avatar: reply.avatar, text: scrubSecrets(reply.text) });
      if (d.handled.length > HANDLED_LIMIT) d.handled.splice(0, d.handled.length - HANDLED_LIMIT);
    });
    this.settledKeys.clear();
  }

  /** The reply to update `key` is on disk (marked answered): its record is no longer needed. */
  settled(key: string): void {
    if (this.records.value.handled.some((h) => h.key === key)) this.settledKeys.add(key);
  }
}
