/**
 * `mindlink migrate --from-files DATA_DIR`: a lowdb data folder moved into an empty PostgreSQL store, once
 * (docs/many-machines.md "Moving a data folder into the database"). Every data file is read and validated with
 * its schema as the store reads it at start; the avatars' own files (TASK.md, lab logs, kept skills, engine
 * sessions) and the removed avatars' kept files go along byte for byte. All of it is one transaction: the
 * database holds all of it or none. The folder is only read.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Database } from '../../db/connect.ts';
import { migrate } from '../../db/migrate.ts';
import { parseQuarantining, type QuarantinedRecord } from '../quarantine.ts';
import { OutboxFileSchema, RecordFileSchema, ScheduleFileSchema, StateFileSchema } from '../schema.ts';
import { LAYOUT, type FileLayout } from './layout.ts';
import { transaction, writeDocument } from './pg-file.ts';

/** Each file's schema, by its store name. */
const SCHEMAS: Record<FileLayout['name'], z.ZodType> = {
  state: StateFileSchema,
  outbox: OutboxFileSchema,
  record: RecordFileSchema,
  schedules: ScheduleFileSchema,
};

/** The advisory lock two migrations at once take turns on (any fixed number). */
const LOCK_KEY = 727_110_002;

/** Why a migration was not made; the database is left as it was. */
export class MigrateRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrateRefusedError';
  }
}

/** What a migration moved. */
export interface MigrationReport {
  /** Per data file: how many records each table got (none when the folder had no such file), and the records left out. */
  files: { file: string; present: boolean; tables: Map<string, number>; setAside: QuarantinedRecord[] }[];
  /** The avatars' own files. */
  avatarFiles: { avatars: number; files: number; bytes: number };
  /** Removed avatars whose files were still kept. */
  removed: number;
}

/** One file of an avatar's folder: its name there (`skills/dig.json`) and its bytes. */
interface AvatarFile {
  name: string;
  body: Buffer;
}

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** The names in a folder (none when it is missing). */
async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (missing(err)) return [];
    throw err;
  }
}

/** Every file under `dir`, named from it with `/`; temp files a write left behind (`*.tmp`) are left out. */
async function filesUnder(dir: string, prefix = ''): Promise<AvatarFile[]> {
  const out: AvatarFile[] = [];
  for (const e of await entries(dir)) {
    const name = `${prefix}${e.name}`;
    if (e.isDirectory()) out.push(...(await filesUnder(join(dir, e.name), `${name}/`)));
    else if (e.isFile() && !e.name.endsWith('.tmp')) out.push({ name, body: await readFile(join(dir, e.name)) });
  }
  return out;
}

/** One data file read and validated; throws {@link MigrateRefusedError} naming the file when it does not read. */
async function readDataFile(dataDir: string, layout: FileLayout): Promise<{ data: unknown; taken: QuarantinedRecord[] } | null> {
  const path = join(dataDir, layout.file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (missing(err)) return null;
    throw err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new MigrateRefusedError(`${path} is not valid JSON (${(err as Error).message.split('\n')[0]}): fix it, then migrate again`);
  }
  const parsed = parseQuarantining(raw, SCHEMAS[layout.name]);
  if ('issue' in parsed) throw new MigrateRefusedError(`${path} does not match its schema (${parsed.issue.path.join('.') || '(root)'}: ${parsed.issue.message}): fix it, then migrate again`);
  return { data: parsed.data, taken: parsed.taken };
}

/**
 * Move the data folder `dataDir` into the store in `db` (its schema brought up to date first). Throws
 * {@link MigrateRefusedError} when the database holds a store already, when the folder holds no data file, or
 * when one does not read; nothing is written then.
 *
 * @example
 * const report = await migrateFromFiles(db, '/srv/mindlink/data');
 */
export async function migrateFromFiles(db: Database, dataDir: string, now: Date = new Date()): Promise<MigrationReport> {
  await migrate(db);
  const read = new Map<FileLayout['name'], { data: unknown; taken: QuarantinedRecord[] } | null>();
  for (const layout of LAYOUT) read.set(layout.name, await readDataFile(dataDir, layout));
  if ([...read.values()].every((r) => r === null)) {
    throw new MigrateRefusedError(`${dataDir} holds no mindlink data file (${LAYOUT.map((l) => l.file).join(', ')}): nothing to move`);
  }
  const avatars: { avatar: string; files: AvatarFile[] }[] = [];
  for (const e of await entries(join(dataDir, 'avatars'))) {
    if (e.isDirectory()) avatars.push({ avatar: e.name, files: await filesUnder(join(dataDir, 'avatars', e.name)) });
  }
  const removed: { folder: string; avatar: string; at: Date; record: unknown; files: AvatarFile[] }[] = [];
  for (const e of await entries(join(dataDir, 'removed'))) {
    if (!e.isDirectory()) continue;
    const folder = join(dataDir, 'removed', e.name);
    const all = await filesUnder(folder);
    const recordFile = all.find((f) => f.name === 'removed-avatar.json');
    let record: unknown = {};
    if (recordFile) {
      try {
        record = JSON.parse(recordFile.body.toString('utf8'));
      } catch (err) {
        if (!(err instanceof SyntaxError)) throw err;
      }
    }
    const at = Date.parse(String((record as { removedAt?: unknown } | null)?.removedAt ?? ''));
    removed.push({
      folder: `removed/${e.name}`,
      avatar: /^(.*)-\d{4}-\d\d-\d\dT/.exec(e.name)?.[1] ?? e.name,
      at: Number.isFinite(at) ? new Date(at) : (await stat(folder)).mtime,
      record,
      files: all.filter((f) => f !== recordFile),
    });
  }

  const report: MigrationReport = { files: [], avatarFiles: { avatars: avatars.length, files: 0, bytes: 0 }, removed: removed.length };
  await transaction(db, 'begin', async (client) => {
    await client.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
    const held = await client.query<{ n: string }>(
      `select (select count(*) from store_fields) + (select count(*) from avatar_files) + (select count(*) from removed_avatars) as n`,
    );
    if (Number(held.rows[0]?.n ?? 0) > 0) {
      throw new MigrateRefusedError('the database holds a mindlink store already: migrate --from-files moves a data folder into an empty one only, once. Nothing was changed');
    }
    for (const layout of LAYOUT) {
      const got = read.get(layout.name);
      if (!got) {
        report.files.push({ file: layout.file, present: false, tables: new Map(), setAside: [] });
        continue;
      }
      const tables = await writeDocument(client, layout, got.data);
      if (got.taken.length > 0) {
        await client.query(
          `insert into store_quarantine (file, record, reason, value, at) select $1, r, why, v::json, $5 from unnest($2::text[], $3::text[], $4::text[]) as u(r, why, v)`,
          [layout.file, got.taken.map((r) => r.record), got.taken.map((r) => r.reason), got.taken.map((r) => JSON.stringify(r.value) ?? 'null'), now],
        );
      }
      report.files.push({ file: layout.file, present: true, tables, setAside: got.taken });
    }
    const insert = async (avatar: string, files: readonly AvatarFile[]): Promise<void> => {
      for (const f of files) {
        await client.query('insert into avatar_files (avatar, name, body) values ($1, $2, $3)', [avatar, f.name, f.body]);
        report.avatarFiles.files += 1;
        report.avatarFiles.bytes += f.body.length;
      }
    };
    for (const a of avatars) await insert(a.avatar, a.files);
    for (const r of removed) {
      await client.query('insert into removed_avatars (folder, avatar, removed_at, record) values ($1, $2, $3, $4)', [r.folder, r.avatar, r.at, JSON.stringify(r.record) ?? '{}']);
      await insert(r.folder, r.files);
    }
  });
  return report;
}
