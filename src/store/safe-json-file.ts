/**
 * lowdb's `JSONFile` adapter (atomic writes through steno: a temp file, then
 * a rename), but a failed write leaves no temp file behind.
 *
 * steno writes `<dir>/.<name>.tmp` and renames it over the file. When the
 * disk is full the temp file is created and then cannot be filled, and steno
 * leaves it there (empty or cut short); this adapter removes it, so a full
 * disk never leaves debris beside the data files.
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { JSONFile } from 'lowdb/node';

/** The temp file steno writes before it renames it over `file`. */
export function stenoTempFile(file: string): string {
  return join(dirname(file), `.${basename(file)}.tmp`);
}

/**
 * @example
 * const db = new Low(new SafeJSONFile<State>('data/state.json'), defaults);
 */
export class SafeJSONFile<T> implements Adapter<T> {
  readonly #file: JSONFile<T>;
  readonly #temp: string;

  constructor(readonly path: string) {
    this.#file = new JSONFile<T>(path);
    this.#temp = stenoTempFile(path);
  }

  /** The data, or null when the file does not exist. */
  read(): Promise<T | null> {
    return this.#file.read();
  }

  /**
   * Write atomically; on failure the temp file is removed and the write's error rethrown (the old file is
   * untouched). Should the removal fail too, its error rides along as `tempLeft` on the write's error.
   */
  async write(data: T): Promise<void> {
    try {
      await this.#file.write(data);
    } catch (err) {
      // Removing a file needs no free space; if even that fails, the write error is the one that matters.
      await rm(this.#temp, { force: true }).catch((rmErr: unknown) => {
        if (err instanceof Error) Object.assign(err, { tempLeft: rmErr });
      });
      throw err;
    }
  }
}
