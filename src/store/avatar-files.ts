/**
 * An avatar's own files (TASK.md, its lab log, the skills it kept, its engine sessions), by avatar and file
 * name, wherever they are kept: in `DATA_DIR/avatars/<name>/` on this machine ({@link DiskAvatarFiles}, the
 * default), or in PostgreSQL with the store (`src/store/pg/avatar-files.ts`), so that any machine can carry any
 * avatar (docs/many-machines.md). A name may hold one folder (`skills/dig.json`). Every module that reads or
 * writes these files goes through here.
 */
import { appendFile, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeAtomic } from './atomic-write.ts';

/** A removed avatar's files are kept this long, then deleted. */
export const REMOVED_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** The files of one avatar. Missing files read as null; other failures (a disk or database that refuses) throw. */
export interface AvatarFolder {
  readonly avatar: string;
  /** Where a file is, for logs and errors (a path, or the database's table). */
  where(name: string): string;
  /** The file's text, or null when there is none. */
  read(name: string): Promise<string | null>;
  /** The last `bytes` of the file as text (all of it when shorter), and whether it was cut; empty when there is none. */
  tail(name: string, bytes: number): Promise<{ text: string; cut: boolean }>;
  /** Replace the file with `text` at once: a reader (or a restart) sees the old text or the new, never a part. */
  write(name: string, text: string): Promise<void>;
  /** Add `text` at the end of the file (made when missing). */
  append(name: string, text: string): Promise<void>;
  /** The names of the files in the folder `dir` of the avatar's (`skills`), without the folder; none when it is missing. */
  list(dir: string): Promise<string[]>;
  /** Delete the file; false when there was none. */
  remove(name: string): Promise<boolean>;
  /** Give the file another name (a file of that name is replaced, as a rename on disk does); false when there was none. */
  rename(from: string, to: string): Promise<boolean>;
}

/** Every avatar's files. */
export interface AvatarFiles {
  /** The files of `avatar`. */
  of(avatar: string): AvatarFolder;
  /** Move an avatar's files to its new name (nothing to move when it has none yet). */
  renameAvatar(from: string, to: string): Promise<void>;
  /**
   * Keep a removed avatar's files aside for {@link REMOVED_KEPT_MS}, with `record` (its record and history, enough
   * to bring it back by hand) beside them. Returns where, as said to its owner (`removed/<name>-<time>`).
   */
  retire(avatar: string, record: unknown, now: Date): Promise<string>;
  /** Delete the removed avatars' files kept longer than {@link REMOVED_KEPT_MS}. Returns their names. */
  purgeRetired(now: Date): Promise<string[]>;
}

/** The name under which a removed avatar's files are kept: `<name>-<time>`. */
export function retiredName(avatar: string, now: Date): string {
  return `${avatar}-${now.toISOString().replace(/[:.]/g, '-')}`;
}

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/** The file beside a removed avatar's own files: its record and history. */
const REMOVED_RECORD = 'removed-avatar.json';

/** One avatar's folder on disk. */
class DiskFolder implements AvatarFolder {
  constructor(
    readonly avatar: string,
    private readonly dir: string,
  ) {}

  where(name: string): string {
    return join(this.dir, name);
  }

  async read(name: string): Promise<string | null> {
    try {
      return await readFile(this.where(name), 'utf8');
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async tail(name: string, bytes: number): Promise<{ text: string; cut: boolean }> {
    let handle;
    try {
      handle = await open(this.where(name), 'r');
    } catch (err) {
      if (missing(err)) return { text: '', cut: false };
      throw err;
    }
    try {
      const { size } = await handle.stat();
      const start = Math.max(0, size - bytes);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      // A cut UTF-8 character at the start becomes U+FFFD; it is in the part a reader drops.
      return { text: buffer.toString('utf8'), cut: start > 0 };
    } finally {
      await handle.close();
    }
  }

  async write(name: string, text: string): Promise<void> {
    await mkdir(dirname(this.where(name)), { recursive: true });
    await writeAtomic(this.where(name), text);
  }

  async append(name: string, text: string): Promise<void> {
    await mkdir(dirname(this.where(name)), { recursive: true });
    await appendFile(this.where(name), text, 'utf8');
  }

  async list(dir: string): Promise<string[]> {
    try {
      return await readdir(join(this.dir, dir));
    } catch (err) {
      if (missing(err)) return [];
      throw err;
    }
  }

  async remove(name: string): Promise<boolean> {
    try {
      await rm(this.where(name));
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }

  async rename(from: string, to: string): Promise<boolean> {
    try {
      await rename(this.where(from), this.where(to));
      return true;
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
  }
}

/**
 * The avatars' files in `DATA_DIR/avatars/<name>/`; a removed avatar's folder moves to
 * `DATA_DIR/removed/<name>-<time>/` with `removed-avatar.json` beside its files.
 *
 * @example
 * const files = new DiskAvatarFiles(config.DATA_DIR);
 * await files.of('steve').read('TASK.md');
 */
export class DiskAvatarFiles implements AvatarFiles {
  constructor(private readonly dataDir: string) {}

  /** The files of `avatar` in the folder `dir` on disk (a test's or a tool's own folder). */
  static folderAt(dir: string, avatar: string): AvatarFolder {
    return new DiskFolder(avatar, dir);
  }

  /** The folder of an avatar's files. */
  dir(avatar: string): string {
    return join(this.dataDir, 'avatars', avatar);
  }

  of(avatar: string): AvatarFolder {
    return new DiskFolder(avatar, this.dir(avatar));
  }

  async renameAvatar(from: string, to: string): Promise<void> {
    try {
      await rename(this.dir(from), this.dir(to));
    } catch (err) {
      if (!missing(err)) throw err;
    }
  }

  async retire(avatar: string, record: unknown, now: Date): Promise<string> {
    const shown = `removed/${retiredName(avatar, now)}`;
    const target = join(this.dataDir, shown);
    await mkdir(join(this.dataDir, 'removed'), { recursive: true });
    try {
      await rename(this.dir(avatar), target);
    } catch (err) {
      // An avatar that never wrote a file has no folder: its record is kept all the same.
      if (!missing(err)) throw err;
      await mkdir(target, { recursive: true });
    }
    await writeFile(join(target, REMOVED_RECORD), `${JSON.stringify(record, null, 2)}\n`, 'utf8');
    return shown;
  }

  async purgeRetired(now: Date): Promise<string[]> {
    const removed = join(this.dataDir, 'removed');
    let names: string[];
    try {
      names = await readdir(removed);
    } catch (err) {
      if (missing(err)) return [];
      throw err;
    }
    const gone: string[] = [];
    for (const name of names) {
      const folder = join(removed, name);
      if (now.getTime() - (await removedAt(folder)) < REMOVED_KEPT_MS) continue;
      await rm(folder, { recursive: true, force: true });
      gone.push(name);
    }
    return gone;
  }
}

/** When a removed avatar's folder was removed: from its record, else the folder's own time. */
async function removedAt(folder: string): Promise<number> {
  try {
    const { removedAt: at } = JSON.parse(await readFile(join(folder, REMOVED_RECORD), 'utf8')) as { removedAt?: string };
    const t = Date.parse(at ?? '');
    if (Number.isFinite(t)) return t;
  } catch (err) {
    if (!missing(err) && !(err instanceof SyntaxError)) throw err;
  }
  return (await stat(folder)).mtimeMs;
}
