/**
 * One data file kept in PostgreSQL, as a {@link DataFile}'s adapter: the store's document stays in memory (the
 * read path); each write diffs it against the rows the database is known to hold and writes only the rows that
 * changed, all of one write in one transaction (docs/many-machines.md "The store in PostgreSQL"). A write is
 * done once its transaction committed, so `Store.saved` and `flush` resolve only after the commit.
 *
 * A write that fails (the database down, a connection lost mid-way, the fence refused) leaves the rows it
 * touched unknown: the next write writes them again whatever they hold (or deletes them), so a commit whose
 * answer was lost is neither undone nor doubled.
 */
import type pg from 'pg';
import type { Database } from '../../db/connect.ts';
import { StoreFencedError } from '../../errors.ts';
import type { DataSource } from '../json-file.ts';
import type { QuarantinedRecord } from '../quarantine.ts';
import type { FileLayout } from './layout.ts';
import { changesOf, CONTENT_KEY_LENGTH, documentOf, FIELDS, recordsOf, rowsOf, type KeyMemo, type Known, type Row, type TableChange } from './rows.ts';

/**
 * A check made first in every write transaction of the store (on its connection): false stops the write
 * (rolled back, {@link StoreFencedError}). `Leases.held` on the writer's lease is the one to use.
 *
 * @example
 * const fence: Fence = (client) => Leases.held(client, 'frontend', me, epoch);
 */
export type Fence = (client: pg.ClientBase) => Promise<boolean>;

/** The row shape of a record table as read. */
interface RecordRow {
  key: string;
  ord: number;
  body: string;
}

/**
 * Run `fn` in a transaction (`begin` as given) on a connection of its own, committed when it returns, rolled
 * back when it throws. A connection that fails meanwhile (the server gone) is closed, not reused; its error
 * event is taken here (on a connection taken from the pool no one else listens, and an unheard one would
 * stop the process).
 *
 * @example
 * await transaction(db, 'begin', async (client) => { await client.query('…'); });
 */
export async function transaction<T>(db: Database, begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  let broken: Error | undefined;
  const lost = (err: Error): void => {
    broken = err;
  };
  client.on('error', lost);
  try {
    await client.query(begin);
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    if (!broken) {
      await client.query('rollback').catch((rollbackErr: unknown) => {
        broken = rollbackErr as Error;
      });
    }
    throw err;
  } finally {
    client.removeListener('error', lost);
    client.release(broken);
  }
}

/** Write one table's changes on `client` (inside the caller's transaction). */
async function applyChange(client: pg.ClientBase, file: string, change: TableChange): Promise<void> {
  const { table, upserts, deletes } = change;
  if (table === FIELDS) {
    if (deletes.length > 0) await client.query('delete from store_fields where file = $1 and name = any($2::text[])', [file, deletes]);
    if (upserts.length > 0) {
      await client.query(
        `insert into store_fields (file, name, value) select $1, n, v::json from unnest($2::text[], $3::text[]) as u(n, v)
         on conflict (file, name) do update set value = excluded.value`,
        [file, upserts.map((u) => u.key), upserts.map((u) => u.text)],
      );
    }
    return;
  }
  if (deletes.length > 0) await client.query(`delete from ${table} where key = any($1::text[])`, [deletes]);
  if (upserts.length > 0) {
    await client.query(
      `insert into ${table} (key, ord, body) select k, o, b::json from unnest($1::text[], $2::float8[], $3::text[]) as u(k, o, b)
       on conflict (key) do update set ord = excluded.ord, body = excluded.body`,
      [upserts.map((u) => u.key), upserts.map((u) => u.ord), upserts.map((u) => u.text)],
    );
  }
}

/**
 * Write a whole document of the file `layout` as rows on `client`, inside the caller's transaction, into tables that
 * hold none of it yet (`migrate --from-files`). Returns how many records each table got.
 *
 * @example
 * await transaction(db, 'begin', (client) => writeDocument(client, layoutOf('state'), state));
 */
export async function writeDocument(client: pg.ClientBase, layout: FileLayout, data: unknown): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const [table, list] of recordsOf(layout, data as Record<string, unknown>)) {
    const none = new Map<string, Row | null>();
    const rows = table === FIELDS ? new Map(list.map((r) => [r.key, { ord: 0, text: r.text }])) : rowsOf(list, none);
    await applyChange(client, layout.file, changesOf(table, rows, none));
    if (table !== FIELDS) counts.set(table, list.length);
  }
  return counts;
}

/**
 * @example
 * const file = await DataFile.open('postgres:state', StateFileSchema, defaults, () => new PgDataFile(db, layoutOf('state')));
 */
export class PgDataFile implements DataSource<unknown> {
  /** Per table (and {@link FIELDS}), the rows the database holds as far as this process knows. */
  private readonly known = new Map<string, Known>();
  /** The content keys of the last write's records (see {@link recordsOf}). */
  private readonly keys: KeyMemo = new Map();

  constructor(
    private readonly db: Database,
    private readonly layout: FileLayout,
    private readonly fence?: Fence,
  ) {}

  /** The document the rows make, read in one snapshot; null when the file was never written. */
  async read(): Promise<unknown> {
    const tables = await transaction(this.db, 'begin isolation level repeatable read read only', async (client) => {
      const read = new Map<string, { key: string; ord: number; text: string }[]>();
      const fields = await client.query<{ name: string; value: string }>('select name, value::text as value from store_fields where file = $1 order by name', [this.layout.file]);
      read.set(
        FIELDS,
        fields.rows.map((r) => ({ key: r.name, ord: 0, text: r.value })),
      );
      for (const c of this.layout.collections) {
        const res = await client.query<RecordRow>(`select key, ord, body::text as body from ${c.table} order by ord, key`);
        read.set(
          c.table,
          res.rows.map((r) => ({ key: r.key, ord: Number(r.ord), text: r.body })),
        );
      }
      return read;
    });
    for (const [table, rows] of tables) this.known.set(table, new Map(rows.map((r) => [r.key, { ord: r.ord, text: r.text }])));
    // Records keyed by their content: their keys as read (without a twin's `~n`), so the first write hashes none of them again.
    for (const c of this.layout.collections) {
      if (c.kind === 'list' && !c.id) this.keys.set(c.table, new Map((tables.get(c.table) ?? []).map((r) => [r.text, r.key.slice(0, CONTENT_KEY_LENGTH)])));
    }
    return documentOf(this.layout, tables);
  }

  /** Write what changed since the rows known, in one transaction (nothing when nothing changed). */
  async write(data: unknown): Promise<void> {
    // Everything is taken from the data before the first await: it may change while the write runs.
    const records = recordsOf(this.layout, data as Record<string, unknown>, this.keys);
    const next = new Map<string, Map<string, Row>>();
    const changes: TableChange[] = [];
    for (const [table, list] of records) {
      const known = this.known.get(table) ?? new Map<string, Row | null>();
      const rows = table === FIELDS ? new Map(list.map((r) => [r.key, { ord: 0, text: r.text }])) : rowsOf(list, known);
      next.set(table, rows);
      const change = changesOf(table, rows, known);
      if (change.upserts.length > 0 || change.deletes.length > 0) changes.push(change);
    }
    if (changes.length === 0) return;
    try {
      await transaction(this.db, 'begin', async (client) => {
        if (this.fence && !(await this.fence(client))) throw new StoreFencedError(this.layout.file);
        for (const change of changes) await applyChange(client, this.layout.file, change);
      });
    } catch (err) {
      this.forget(changes);
      throw err;
    }
    for (const [table, rows] of next) this.known.set(table, rows);
  }

  /**
   * Keep records found unreadable at start in `store_quarantine` (the next write deletes their rows). Returns
   * where they are.
   */
  async keepAside(records: readonly QuarantinedRecord[], now: Date): Promise<string> {
    await this.db.query(
      `insert into store_quarantine (file, record, reason, value, at)
       select $1, r, why, v::json, $5 from unnest($2::text[], $3::text[], $4::text[]) as u(r, why, v)`,
      [this.layout.file, records.map((r) => r.record), records.map((r) => r.reason), records.map((r) => JSON.stringify(r.value) ?? 'null'), now],
    );
    return 'the table store_quarantine';
  }

  /** After a failed write, the rows it touched may hold the old values or the new: they are unknown until written again. */
  private forget(changes: readonly TableChange[]): void {
    for (const { table, upserts, deletes } of changes) {
      const known = this.known.get(table) ?? new Map<string, Row | null>();
      for (const u of upserts) known.set(u.key, null);
      for (const key of deletes) known.set(key, null);
      this.known.set(table, known);
    }
  }
}
