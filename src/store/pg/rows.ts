/**
 * A data file as rows, and back (pure functions; `pg-file.ts` talks to the database): the rows a document
 * is made of, their order, what changed since the rows the database is known to hold, and the document the
 * rows of the database make. See `layout.ts` for the tables.
 */
import { createHash } from 'node:crypto';
import type { FileLayout } from './layout.ts';

/** The pseudo-table of a file's fields that are not collections (its version, the outbox's `seq`…): `store_fields`. */
export const FIELDS = 'store_fields';

/** One row: its place among the records of its table, and its JSON. */
export interface Row {
  ord: number;
  text: string;
}

/** What the database holds of one table, as far as this process knows: a row, or `null` when it is not known (a write that failed may or may not have changed it). */
export type Known = Map<string, Row | null>;

/** One row to insert or update. */
export interface Upsert {
  key: string;
  ord: number;
  text: string;
}

/** The changes of one table. */
export interface TableChange {
  table: string;
  upserts: Upsert[];
  deletes: string[];
}

/** How long a key made of a record's content is: `~` and 24 characters of its hash (a twin's key adds `~n`). */
export const CONTENT_KEY_LENGTH = 25;

/** A key made of a record's content, for records without an id. */
function contentKey(text: string): string {
  return `~${createHash('sha256').update(text).digest('base64url').slice(0, CONTENT_KEY_LENGTH - 1)}`;
}

/** The prefix of a map's key written as JSON: one PostgreSQL cannot hold as text (a NUL), or one that begins so itself. */
const JSON_KEY = '~json:';

/** A map's key as a row's key (see {@link JSON_KEY}). */
function mapKey(k: string): string {
  return k.includes('\u0000') || k.startsWith(JSON_KEY) ? `${JSON_KEY}${JSON.stringify(k)}` : k;
}

/** A row's key as the map's key again. */
function fromMapKey(key: string): string {
  return key.startsWith(JSON_KEY) ? (JSON.parse(key.slice(JSON_KEY.length)) as string) : key;
}

/** Per table, the content keys of the records of the last call (a record's JSON → its key), so unchanged records are not hashed again. */
export type KeyMemo = Map<string, Map<string, string>>;

/**
 * The keyed records of each table of `data` in their order, and its other fields under {@link FIELDS}. Each
 * record's JSON is taken now, so the data may change as soon as this returns. `memo` keeps the content keys
 * from one call to the next.
 */
export function recordsOf(layout: FileLayout, data: Record<string, unknown>, memo?: KeyMemo): Map<string, { key: string; text: string }[]> {
  const out = new Map<string, { key: string; text: string }[]>();
  const collected = new Set(layout.collections.map((c) => c.field));
  out.set(
    FIELDS,
    Object.keys(data)
      .filter((k) => !collected.has(k) && data[k] !== undefined)
      .map((k) => ({ key: k, text: JSON.stringify(data[k]) })),
  );
  for (const c of layout.collections) {
    const value = data[c.field];
    const records: { key: string; text: string }[] = [];
    const seen = new Map<string, number>();
    const before = memo?.get(c.table);
    const hashed = new Map<string, string>();
    const hash = (text: string): string => {
      const key = hashed.get(text) ?? before?.get(text) ?? contentKey(text);
      hashed.set(text, key);
      return key;
    };
    const add = (id: string | undefined, text: string): void => {
      // A key PostgreSQL cannot hold as text (a NUL) falls back to the content's.
      const base = id === undefined || id.includes('\u0000') ? hash(text) : id;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      records.push({ key: n === 0 ? base : `${base}~${n}`, text });
    };
    if (c.kind === 'list' && Array.isArray(value)) {
      for (const item of value as unknown[]) add(c.id?.(item), JSON.stringify(item));
    } else if (c.kind === 'map' && value !== null && typeof value === 'object') {
      for (const k of Object.keys(value)) records.push({ key: mapKey(k), text: JSON.stringify((value as Record<string, unknown>)[k]) });
    }
    out.set(c.table, records);
    memo?.set(c.table, hashed);
  }
  return out;
}

/**
 * Give each record an `ord` that keeps them in order, keeping the ord a record already has wherever the order
 * allows, so a record added at the end or removed anywhere changes no other row.
 *
 * @example
 * placed([{ key: 'b' }, { key: 'c' }], new Map([['a', { ord: 0, text: '' }], ['b', { ord: 1, text: '' }]])) // b: 1, c: 2
 */
export function placed(records: readonly { key: string }[], known: Known): number[] {
  const ords: (number | undefined)[] = [];
  let last = -Infinity;
  for (const r of records) {
    const had = known.get(r.key)?.ord;
    if (had !== undefined && Number.isFinite(had) && had > last) {
      ords.push(had);
      last = had;
    } else ords.push(undefined);
  }
  // The records between two kept ones share the room between them.
  let i = 0;
  while (i < ords.length) {
    if (ords[i] !== undefined) {
      i++;
      continue;
    }
    let j = i;
    while (j < ords.length && ords[j] === undefined) j++;
    const lo = i > 0 ? (ords[i - 1] as number) : undefined;
    const hi = j < ords.length ? (ords[j] as number) : undefined;
    const n = j - i;
    for (let k = 0; k < n; k++) {
      ords[i + k] = lo === undefined && hi === undefined ? k : hi === undefined ? (lo as number) + 1 + k : lo === undefined ? hi - (n - k) : lo + ((hi - lo) * (k + 1)) / (n + 1);
    }
    i = j;
  }
  const out = ords as number[];
  // Where the room ran out (numbers too close to split), every record is numbered afresh.
  for (let k = 1; k < out.length; k++) if (!((out[k] as number) > (out[k - 1] as number))) return out.map((_, n) => n);
  return out;
}

/** The rows of one table as they should be, with their ords placed against what is known. */
export function rowsOf(records: readonly { key: string; text: string }[], known: Known): Map<string, Row> {
  const ords = placed(records, known);
  const rows = new Map<string, Row>();
  records.forEach((r, i) => rows.set(r.key, { ord: ords[i] as number, text: r.text }));
  return rows;
}

/** What must be written so that a table that holds `known` holds `next`. */
export function changesOf(table: string, next: ReadonlyMap<string, Row>, known: Known): TableChange {
  const upserts: Upsert[] = [];
  for (const [key, row] of next) {
    const had = known.get(key);
    if (!had || had.ord !== row.ord || had.text !== row.text) upserts.push({ key, ord: row.ord, text: row.text });
  }
  const deletes = [...known.keys()].filter((key) => !next.has(key));
  return { table, upserts, deletes };
}

/**
 * The document the rows make: the fields, each list in its order, each map. `null` when the file has no row
 * at all (it was never written); records without the file's fields make a document its schema refuses.
 */
export function documentOf(layout: FileLayout, tables: ReadonlyMap<string, readonly { key: string; text: string }[]>): Record<string, unknown> | null {
  const fields = tables.get(FIELDS) ?? [];
  if ([...tables.values()].every((rows) => rows.length === 0)) return null;
  const doc: Record<string, unknown> = {};
  // Defined, not assigned: a key such as `__proto__` stays a key like any other (`src/keyed.ts`).
  const put = (o: Record<string, unknown>, k: string, v: unknown): void => void Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const f of fields) put(doc, f.key, JSON.parse(f.text));
  for (const c of layout.collections) {
    const rows = tables.get(c.table) ?? [];
    if (c.kind === 'list') put(doc, c.field, rows.map((r) => JSON.parse(r.text) as unknown));
    else {
      const map: Record<string, unknown> = {};
      for (const r of rows) put(map, fromMapKey(r.key), JSON.parse(r.text));
      put(doc, c.field, map);
    }
  }
  return doc;
}
