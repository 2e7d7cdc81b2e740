/** The one writer of `state.json` `places` (the places avatars remember): only its owner, `src/avatars/places.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = placesWriter(store);
 */
export function placesWriter(store: Store): RecordWriter<Pick<StateFile, 'places'>> {
  return recordWriter(store, 'state', ['places']);
}
