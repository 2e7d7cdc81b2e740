import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.ts';
import { ensureDataDir } from '../../src/store/data-dir.ts';

/** Whether this machine lets the test mount a read-only tmpfs (root). */
const canMount = ((): boolean => {
  const probe = mkdtempSync(join(tmpdir(), 'mindlink-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch (err) {
    process.stderr.write(`data-dir test: cannot mount here (${(err as Error).message.split('\n')[0]}); the read-only case is skipped\n`);
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();

describe('ensureDataDir', () => {
  let dir = '';
  let mounted = '';

  afterEach(async () => {
    if (mounted) execFileSync('umount', [mounted], { stdio: 'ignore' });
    mounted = '';
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a missing nested folder THEN it is created', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dd-'));
    await ensureDataDir(join(dir, 'a', 'b'));
    expect((await stat(join(dir, 'a', 'b'))).isDirectory()).toBe(true);
  });

  it('GIVEN DATA_DIR pointing at a file, or under one THEN one line names DATA_DIR and says it is a file', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dd-'));
    const file = join(dir, 'state');
    await writeFile(file, 'x');
    for (const target of [file, join(file, 'sub')]) {
      const err = await ensureDataDir(target).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toBe(`config: DATA_DIR=${JSON.stringify(target)} is a file (or lies under one), not a folder`);
    }
  });

  it.skipIf(!canMount)('GIVEN DATA_DIR on a read-only file system, existing or to be created THEN one line says it is read-only', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dd-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    mounted = dir;
    for (const target of [dir, join(dir, 'data')]) {
      const err = await ensureDataDir(target).catch((e: unknown) => e);
      expect((err as Error).message).toBe(`config: DATA_DIR=${JSON.stringify(target)} cannot be written: the data folder is read-only`);
    }
  });
});
