/**
 * The avatars' own files (TASK.md, lab log, kept skills, engine sessions: `src/store/pg/avatar-files.ts`), one row
 * per file, its bytes as written; and the removed avatars, whose files are kept a week under the name in `folder`.
 */
export const sql = `
create table avatar_files (
  avatar text not null,
  name text not null,
  body bytea not null,
  updated_at timestamptz not null default now(),
  primary key (avatar, name)
);
create table removed_avatars (
  folder text primary key,
  avatar text not null,
  removed_at timestamptz not null,
  record json not null
);
`;
