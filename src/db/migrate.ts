/**
 * The database's schema, kept by versioned SQL: each file of `src/db/migrations/` (`NNNN_name.ts`, exporting its
 * SQL as `sql`) runs once, in order of its number, in a transaction of its own, recorded in `schema_migrations`.
 * Processes starting at once (a core and its hosts) take turns through an advisory lock, so each runs once.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Database } from './connect.ts';

/** One step of the schema. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** The advisory lock's key while migrating (any fixed number, the same in every process). */
const LOCK_KEY = 727_110_001;

/**
 * The migrations in a folder: files named `NNNN_name.ts` (or `.js` in the build) exporting `sql`.
 *
 * @example
 * const steps = await loadMigrations(); // [{ version: 1, name: 'store', sql: '…' }, …]
 */
export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir).filter((f) => /^\d{4}_[a-z0-9_-]+\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'));
  const steps: Migration[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { sql?: unknown };
    if (typeof mod.sql !== 'string') throw new Error(`migration ${file} exports no sql`);
    const match = /^(\d{4})_(.+)\.(ts|js)$/.exec(file);
    if (!match) continue;
    steps.push({ version: Number(match[1]), name: match[2] ?? file, sql: mod.sql });
  }
  steps.sort((a, b) => a.version - b.version);
  for (let i = 1; i < steps.length; i++) {
    if (steps[i]?.version === steps[i - 1]?.version) throw new Error(`two migrations numbered ${steps[i]?.version}`);
  }
  return steps;
}

/**
 * Bring the database's schema up to date; returns the versions applied now (none when it was). A step that fails
 * is rolled back whole and named in the error; the steps before it stay.
 *
 * @example
 * await migrate(db); // → [1, 2] on a new database, [] after
 */
export async function migrate(db: Database, steps?: readonly Migration[]): Promise<number[]> {
  const todo = steps ?? (await loadMigrations());
  const client = await db.connect();
  const applied: number[] = [];
  try {
    await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    await client.query('create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())');
    const done = new Set((await client.query<{ version: number }>('select version from schema_migrations')).rows.map((r) => r.version));
    for (const step of todo) {
      if (done.has(step.version)) continue;
      try {
        await client.query('begin');
        await client.query(step.sql);
        await client.query('insert into schema_migrations (version, name) values ($1, $2)', [step.version, step.name]);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw new Error(`migration ${String(step.version).padStart(4, '0')}_${step.name} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(step.version);
    }
  } finally {
    // a connection that failed has lost its advisory lock with it: nothing is left to unlock
    await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch((err: unknown) => err);
    client.release();
  }
  return applied;
}
