/** The one writer of `outbox.json` (posts on their way): only its owner, `src/outbox/outbox.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { OutboxFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = outboxWriter(store);
 */
export function outboxWriter(store: Store): RecordWriter<Pick<OutboxFile, 'pending' | 'seq' | 'answered'>> {
  return recordWriter(store, 'outbox', ['pending', 'seq', 'answered']);
}
