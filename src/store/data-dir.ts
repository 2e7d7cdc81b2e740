/**
 * The data folder must be usable before anything starts: it exists (or can be
 * made), it is a folder, and mindlink can write in it. Otherwise start-up
 * stops with one line naming `DATA_DIR` and what is wrong, instead of a stack
 * trace from whichever part touched it first.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConfigError, writeFailureReason } from '../errors.ts';

/** What a failed mkdir/stat/write of the data folder means, in a few words. */
function problem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'is a file (or lies under one), not a folder';
  if (code === 'ENOENT') return 'cannot be created: a folder above it is missing';
  if (code === 'ENAMETOOLONG') return 'is too long a path';
  return `cannot be written: ${writeFailureReason(err)}`;
}

/**
 * Make sure `dir` is a folder mindlink can write in (created if missing); throws {@link ConfigError} with
 * one line (`config: DATA_DIR="…" is a file, not a folder`) when it is not.
 *
 * @example
 * await ensureDataDir(config.DATA_DIR);
 */
export async function ensureDataDir(dir: string): Promise<void> {
  const full = resolve(dir);
  const shown = `config: DATA_DIR=${JSON.stringify(dir)}${full === dir ? '' : ` (${full})`}`;
  try {
    await mkdir(dir, { recursive: true }).catch(async (err: unknown) => {
      // A recursive mkdir says ENOENT on a read-only file system; a plain one on the last folder tells the real reason.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(dir);
    });
    const s = await stat(dir);
    if (!s.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    const probe = join(dir, `.mindlink-write-test-${process.pid}`);
    await writeFile(probe, 'ok');
    await rm(probe, { force: true });
  } catch (err) {
    throw new ConfigError(`${shown} ${problem(err)}`);
  }
}
