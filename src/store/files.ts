/**
 * The writable data files behind a {@link Store}: held here, out of the
 * store's public face, so that only `src/store/` reaches them (the record
 * writers of `src/store/writers/`, one per kind of record, hand them on to
 * each record's owner; docs/architecture.md "Who writes what").
 */
import type { DataFile } from './json-file.ts';
import type { OutboxFileSchema, RecordFileSchema, ScheduleFileSchema, StateFileSchema } from './schema.ts';

/** The four data files of a store, writable. */
export interface StoreFiles {
  state: DataFile<typeof StateFileSchema>;
  outbox: DataFile<typeof OutboxFileSchema>;
  record: DataFile<typeof RecordFileSchema>;
  schedules: DataFile<typeof ScheduleFileSchema>;
}

const held = new WeakMap<object, StoreFiles>();

/** Keep a store's writable files (`Store.open` does, once). */
export function holdFiles(store: object, files: StoreFiles): void {
  held.set(store, files);
}

/**
 * The writable files of a store: for `src/store/` (and tests that set up data) only.
 *
 * @example
 * filesOf(store).state.update((s) => s.servers.push(server)); // a test's fixture
 */
export function filesOf(store: object): StoreFiles {
  const files = held.get(store);
  if (!files) throw new Error('not a store opened with Store.open');
  return files;
}
