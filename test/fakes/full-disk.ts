/**
 * A disk that can be made full: the store's real adapter (files in a temp
 * dir), except that while `full` is set (or for the files named in `fullFor`)
 * every write fails the way a full disk fails it (ENOSPC), before anything is written.
 */
import { basename } from 'node:path';
import type { Adapter } from 'lowdb';
import type { AdapterFactory } from '../../src/store/json-file.ts';
import { SafeJSONFile } from '../../src/store/safe-json-file.ts';

export class FullDisk {
  full = false;
  /** Names of files (`outbox.json`) whose writes fail as on a full disk even while `full` is off. */
  readonly fullFor = new Set<string>();
  /** Writes refused while full. */
  refused = 0;

  readonly adapter: AdapterFactory = (path) => {
    const real = new SafeJSONFile<unknown>(path);
    const io: Adapter<unknown> = {
      read: () => real.read(),
      write: async (data) => {
        if (this.full || this.fullFor.has(basename(path))) {
          this.refused++;
          throw Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', errno: -28, syscall: 'write' });
        }
        await real.write(data);
      },
    };
    return io;
  };
}
