/** The one writer of `state.json` `shares` (Discord guild shares): only its owner, `src/sharing.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = sharesWriter(store);
 */
export function sharesWriter(store: Store): RecordWriter<Pick<StateFile, 'shares'>> {
  return recordWriter(store, 'state', ['shares']);
}
