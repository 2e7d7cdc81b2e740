import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreWriteError } from '../../src/errors.ts';
import { SafeJSONFile, stenoTempFile } from '../../src/store/safe-json-file.ts';
import { Store } from '../../src/store/store.ts';
import { FullDisk } from '../fakes/full-disk.ts';
import { filesOf } from '../../src/store/files.ts';

const share = (guild: string) => ({ guild, role: 'r', server: 's' });

async function onDisk(dir: string): Promise<{ shares: { guild: string }[] }> {
  return JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { shares: { guild: string }[] };
}

describe('the store on a disk that refuses writes', () => {
  let dir: string;
  const stores: Store[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-full-'));
  });

  afterEach(async () => {
    for (const s of stores.splice(0)) s.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function open(disk: FullDisk): Promise<Store> {
    const store = await Store.open(dir, { adapter: disk.adapter });
    stores.push(store);
    return store;
  }

  it('GIVEN a full disk WHEN a change is confirmed THEN saved() throws "Could not save: disk full" and the change stays in memory', async () => {
    const disk = new FullDisk();
    const store = await open(disk);
    disk.full = true;
    const mark = store.mark();
    filesOf(store).state.update((s) => s.shares.push(share('g1')));
    const err = await store.saved(mark).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreWriteError);
    expect((err as StoreWriteError).code).toBe('not_saved');
    expect((err as Error).message).toMatch(/^Could not save: disk full\. /);
    expect(store.state.data.shares).toEqual([share('g1')]);
    expect((await onDisk(dir)).shares).toEqual([]);
  });

  it('GIVEN a failed write WHEN space is freed THEN the store writes it again by itself', async () => {
    const disk = new FullDisk();
    const store = await open(disk);
    disk.full = true;
    filesOf(store).state.update((s) => s.shares.push(share('g1')));
    await once(store.state, 'writeFailed');
    disk.full = false;
    await once(store.state, 'recovered');
    expect((await onDisk(dir)).shares).toEqual([share('g1')]);
    expect(store.state.failure).toBeUndefined();
  });

  it('GIVEN writes that failed WHEN space is freed and the store is flushed (shutdown) THEN it writes what is pending instead of rethrowing the old failure', async () => {
    const disk = new FullDisk();
    const store = await open(disk);
    disk.full = true;
    filesOf(store).state.update((s) => s.shares.push(share('g1')));
    await expect(store.flush()).rejects.toBeInstanceOf(StoreWriteError);
    disk.full = false;
    await store.flush();
    expect((await onDisk(dir)).shares).toEqual([share('g1')]);
    const reopened = await Store.open(dir);
    stores.push(reopened);
    expect(reopened.state.data.shares).toEqual([share('g1')]);
  });

  it('GIVEN nothing changed since the mark THEN saved() does not touch the disk, full or not', async () => {
    const disk = new FullDisk();
    const store = await open(disk);
    disk.full = true;
    const mark = store.mark();
    await store.saved(mark);
    expect(disk.refused).toBe(0);
  });

  it('GIVEN a write that fails with ENOSPC on the real file system THEN no temp file is left and the old file is untouched', async () => {
    const file = join(dir, 'goal-record.json');
    await writeFile(file, '{"old":true}');
    // The temp file steno writes is /dev/full: the write really fails with ENOSPC, after the temp file was opened.
    await symlink('/dev/full', stenoTempFile(file));
    const err = await new SafeJSONFile<unknown>(file).write({ new: true }).catch((e: unknown) => e);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    expect(await readdir(dir)).toEqual(['goal-record.json']);
    expect(await readFile(file, 'utf8')).toBe('{"old":true}');
  });
});
