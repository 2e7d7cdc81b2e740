/** The one writer of `goal-record.json` `goals` (every ended goal): only its owner, `src/avatars/goal-history.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { RecordFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = goalHistoryWriter(store);
 */
export function goalHistoryWriter(store: Store): RecordWriter<Pick<RecordFile, 'goals'>> {
  return recordWriter(store, 'record', ['goals']);
}
