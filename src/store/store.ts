/**
 * The store: mindlink's lowdb files under DATA_DIR, or the same records in
 * PostgreSQL (`DATABASE_URL`: `src/store/pg/`, one row per record).
 *
 * - `state.json`: avatars (goal, state, parked goals, direction), persons and
 *   their identities, links, servers, guild shares, MCP tokens (hashed).
 * - `outbox.json`: posts not yet accepted by their platform.
 * - `goal-record.json`: every finished goal, and engine usage.
 * - `schedules.json`: scheduled goals, daily digests, minutes played.
 *
 * Each avatar's own files (TASK.md, lab log, kept skills, engine sessions)
 * live in `DATA_DIR/avatars/<name>/`, or in the database
 * ({@link Store.avatarFiles}).
 *
 * Every module reads the files through the read-only views here; each kind
 * of record has one owner, the only module that writes it, through its
 * writer in `src/store/writers/` (docs/architecture.md "Who writes what").
 */
import type { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { StoreWriteError } from '../errors.ts';
import { storeChecks } from '../config.ts';
import { keyed } from '../keyed.ts';
import { filesOf, holdFiles } from './files.ts';
import type { z } from 'zod';
import type { Database } from '../db/connect.ts';
import { migrate } from '../db/migrate.ts';
import { DiskAvatarFiles, type AvatarFiles } from './avatar-files.ts';
import { DataFile, type AdapterFactory, type DataFileEvents } from './json-file.ts';
import { PgAvatarFiles } from './pg/avatar-files.ts';
import { layoutOf, type FileLayout } from './pg/layout.ts';
import { PgDataFile, type Fence } from './pg/pg-file.ts';
import type { QuarantinedRecord } from './quarantine.ts';
import type { DeepReadonly } from './readonly.ts';
import { OutboxFileSchema, RecordFileSchema, ScheduleFileSchema, StateFileSchema, type Avatar, type OutboxFile, type RecordFile, type ScheduleFile, type StateFile, type Usage } from './schema.ts';

export * from './schema.ts';
export type { DeepReadonly } from './readonly.ts';

/** One data file as everyone but its records' owners sees it: read-only data, its version, its writes (and their events). */
export interface FileView<T> extends EventEmitter<DataFileEvents> {
  readonly path: string;
  /** The data now, read-only (frozen with `STORE_CHECKS=on`). */
  readonly data: DeepReadonly<T>;
  /** A number that grows with every change. */
  readonly version: number;
  /** Whether a change was made after `version` was read. */
  changedSince(version: number): boolean;
  /** Resolve once every change made so far is on disk; throws StoreWriteError while the disk refuses it. */
  flush(): Promise<void>;
  /** The error of the last write while writes are failing, else undefined. */
  readonly failure: Error | undefined;
  /** Writes that reached the disk (tests and benchmarks). */
  readonly writes: number;
  /** The records found unreadable at start and kept aside. */
  readonly quarantine: { side: string; records: readonly QuarantinedRecord[] } | undefined;
}

/** Options of {@link Store.open}. */
export interface StoreOptions {
  /** Logs failed writes (the first of a run at error) and their recovery. */
  log?: Logger;
  /** The adapter of each data file (default: lowdb's JSONFile through steno, leaving no temp file on failure). */
  adapter?: AdapterFactory;
  /** Frozen data, and a copy as each update's draft, so a write outside an owner's update throws (default: `STORE_CHECKS`). */
  checked?: boolean;
  /**
   * Keep the data in this PostgreSQL database instead of the files (`DATABASE_URL`; its schema is brought up to
   * date first): one row per record, each write one transaction (`src/store/pg/`). `adapter` is then unused.
   */
  database?: Database;
  /** With `database`: checked first in every write transaction; false refuses the write (see {@link Fence}). */
  fence?: Fence;
}

/** The versions of the data files at one moment; see {@link Store.mark}. */
export interface StoreMark {
  readonly state: number;
  readonly record: number;
  readonly schedules: number;
}

/**
 * @example
 * const store = await Store.open('data');
 * store.state.data.avatars;           // read-only; the owners write (`src/store/writers/`)
 * await store.flush();
 */
export class Store {
  private constructor(
    readonly dir: string,
    /** `state.json`: avatars, persons, links, servers, shares, streams, read marks, MCP tokens, chat relays, `/say` commands, places. */
    readonly state: FileView<StateFile>,
    /** `outbox.json`: posts on their way. */
    readonly outbox: FileView<OutboxFile>,
    /** `goal-record.json`: ended goals, usage. */
    readonly record: FileView<RecordFile>,
    /** `schedules.json`: scheduled goals, digests, minutes played. */
    readonly schedules: FileView<ScheduleFile>,
    /** The avatars' own files (TASK.md, lab log, kept skills, engine sessions): in `DATA_DIR/avatars/`, or in the database with the rest. */
    readonly avatarFiles: AvatarFiles,
  ) {}

  /**
   * Open every file; throws StoreCorruptError naming the first bad file (nothing is overwritten), or
   * StoreWriteError when a new file cannot be written.
   */
  static async open(dir: string, opts: StoreOptions = {}): Promise<Store> {
    const { database, fence } = opts;
    const checked = opts.checked ?? storeChecks();
    if (database) await migrate(database);
    // Each file's place: its path and adapter on disk, or its name and rows in the database.
    const open = <S extends z.ZodType>(name: FileLayout['name'], schema: S, defaults: () => z.infer<S>): Promise<DataFile<S>> => {
      const layout = layoutOf(name);
      if (database) return DataFile.open(`postgres:${layout.file}`, schema, defaults, () => new PgDataFile(database, layout, fence), checked);
      return DataFile.open(join(dir, layout.file), schema, defaults, opts.adapter, checked);
    };
    const state = await open('state', StateFileSchema, () => ({
      version: 1 as const,
      avatars: [],
      persons: [],
      links: [],
      servers: [],
      shares: [],
      streams: [],
      readMarks: keyed<string>(),
      mcpTokens: [],
      relays: [],
      sayCommands: [],
      places: [],
      handled: [],
    }));
    const outbox = await open('outbox', OutboxFileSchema, () => ({
      version: 1 as const,
      seq: 0,
      pending: [],
      answered: [],
    }));
    const record = await open('record', RecordFileSchema, () => ({
      version: 1 as const,
      goals: [],
      usage: keyed<Usage>(),
    }));
    const schedules = await open('schedules', ScheduleFileSchema, () => ({
      version: 1 as const,
      next: 1,
      schedules: [],
      digests: [],
      played: keyed<number>(),
    }));
    const store = new Store(dir, state, outbox, record, schedules, database ? new PgAvatarFiles(database) : new DiskAvatarFiles(dir));
    holdFiles(store, { state, outbox, record, schedules });
    const log = opts.log;
    for (const file of [state, outbox, record, schedules]) {
      for (const r of file.quarantine?.records ?? []) {
        log?.warn({ file: file.path, record: r.record, reason: r.reason, keptIn: file.quarantine?.side }, 'a record of a data file was unreadable: it is kept aside and left out');
      }
    }
    if (log) {
      for (const file of [state, outbox, record, schedules]) {
        file.on('writeFailed', (err, first) => {
          if (first) log.error({ err, file: file.path }, 'could not write a data file; the change is kept in memory and written again until it is on disk');
          else log.debug({ err, file: file.path }, 'writing the data file failed again');
        });
        file.on('recovered', () => log.info({ file: file.path }, 'data file written again'));
      }
    }
    return store;
  }

  /** Note the files' versions now, to confirm later with {@link Store.saved} that what changed since is on disk. */
  mark(): StoreMark {
    return { state: this.state.version, record: this.record.version, schedules: this.schedules.version };
  }

  /** Whether the state, the goal record or the schedules changed after `mark` (the outbox aside, as in {@link Store.saved}). */
  changedSince(mark: StoreMark): boolean {
    return this.state.changedSince(mark.state) || this.record.changedSince(mark.record) || this.schedules.changedSince(mark.schedules);
  }

  /**
   * Resolve once every change made to the state, the goal record and the schedules since `mark` is on disk; nothing to do
   * when nothing changed. Throws StoreWriteError (a UserError: "Could not save: disk full…") when the disk
   * refuses it, so a chat never acknowledges what is not saved. The outbox (posts on their way) is not
   * part of it: it is the chat itself, not a change the user asked for. `avatar` names the avatar the
   * refusal is about.
   */
  async saved(mark: StoreMark, avatar?: string | null): Promise<void> {
    const files = [
      ...(this.state.changedSince(mark.state) ? [this.state] : []),
      ...(this.record.changedSince(mark.record) ? [this.record] : []),
      ...(this.schedules.changedSince(mark.schedules) ? [this.schedules] : []),
    ];
    try {
      await Promise.all(files.map((f) => f.flush()));
    } catch (err) {
      throw err instanceof StoreWriteError ? err.about(avatar) : err;
    }
  }

  /**
   * Wait until every update is on disk, writing again now what failed before. Throws StoreWriteError for
   * the first file the disk still refuses (after trying every file).
   */
  async flush(): Promise<void> {
    const results = await Promise.allSettled([this.state.flush(), this.outbox.flush(), this.record.flush(), this.schedules.flush()]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Stop the background retries of failed writes (after the last {@link Store.flush}). */
  close(): void {
    for (const f of Object.values(filesOf(this))) f.close();
  }
}

/**
 * A new avatar record: no goal, no direction, stopped unless `playing`.
 *
 * @example
 * avatars.add(newAvatarRecord('steve', ownerId, 'embedded', 'scripted', false, new Date()));
 */
export function newAvatarRecord(name: string, owner: string, server: string, engine: Avatar['engine'], playing: boolean, now: Date): Avatar {
  return {
    name,
    server,
    owner,
    engine,
    playing,
    state: 'stopped',
    goal: null,
    parked: [],
    directions: { next: 1, open: [], done: [] },
    createdAt: now.toISOString(),
  };
}
