/** The one writer of `state.json` `handled` (messages a platform may deliver again, with their replies): only its owner, `src/handled-updates.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = handledWriter(store);
 */
export function handledWriter(store: Store): RecordWriter<Pick<StateFile, 'handled'>> {
  return recordWriter(store, 'state', ['handled']);
}
