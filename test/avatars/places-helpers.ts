/**
 * The places avatars remember, for a test: their owner ({@link Places}) over a store of its own on real files,
 * with the embedded server and the avatars named, as the core builds it.
 */
import { Places } from '../../src/avatars/places.ts';
import { filesOf } from '../../src/store/files.ts';
import { newAvatarRecord, Store } from '../../src/store/store.ts';
import { recordsOf } from './records-helpers.ts';

/** The owner of the places on a store in `dir` where `avatars` play on the embedded server; `close()` writes and closes the store. */
export async function placesOnFiles(dir: string, avatars: readonly string[]): Promise<{ places: Places; store: Store; close(): Promise<void> }> {
  const store = await Store.open(dir);
  // The server is a fixture: its owner pings a server before it stores one.
  filesOf(store).state.update((s) => s.servers.push({ id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' }));
  const records = recordsOf(store);
  for (const name of avatars) records.add(newAvatarRecord(name, 'p1', 'embedded', 'scripted', true, new Date()));
  return {
    places: new Places(store, records, () => new Date()),
    store,
    async close() {
      await store.flush();
      store.close();
    },
  };
}
