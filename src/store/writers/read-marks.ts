/** The one writer of `state.json` `readMarks` (where each chat was read up to): only its owner, `src/read-marks.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = readMarksWriter(store);
 */
export function readMarksWriter(store: Store): RecordWriter<Pick<StateFile, 'readMarks'>> {
  return recordWriter(store, 'state', ['readMarks']);
}
