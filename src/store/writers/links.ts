/** The one writer of `state.json` `links` (avatars linked to chats): only its owner, `src/people/links.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = linksWriter(store);
 */
export function linksWriter(store: Store): RecordWriter<Pick<StateFile, 'links'>> {
  return recordWriter(store, 'state', ['links']);
}
