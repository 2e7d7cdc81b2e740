/**
 * Where each record of the data files lives in PostgreSQL (docs/many-machines.md "The store in PostgreSQL"):
 * every list or map of a file is a table with one row per record (`key`, `ord`, `body`), and the file's
 * other fields (its version, the outbox's sequence, the next schedule id) are rows of `store_fields`. The
 * tables are made by `src/db/migrations/0002_store.ts`.
 *
 * A record's key is its natural id where it has one (an avatar's name, a post's id), so that a record changed
 * in place is one row updated; records without one are keyed by a hash of their content (a change is then
 * the old row deleted and the new one inserted). `ord` keeps the records in their order in the file.
 */

/** One list or map of a data file, and its table. */
export interface Collection {
  /** The field of the file (`avatars`). */
  field: string;
  /** Its table (`avatars`). */
  table: string;
  /** A list of records, or a map (a keyed record: the map's key is the row's key). */
  kind: 'list' | 'map';
  /** A list record's natural id; records without one are keyed by their content. */
  id?: (record: unknown) => string;
}

/** One data file: its name in the store, its file name (as the lowdb store calls it), its collections. */
export interface FileLayout {
  /** `state`, `outbox`, `record` or `schedules`: the {@link import('../store.ts').Store}'s name for it. */
  name: 'state' | 'outbox' | 'record' | 'schedules';
  /** The lowdb file it replaces (`state.json`): its name in `store_fields` and in logs. */
  file: string;
  collections: readonly Collection[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? '');
/** The id of a record that is one of its fields. */
const by =
  (field: string) =>
  (r: unknown): string =>
    str((r as Record<string, unknown> | null)?.[field]);

/** The four data files, table by table. */
export const LAYOUT: readonly FileLayout[] = [
  {
    name: 'state',
    file: 'state.json',
    collections: [
      { field: 'avatars', table: 'avatars', kind: 'list', id: by('name') },
      { field: 'persons', table: 'persons', kind: 'list', id: by('id') },
      { field: 'links', table: 'links', kind: 'list' },
      { field: 'servers', table: 'servers', kind: 'list', id: by('id') },
      { field: 'shares', table: 'shares', kind: 'list' },
      { field: 'streams', table: 'streams', kind: 'list' },
      { field: 'readMarks', table: 'read_marks', kind: 'map' },
      { field: 'mcpTokens', table: 'mcp_tokens', kind: 'list', id: by('hash') },
      { field: 'relays', table: 'relays', kind: 'list' },
      { field: 'sayCommands', table: 'say_commands', kind: 'list' },
      { field: 'places', table: 'places', kind: 'list', id: (r) => `${by('avatar')(r).toLowerCase()} ${by('server')(r)} ${by('name')(r)}` },
      { field: 'handled', table: 'handled', kind: 'list', id: by('key') },
    ],
  },
  {
    name: 'outbox',
    file: 'outbox.json',
    collections: [
      { field: 'pending', table: 'outbox_posts', kind: 'list', id: by('id') },
      { field: 'answered', table: 'outbox_answered', kind: 'list', id: str },
    ],
  },
  {
    name: 'record',
    file: 'goal-record.json',
    collections: [
      { field: 'goals', table: 'goal_records', kind: 'list' },
      { field: 'usage', table: 'usage', kind: 'map' },
    ],
  },
  {
    name: 'schedules',
    file: 'schedules.json',
    collections: [
      { field: 'schedules', table: 'schedules', kind: 'list', id: by('id') },
      { field: 'digests', table: 'digests', kind: 'list', id: by('dest') },
      { field: 'played', table: 'played', kind: 'map' },
    ],
  },
];

/** The layout of one file by its store name. */
export function layoutOf(name: FileLayout['name']): FileLayout {
  const found = LAYOUT.find((f) => f.name === name);
  if (!found) throw new Error(`no layout for ${name}`);
  return found;
}

/** Every table that holds records of the data files (for `migrate --from-files` and the tests). */
export const RECORD_TABLES: readonly string[] = LAYOUT.flatMap((f) => f.collections.map((c) => c.table));
