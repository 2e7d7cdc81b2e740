/** The one writer of `state.json` `streams` (thought streams): only its owner, `src/thought-stream.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = streamsWriter(store);
 */
export function streamsWriter(store: Store): RecordWriter<Pick<StateFile, 'streams'>> {
  return recordWriter(store, 'state', ['streams']);
}
