/**
 * Removing and renaming avatars, apart from their live parts: what else in
 * the data names them (links, shares, thought streams, the goal record) and
 * their folders. A removed avatar's folder moves to `DATA_DIR/removed/`,
 * with its record and history beside it, and is deleted a week later.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Avatar, GoalRecordEntry, RecordFile, StateFile, Usage } from '../store/schema.ts';

/** A removed avatar's folder is kept this long, then deleted. */
export const REMOVED_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** The file beside a removed avatar's own files: its record and history, enough to bring it back by hand. */
const REMOVED_RECORD = 'removed-avatar.json';

/** The folder removed avatars are kept in. */
export function removedDir(dataDir: string): string {
  return join(dataDir, 'removed');
}

/** Drop an avatar and everything in the state that names it: its links, shares of it alone, its thought streams. Returns how many links went. */
export function forgetAvatar(state: StateFile, name: string): number {
  const links = state.links.filter((l) => l.avatar === name).length;
  state.avatars = state.avatars.filter((a) => a.name !== name);
  state.links = state.links.filter((l) => l.avatar !== name);
  state.shares = state.shares.filter((s) => s.avatar?.toLowerCase() !== name.toLowerCase());
  state.streams = state.streams.filter((s) => s.avatar !== name);
  return links;
}

/** Give an avatar a new name everywhere the state names it. */
export function renameInState(state: StateFile, from: string, to: string): void {
  for (const a of state.avatars) if (a.name === from) a.name = to;
  for (const l of state.links) if (l.avatar === from) l.avatar = to;
  for (const s of state.shares) if (s.avatar?.toLowerCase() === from.toLowerCase()) s.avatar = to;
  for (const s of state.streams) if (s.avatar === from) s.avatar = to;
}

/** Take an avatar's history out of the goal record (it goes with the removed avatar's files). */
export function takeHistory(record: RecordFile, name: string): { goals: GoalRecordEntry[]; usage: Usage | undefined } {
  const goals = record.goals.filter((g) => g.avatar === name);
  const usage = record.usage[name];
  record.goals = record.goals.filter((g) => g.avatar !== name);
  delete record.usage[name];
  return { goals, usage };
}

/** Its history follows a renamed avatar. */
export function renameInRecord(record: RecordFile, from: string, to: string): void {
  for (const g of record.goals) if (g.avatar === from) g.avatar = to;
  const usage = record.usage[from];
  if (usage) {
    record.usage[to] = usage;
    delete record.usage[from];
  }
}

/**
 * Move an avatar's folder (TASK.md, lab log, engine session) to `removed/<name>-<time>/` and write
 * its record and history beside its files. Returns the folder.
 */
export async function moveToRemoved(
  dataDir: string,
  avatar: Avatar,
  history: { goals: GoalRecordEntry[]; usage: Usage | undefined },
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
