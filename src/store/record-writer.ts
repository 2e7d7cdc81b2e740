/**
 * A record writer: the part of one data file that one kind of record lives
 * in, read-only to read, changed only through its draft. Each kind has its
 * own writer module in `src/store/writers/`, and only that kind's owner
 * imports it (`.dependency-cruiser.cjs`, docs/architecture.md "Who writes
 * what"). Writes go through the file's one serialised, coalescing writer: a
 * change is on disk once `Store.saved` of a mark taken before it resolves.
 */
import { filesOf } from './files.ts';
import type { DeepReadonly } from './readonly.ts';
import type { OutboxFile, RecordFile, ScheduleFile, StateFile } from './schema.ts';
import type { Store } from './store.ts';

/** The data of each file, by its name in the {@link Store}. */
interface FileData {
  state: StateFile;
  outbox: OutboxFile;
  record: RecordFile;
  schedules: ScheduleFile;
}

/** One kind of record of a data file, as its owner holds it. */
export interface RecordWriter<T> {
  /** The records now, read-only (frozen with `STORE_CHECKS=on`). */
  readonly value: DeepReadonly<T>;
  /**
   * Change the records: `fn` gets the draft, the only object it may change, and its result is returned. The
   * file is written soon after (with the other changes of this tick).
   */
  update<R>(fn: (draft: T) => R): R;
  /** Resolve once every change of this file made so far is on disk (throws StoreWriteError while the disk refuses). */
  flush(): Promise<void>;
}

/**
 * The writer of the fields `keys` of one file. Its draft is those fields and nothing else: reading or
 * changing another field of the file through it throws.
 *
 * @example
 * const links = recordWriter(store, 'state', ['links']);
 * links.update((d) => d.links.push(link));
 */
export function recordWriter<F extends keyof FileData, K extends keyof FileData[F]>(store: Store, file: F, keys: readonly K[]): RecordWriter<Pick<FileData[F], K>> {
  const data = filesOf(store)[file] as unknown as {
    data: Pick<FileData[F], K>;
    update<R>(fn: (draft: Pick<FileData[F], K>) => R): R;
    flush(): Promise<void>;
  };
  const owned = new Set<PropertyKey>(keys);
  const refuse = (key: PropertyKey): never => {
    throw new Error(`the writer of ${[...owned].join(', ')} in ${file} cannot reach ${String(key)}`);
  };
  // The draft of the whole file, narrowed to the owned fields.
  const narrowed = (draft: Pick<FileData[F], K>): Pick<FileData[F], K> =>
    new Proxy(draft, {
      get: (target, key, receiver) => (typeof key === 'string' && !owned.has(key) ? refuse(key) : Reflect.get(target, key, receiver)),
      set: (target, key, value, receiver) => (owned.has(key) ? Reflect.set(target, key, value, receiver) : refuse(key)),
    });
  return {
    get value() {
      return data.data as DeepReadonly<Pick<FileData[F], K>>;
    },
    update: (fn) => data.update((draft) => fn(narrowed(draft))),
    flush: () => data.flush(),
  };
}
