/**
 * The avatars' own files in PostgreSQL (`avatar_files`: one row per file, keyed by avatar and name), so that any
 * machine can carry any avatar (docs/many-machines.md). Each call is one statement: a write replaces the file at
 * once, an append adds to it in place. A removed avatar's files move under `removed/<name>-<time>` (a row of
 * `removed_avatars` holds its record) and are deleted a week later.
 */
import type { Database } from '../../db/connect.ts';
import { REMOVED_KEPT_MS, retiredName, type AvatarFiles, type AvatarFolder } from '../avatar-files.ts';
import { transaction } from './pg-file.ts';

/** The name under which removed avatars' files are kept (an avatar's name never holds a `/`). */
const REMOVED = 'removed/';

class PgFolder implements AvatarFolder {
  constructor(
    private readonly db: Database,
    readonly avatar: string,
  ) {}

  where(name: string): string {
    return `postgres:avatar_files/${this.avatar}/${name}`;
  }

  async read(name: string): Promise<string | null> {
    const res = await this.db.query<{ body: Buffer }>('select body from avatar_files where avatar = $1 and name = $2', [this.avatar, name]);
    return res.rows[0] ? res.rows[0].body.toString('utf8') : null;
  }

  async tail(name: string, bytes: number): Promise<{ text: string; cut: boolean }> {
    const res = await this.db.query<{ body: Buffer; cut: boolean }>(
      `select substring(body from greatest(1, octet_length(body) - $3 + 1)) as body, octet_length(body) > $3 as cut
       from avatar_files where avatar = $1 and name = $2`,
      [this.avatar, name, bytes],
    );
    const row = res.rows[0];
    return row ? { text: row.body.toString('utf8'), cut: row.cut } : { text: '', cut: false };
  }

  async write(name: string, text: string): Promise<void> {
    await this.db.query(
      `insert into avatar_files (avatar, name, body) values ($1, $2, $3)
       on conflict (avatar, name) do update set body = excluded.body, updated_at = now()`,
      [this.avatar, name, Buffer.from(text, 'utf8')],
    );
  }

  async append(name: string, text: string): Promise<void> {
    await this.db.query(
      `insert into avatar_files (avatar, name, body) values ($1, $2, $3)
       on conflict (avatar, name) do update set body = avatar_files.body || excluded.body, updated_at = now()`,
      [this.avatar, name, Buffer.from(text, 'utf8')],
    );
  }

  async list(dir: string): Promise<string[]> {
    const prefix = dir === '' ? '' : `${dir.replace(/\/+$/, '')}/`;
    const res = await this.db.query<{ name: string }>('select name from avatar_files where avatar = $1 and starts_with(name, $2) order by name', [this.avatar, prefix]);
    return res.rows.map((r) => r.name.slice(prefix.length)).filter((n) => n !== '' && !n.includes('/'));
  }

  async remove(name: string): Promise<boolean> {
    const res = await this.db.query('delete from avatar_files where avatar = $1 and name = $2', [this.avatar, name]);
    return (res.rowCount ?? 0) > 0;
  }

  async rename(from: string, to: string): Promise<boolean> {
    return transaction(this.db, 'begin', async (client) => {
      const had = await client.query('select 1 from avatar_files where avatar = $1 and name = $2 for update', [this.avatar, from]);
      if ((had.rowCount ?? 0) === 0) return false;
      // As a rename on disk: a file of the new name is replaced.
      await client.query('delete from avatar_files where avatar = $1 and name = $2', [this.avatar, to]);
      await client.query('update avatar_files set name = $3, updated_at = now() where avatar = $1 and name = $2', [this.avatar, from, to]);
      return true;
    });
  }
}

/**
 * @example
 * const files = new PgAvatarFiles(db);
 * await files.of('steve').write('TASK.md', md);
 */
export class PgAvatarFiles implements AvatarFiles {
  constructor(private readonly db: Database) {}

  of(avatar: string): AvatarFolder {
    return new PgFolder(this.db, avatar);
  }

  async renameAvatar(from: string, to: string): Promise<void> {
    await this.db.query('update avatar_files set avatar = $2 where avatar = $1', [from, to]);
  }

  async retire(avatar: string, record: unknown, now: Date): Promise<string> {
    const folder = `${REMOVED}${retiredName(avatar, now)}`;
    await transaction(this.db, 'begin', async (client) => {
      await client.query('insert into removed_avatars (folder, avatar, removed_at, record) values ($1, $2, $3, $4)', [folder, avatar, now, JSON.stringify(record)]);
      await client.query('update avatar_files set avatar = $2 where avatar = $1', [avatar, folder]);
    });
    return folder;
  }

  async purgeRetired(now: Date): Promise<string[]> {
    return transaction(this.db, 'begin', async (client) => {
      const res = await client.query<{ folder: string }>('delete from removed_avatars where removed_at <= $1 returning folder', [new Date(now.getTime() - REMOVED_KEPT_MS)]);
      const folders = res.rows.map((r) => r.folder);
      if (folders.length > 0) await client.query('delete from avatar_files where avatar = any($1::text[])', [folders]);
      return folders.map((f) => f.slice(REMOVED.length));
    });
  }
}
