/**
 * The store (docs/many-machines.md "The store in PostgreSQL"): one table per kind of record, one row per record
 * (`src/store/pg/layout.ts` says which field of which data file each table holds). `key` is the record's id (or
 * a hash of its content), `ord` its place in its list, `body` the record as JSON, exactly as the store wrote it.
 * `store_fields` holds each file's other fields; `store_quarantine` the records found unreadable at start.
 */
const RECORD_TABLES = [
  'avatars',
  'persons',
  'links',
  'servers',
  'shares',
  'streams',
  'read_marks',
  'mcp_tokens',
  'relays',
  'say_commands',
  'places',
  'handled',
  'outbox_posts',
  'outbox_answered',
  'goal_records',
  'usage',
  'schedules',
  'digests',
  'played',
];

export const sql = `
${RECORD_TABLES.map((t) => `create table ${t} (key text primary key, ord double precision not null, body json not null);`).join('\n')}
create table store_fields (
  file text not null,
  name text not null,
  value json not null,
  primary key (file, name)
);
create table store_quarantine (
  id bigserial primary key,
  file text not null,
  record text not null,
  reason text not null,
  value json,
  at timestamptz not null default now()
);
`;
