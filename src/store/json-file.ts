/**
 * One lowdb JSON file, validated with zod after read and written through one
 * serialised writer.
 *
 * Writes are atomic (lowdb's steno: temp file, then rename), serialised per
 * file, and coalesced: any number of {@link DataFile.update} calls in the same
 * tick become one write, and writes requested while one is in flight collapse
 * into a single follow-up write.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import type { z } from 'zod';
import { StoreCorruptError } from '../errors.ts';

/**
 * @example
 * const file = await DataFile.open('/data/state.json', StateFileSchema, () => emptyState());
 * file.update((d) => { d.avatars.push(avatar); });
 * await file.flush();
 */
export class DataFile<S extends z.ZodType> {
  private readonly db: Low<z.infer<S>>;
  private scheduled = false;
  /** A write is running; updates made meanwhile set {@link DataFile.dirty} for one follow-up write. */
  private active = false;
  private dirty = false;
  /** Settles once every write requested so far is on disk (or failed). */
  private writing: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  /** Number of writes that reached the disk (for tests and benchmarks). */
  writes = 0;

  private constructor(
    readonly path: string,
    db: Low<z.infer<S>>,
  ) {
    this.db = db;
  }

  /** Open (or create) the file. Throws {@link StoreCorruptError} and leaves the file untouched when it does not parse or validate. */
  static async open<S extends z.ZodType>(path: string, schema: S, defaults: () => z.infer<S>): Promise<DataFile<S>> {
    await mkdir(dirname(path), { recursive: true });
    const existed = existsSync(path);
    const db = new Low<z.infer<S>>(new JSONFile<z.infer<S>>(path), defaults());
    if (existed) {
      let raw: unknown;
      try {
        raw = await new JSONFile<unknown>(path).read();
      } catch (err) {
        throw new StoreCorruptError(path, `not valid JSON (${(err as Error).message.split('\n')[0]})`);
      }
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new StoreCorruptError(path, `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'does not match'}`);
      }
      db.data = parsed.data;
    }
    const file = new DataFile(path, db);
    if (!existed) {
      file.scheduleWrite();
      await file.flush();
    }
    return file;
  }

  /** The current data. Mutate it only through {@link DataFile.update}. */
  get data(): z.infer<S> {
    return this.db.data;
  }

  /** Change the data in memory now and schedule a write (coalesced with other updates in this tick). */
  update<T>(fn: (data: z.infer<S>) => T): T {
    const result = fn(this.db.data);
    this.scheduleWrite();
    return result;
  }

  /** Resolve once every update made so far is on disk. Rejects if the last write failed. */
  async flush(): Promise<void> {
    // An update scheduled in this tick has not started yet: let the microtask run first.
    while (this.scheduled) await Promise.resolve();
    await this.writing;
    if (this.failure) {
      const f = this.failure;
      this.failure = undefined;
      throw f;
    }
  }

  private scheduleWrite(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (this.active) this.dirty = true;
      else this.writing = this.writeUntilClean();
    });
  }

  /** Write, and write once more while updates came in during the last write: one disk write at a time, counted once each. */
  private async writeUntilClean(): Promise<void> {
    this.active = true;
    try {
      do {
        this.dirty = false;
        try {
          await this.db.write();
          this.writes++;
        } catch (err) {
          this.failure = err as Error;
        }
      } while (this.dirty);
    } finally {
      this.active = false;
    }
  }
}
