/**
 * Writing a whole file so that a reader (or a restart) sees the old text or the new, never a part:
 * the text goes to a temp file beside it, which is then renamed over it. A failed write leaves no
 * temp file behind. (The lowdb files have their own writer, `safe-json-file.ts`.)
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, rename, rm, writeFile } from 'node:fs/promises';

/** A temp file's name beside `path`, unique to this process and this write. */
function tempBeside(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * Replace `path` with `text` atomically; with `mode`, the file has exactly that mode whatever the umask.
 *
 * @example
 * await writeAtomic('data/avatars/steve/TASK.md', md);
 */
export async function writeAtomic(path: string, text: string, mode?: number): Promise<void> {
  const tmp = tempBeside(path);
  try {
    await writeFile(tmp, text, mode === undefined ? 'utf8' : { encoding: 'utf8', mode });
    if (mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * {@link writeAtomic}, synchronously: for a small file that must be on disk before the caller goes on.
 *
 * @example
 * writeAtomicSync('data/accounts/bob.passwords.json', JSON.stringify(passwords), 0o600);
 */
export function writeAtomicSync(path: string, text: string, mode?: number): void {
  const tmp = tempBeside(path);
  try {
    writeFileSync(tmp, text, mode === undefined ? 'utf8' : { encoding: 'utf8', mode });
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
