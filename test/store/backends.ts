/**
 * The store's two backends for a test that runs its contract on both: the lowdb files in a temp dir, and a
 * real PostgreSQL (one server per test file, a fresh database per test). `stored` reads what the backend
 * holds now, bypassing the store under test (the files' JSON, or the rows read anew).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import { layoutOf, type FileLayout } from '../../src/store/pg/layout.ts';
import { PgDataFile } from '../../src/store/pg/pg-file.ts';
import { Store, type StoreOptions } from '../../src/store/store.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';

/** One backend, set up for one test at a time. */
export interface Backend {
  readonly name: 'files' | 'postgres';
  /** Whether it can run here (PostgreSQL installed). */
  readonly available: boolean;
  /** Once per test file. */
  start(): Promise<void>;
  /** Before each test: a fresh place for the data. */
  fresh(): Promise<void>;
  /** Open a store on `dir` (its data in the files of `dir`, or in this test's database). */
  open(dir: string, opts?: StoreOptions): Promise<Store>;
  /** What is stored now of one file, as its JSON would read; null when nothing is. */
  stored(dir: string, file: FileLayout['name']): Promise<Record<string, unknown> | null>;
  /** This test's database URL (postgres only). */
  readonly url: string | undefined;
  /** The server (postgres only), to stop and start. */
  readonly server: TestPostgres | undefined;
  /** After each test. */
  done(): Promise<void>;
  /** Once per test file. */
  stop(): Promise<void>;
}

const quiet = pino({ level: 'silent' });

/** The lowdb files. */
export function filesBackend(): Backend {
  return {
    name: 'files',
    available: true,
    url: undefined,
    server: undefined,
    start: async () => undefined,
    fresh: async () => undefined,
    open: (dir, opts) => Store.open(dir, opts),
    stored: async (dir, file) => {
      try {
        return JSON.parse(await readFile(join(dir, layoutOf(file).file), 'utf8')) as Record<string, unknown>;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    done: async () => undefined,
    stop: async () => undefined,
  };
}

/** A database of its own on `server` for one test: made now, its URL returned. */
export async function newDatabase(server: TestPostgres, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A real PostgreSQL. */
export function postgresBackend(): Backend {
  let server: TestPostgres | undefined;
  let url: string | undefined;
  let serial = 0;
  const pools: Database[] = [];
  const pool = (): Database => {
    if (!url) throw new Error('no database: call fresh() first');
    const db = openDatabase(url, quiet);
    pools.push(db);
    return db;
  };
  return {
    name: 'postgres',
    available: PG_BIN !== undefined,
    get url() {
      return url;
    },
    get server() {
      return server;
    },
    start: async () => {
      server = await startPostgres();
    },
    fresh: async () => {
      if (!server) throw new Error('start() first');
      serial += 1;
      url = await newDatabase(server, `t${process.pid}_${serial}`);
    },
    open: (dir, opts) => Store.open(dir, { ...opts, database: opts?.database ?? pool() }),
    stored: async (_dir, file) => {
      const db = pool();
      const doc = await new PgDataFile(db, layoutOf(file)).read();
      return doc as Record<string, unknown> | null;
    },
    done: async () => {
      await Promise.all(pools.splice(0).map((p) => p.end()));
    },
    stop: async () => {
      await server?.close();
    },
  };
}

/** Both backends, for `describe.each`. */
export const BACKENDS: Backend[] = [filesBackend(), postgresBackend()];
