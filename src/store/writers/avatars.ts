/** The one writer of `state.json` `avatars` (each avatar's record): only its owner, `src/avatars/avatar-records.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = avatarsWriter(store);
 */
export function avatarsWriter(store: Store): RecordWriter<Pick<StateFile, 'avatars'>> {
  return recordWriter(store, 'state', ['avatars']);
}
