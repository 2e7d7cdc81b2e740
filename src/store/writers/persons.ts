/** The one writer of `state.json` `persons` (persons and their identities): only its owner, `src/people/people.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = personsWriter(store);
 */
export function personsWriter(store: Store): RecordWriter<Pick<StateFile, 'persons'>> {
  return recordWriter(store, 'state', ['persons']);
}
