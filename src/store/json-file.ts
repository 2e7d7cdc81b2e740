/**
 * One lowdb JSON file, validated with zod after read and written through one
 * serialised writer.
 *
 * Writes are atomic (lowdb's steno: temp file, then rename, see
 * {@link SafeJSONFile}), serialised per file, and coalesced: any number of
 * {@link DataFile.update} calls in the same tick become one write, and writes
 * requested while one is in flight collapse into a single follow-up write.
 *
 * A write that fails (disk full, read-only…) is not forgotten: the data stays
 * in memory, the file says so ({@link DataFile.failure}, a `writeFailed`
 * event), and it writes again with a growing pause (up to
 * {@link RETRY_MAX_MS}) until the disk takes it (`recovered`). A
 * {@link DataFile.flush} tries once more at once instead of reporting a stale
 * failure, and throws {@link StoreWriteError} only when that write fails too.
 *
 * Only the draft {@link DataFile.update} hands its callback may be changed. A
 * checked file (`checked`, on with `STORE_CHECKS=on`, as in the test suite)
 * proves it: its data is frozen, and each update changes a copy that is
 * swapped in afterwards, so a write anywhere else throws. Unchecked, the draft
 * is the data itself (no copy per update).
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low, type Adapter } from 'lowdb';
import type { z } from 'zod';
import { StoreCorruptError, StoreWriteError } from '../errors.ts';
import { keepAside, parseQuarantining, type QuarantinedRecord } from './quarantine.ts';
import { cloneData, freezeData } from './readonly.ts';
import { SafeJSONFile } from './safe-json-file.ts';

/** The first pause before a failed write is tried again; it doubles up to {@link RETRY_MAX_MS}. */
export const RETRY_FIRST_MS = 500;
/** The longest pause between tries of a failed write. */
export const RETRY_MAX_MS = 30_000;

/**
 * Where a data file is kept when it is not a file on disk (PostgreSQL: `src/store/pg/pg-file.ts`): lowdb's
 * adapter, whose `read` gives null when nothing was ever written (then the file is new) and whose errors are
 * the source's own (not a corrupt file), and where records found unreadable at start are kept aside.
 */
export interface DataSource<T> extends Adapter<T> {
  /** Keep `records` aside; returns where (for the log line). */
  keepAside(records: readonly QuarantinedRecord[], now: Date): Promise<string>;
}

/** Builds the adapter of a data file (tests inject one whose writes fail), or the {@link DataSource} it is kept in. */
export type AdapterFactory = (path: string) => Adapter<unknown> | DataSource<unknown>;

function isSource<T>(io: Adapter<T> | DataSource<T>): io is DataSource<T> {
  return typeof (io as Partial<DataSource<T>>).keepAside === 'function';
}

/** Events of a {@link DataFile}. */
export interface DataFileEvents {
  /** A write failed; `first` is true for the first failure of a run of failures. */
  writeFailed: [err: Error, first: boolean];
  /** A write went through after failures. */
  recovered: [];
}

/**
 * @example
 * const file = await DataFile.open('/data/state.json', StateFileSchema, () => emptyState());
 * file.update((d) => { d.avatars.push(avatar); });
 * await file.flush();
 */
export class DataFile<S extends z.ZodType> extends EventEmitter<DataFileEvents> {
  private readonly db: Low<z.infer<S>>;
  private scheduled = false;
  /** A write is running; updates made meanwhile set {@link DataFile.dirty} for one follow-up write. */
  private active = false;
  private dirty = false;
  /** Called after each single write attempt (see {@link DataFile.afterAttempt}). */
  private attemptWaiters: Array<() => void> = [];
  /** Bumped by every update. */
  private changes = 0;
  /** The value of {@link DataFile.changes} that the last successful write carried. */
  private written = 0;
  private lastFailure: Error | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RETRY_FIRST_MS;
  /** Number of writes that reached the disk (for tests and benchmarks). */
  writes = 0;
  /** The records {@link DataFile.open} found unreadable and kept aside, and the side file that holds them. */
  quarantine: { side: string; records: readonly QuarantinedRecord[] } | undefined;

  private constructor(
    readonly path: string,
    db: Low<z.infer<S>>,
    /** Frozen data, and a copy as each update's draft (see the module comment). */
    private readonly checked: boolean,
  ) {
    super();
    this.db = db;
    if (checked) db.data = freezeData(db.data);
  }

  /**
   * Open (or create) the file. Throws {@link StoreCorruptError} and leaves the file untouched when it does not
   * parse, or does not validate beyond single records; records that do not validate on their own are kept
   * aside in a side file ({@link DataFile.quarantine}) and left out. Throws {@link StoreWriteError} when a new
   * file (or the side file) cannot be written.
   */
  static async open<S extends z.ZodType>(path: string, schema: S, defaults: () => z.infer<S>, adapter?: AdapterFactory, checked = false): Promise<DataFile<S>> {
    const io = (adapter ?? ((p: string) => new SafeJSONFile<unknown>(p)))(path) as Adapter<z.infer<S>> | DataSource<z.infer<S>>;
    const source = isSource(io) ? io : undefined;
    let raw: unknown = null;
    if (source) raw = await source.read();
    else {
      await mkdir(dirname(path), { recursive: true });
      if (existsSync(path)) {
        try {
          raw = await io.read();
        } catch (err) {
          throw new StoreCorruptError(path, `not valid JSON (${(err as Error).message.split('\n')[0]})`);
        }
      }
    }
    const existed = raw !== null;
    let quarantined: QuarantinedRecord[] = [];
    const db = new Low<z.infer<S>>(io, defaults());
    if (existed) {
      const parsed = parseQuarantining(raw, schema);
      if ('issue' in parsed) throw new StoreCorruptError(path, `${parsed.issue.path.join('.') || '(root)'}: ${parsed.issue.message}`);
      db.data = parsed.data;
      quarantined = parsed.taken;
    }
    const file = new DataFile(path, db, checked);
    if (quarantined.length > 0) {
      try {
        file.quarantine = { side: source ? await source.keepAside(quarantined, new Date()) : await keepAside(path, quarantined, new Date()), records: quarantined };
      } catch (err) {
        throw new StoreWriteError(path, err);
      }
      // The file is written again without them (they are in the side file).
      file.update(() => undefined);
    }
    if (!existed) {
      file.scheduleWrite();
      file.changes++;
      try {
        await file.flush();
      } finally {
        file.close();
      }
    }
    return file;
  }

  /** The current data: read it; change it only through {@link DataFile.update} (frozen when checked). */
  get data(): z.infer<S> {
    return this.db.data;
  }

  /** The error of the last write while writes are failing, else undefined. */
  get failure(): Error | undefined {
    return this.lastFailure;
  }

  /** A number that grows with every update; {@link DataFile.changedSince} compares against it. */
  get version(): number {
    return this.changes;
  }

  /** Whether an update was made after `version` was read. */
  changedSince(version: number): boolean {
    return this.changes > version;
  }

  /**
   * Change the data in memory now and schedule a write (coalesced with other updates in this tick). `fn` gets
   * the draft: the only object it may change (when checked, a copy swapped in once `fn` returns; a throw
   * leaves the data as it was).
   */
  update<T>(fn: (draft: z.infer<S>) => T): T {
    let result: T;
    if (this.checked) {
      const draft = cloneData(this.db.data);
      result = fn(draft);
      this.db.data = freezeData(draft);
    } else {
      result = fn(this.db.data);
    }
    this.changes++;
    this.scheduleWrite();
    return result;
  }

  /**
   * Resolve once every update made so far is on disk. While writes are failing it writes once more at
   * once; if that fails too it throws {@link StoreWriteError} (and keeps trying in the background).
   */
  async flush(): Promise<void> {
    const target = this.changes;
    let retried = false;
    for (;;) {
      // An update scheduled in this tick has not started yet: let the microtask run first.
      while (this.scheduled) await Promise.resolve();
      // One write attempt at a time: done as soon as a write carried this change. Waiting for the writer to go
      // idle instead would wait for as long as updates keep coming during its writes (many avatars at work).
      while (this.active && this.written < target) await this.afterAttempt();
      if (this.written >= target) return;
      if (this.lastFailure) {
        if (retried) throw new StoreWriteError(this.path, this.lastFailure);
        retried = true;
      }
      this.clearRetry();
      if (!this.active) void this.writeUntilClean();
    }
  }

  /** Stop retrying in the background (the data stays in memory; a later update or flush writes again). */
  close(): void {
    this.clearRetry();
  }

  private scheduleWrite(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => {
      this.scheduled = false;
      if (this.active) this.dirty = true;
      else void this.writeUntilClean();
    });
  }

  /** Write, and write once more while updates came in during the last write: one disk write at a time, counted once each. */
  private async writeUntilClean(): Promise<void> {
    this.active = true;
    this.clearRetry();
    try {
      do {
        this.dirty = false;
        const carried = this.changes;
        try {
          await this.db.write();
        } catch (err) {
          const first = this.lastFailure === undefined;
          this.lastFailure = err instanceof Error ? err : new Error(String(err));
          this.emit('writeFailed', this.lastFailure, first);
          this.retryLater();
          this.attempted();
          return;
        }
        this.written = Math.max(this.written, carried);
        this.attempted();
        this.writes++;
        this.retryMs = RETRY_FIRST_MS;
        if (this.lastFailure) {
          this.lastFailure = undefined;
          this.emit('recovered');
        }
      } while (this.dirty);
    } finally {
      this.active = false;
    }
  }

  /** Resolves after the next write attempt, whether it succeeded or failed. */
  private afterAttempt(): Promise<void> {
    return new Promise((resolve) => this.attemptWaiters.push(resolve));
  }

  private attempted(): void {
    const waiters = this.attemptWaiters;
    this.attemptWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private retryLater(): void {
    this.clearRetry();
    const ms = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.scheduleWrite();
    }, ms);
    // A pending retry must not keep the process alive; shutdown flushes what is pending.
    this.retryTimer.unref();
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}
