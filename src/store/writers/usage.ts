/** The one writer of `goal-record.json` `usage` (what each avatar used): only its owner, `src/avatars/usage.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { RecordFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = usageWriter(store);
 */
export function usageWriter(store: Store): RecordWriter<Pick<RecordFile, 'usage'>> {
  return recordWriter(store, 'record', ['usage']);
}
