/** The one writer of `state.json` `servers` (the Minecraft servers): only its owner, `src/servers/registry.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = serversWriter(store);
 */
export function serversWriter(store: Store): RecordWriter<Pick<StateFile, 'servers'>> {
  return recordWriter(store, 'state', ['servers']);
}
