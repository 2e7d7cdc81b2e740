/**
 * Removing and renaming avatars: their folders (TASK.md, lab log, engine
 * sessions, the skills they kept). A removed avatar's folder moves to
 * `DATA_DIR/removed/`, with its record and history beside it, and is deleted
 * a week later. (The records that name an avatar are forgotten or renamed by
 * their owners: see `AvatarManager.remove`.)
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, GoalRecordEntry, Usage } from '../store/schema.ts';

/** A removed avatar's folder is kept this long, then deleted. */
export const REMOVED_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** The file beside a removed avatar's own files: its record and history, enough to bring it back by hand. */
const REMOVED_RECORD = 'removed-avatar.json';

/** The folder removed avatars are kept in. */
export function removedDir(dataDir: string): string {
  return join(dataDir, 'removed');
}

/**
 * Move an avatar's folder (TASK.md, lab log, engine session) to `removed/<name>-<time>/` and write
 * its record and history beside its files. Returns the folder.
 */
export async function moveToRemoved(
  dataDir: string,
  avatar: DeepReadonly<Avatar>,
  history: { goals: readonly GoalRecordEntry[]; usage: Usage | undefined },
  now: Date,
): Promise<string> {
  const target = join(removedDir(dataDir), `${avatar.name}-${now.toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(removedDir(dataDir), { recursive: true });
  try {
    await rename(join(dataDir, 'avatars', avatar.name), target);
  } catch (err) {
    // An avatar that never wrote a file has no folder: its record is kept all the same.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(target, { recursive: true });
  }
  await writeFile(join(target, REMOVED_RECORD), `${JSON.stringify({ removedAt: now.toISOString(), avatar, ...history }, null, 2)}\n`, 'utf8');
  return target;
}

/** Move a stopped avatar's folder to its new name (nothing to move when it has none yet). */
export async function renameFolder(dataDir: string, from: string, to: string): Promise<void> {
  try {
    await rename(join(dataDir, 'avatars', from), join(dataDir, 'avatars', to));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** When a removed avatar's folder was removed: from its record, else the folder's own time. */
async function removedAt(folder: string): Promise<number> {
  try {
    const { removedAt: at } = JSON.parse(await readFile(join(folder, REMOVED_RECORD), 'utf8')) as { removedAt?: string };
    const t = Date.parse(at ?? '');
    if (Number.isFinite(t)) return t;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && !(err instanceof SyntaxError)) throw err;
  }
  return (await stat(folder)).mtimeMs;
}

/** Delete the removed avatars' folders kept longer than {@link REMOVED_KEPT_MS}. Returns their names. */
export async function purgeRemoved(dataDir: string, now: Date): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(removedDir(dataDir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const gone: string[] = [];
  for (const name of names) {
    const folder = join(removedDir(dataDir), name);
    if (now.getTime() - (await removedAt(folder)) < REMOVED_KEPT_MS) continue;
    await rm(folder, { recursive: true, force: true });
    gone.push(name);
  }
  return gone;
}
