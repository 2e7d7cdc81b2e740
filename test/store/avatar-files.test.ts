/**
 * An avatar's own files, the same contract on disk and in PostgreSQL (a real server).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import { migrate } from '../../src/db/migrate.ts';
import { DiskAvatarFiles, REMOVED_KEPT_MS, type AvatarFiles } from '../../src/store/avatar-files.ts';
import { PgAvatarFiles } from '../../src/store/pg/avatar-files.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';
import { newDatabase } from './backends.ts';

interface Place {
  name: string;
  available: boolean;
  start(): Promise<void>;
  fresh(dir: string): Promise<AvatarFiles>;
  done(): Promise<void>;
  stop(): Promise<void>;
}

const disk: Place = {
  name: 'disk',
  available: true,
  start: async () => undefined,
  fresh: async (dir) => new DiskAvatarFiles(dir),
  done: async () => undefined,
  stop: async () => undefined,
};

function postgres(): Place {
  let server: TestPostgres | undefined;
  let db: Database | undefined;
  let n = 0;
  return {
    name: 'postgres',
    available: PG_BIN !== undefined,
    start: async () => {
      server = await startPostgres();
    },
    fresh: async () => {
      if (!server) throw new Error('start() first');
      n += 1;
      db = openDatabase(await newDatabase(server, `f${process.pid}_${n}`), pino({ level: 'silent' }));
      await migrate(db);
      return new PgAvatarFiles(db);
    },
    done: async () => {
      await db?.end();
      db = undefined;
    },
    stop: async () => {
      await server?.close();
    },
  };
}

describe.each([disk, postgres()])("an avatar's own files ($name)", (place) => {
  let dir = '';
  let files: AvatarFiles;
  beforeAll(async () => {
    if (place.available) await place.start();
  }, 120_000);
  afterAll(() => place.stop());
  beforeEach(async ({ skip }) => {
    if (!place.available) skip('PostgreSQL is not installed');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-avatar-files-'));
    files = await place.fresh(dir);
  });
  afterEach(async () => {
    await place.done();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN files written, appended to and renamed THEN they read back byte for byte, a missing one reads null, and list names the files of a folder', async () => {
    const steve = files.of('steve');
    expect(await steve.read('TASK.md')).toBeNull();
    expect(await steve.tail('lab-log.md', 10)).toEqual({ text: '', cut: false });
    await steve.write('TASK.md', '# TASK.md — steve\n\n## Goal\nDig. ✓\n');
    await steve.append('lab-log.md', '## one\n');
    await steve.append('lab-log.md', '## two\n');
    await steve.write('skills/dig.json', '{}');
    await steve.write('skills/dig.js', 'dig()');
    expect(await steve.read('TASK.md')).toBe('# TASK.md — steve\n\n## Goal\nDig. ✓\n');
    expect(await steve.read('lab-log.md')).toBe('## one\n## two\n');
    expect(await steve.tail('lab-log.md', 7)).toEqual({ text: '## two\n', cut: true });
    expect(await steve.tail('lab-log.md', 100)).toEqual({ text: '## one\n## two\n', cut: false });
    expect((await steve.list('skills')).sort()).toEqual(['dig.js', 'dig.json']);
    expect(await files.of('alex').list('skills')).toEqual([]);
    expect(await steve.rename('skills/dig.json', 'skills/dig.json.corrupt-1')).toBe(true);
    expect(await steve.rename('skills/none.json', 'skills/x')).toBe(false);
    await steve.write('llm-session.prev.json', 'old');
    await steve.write('llm-session.json', 'new');
    expect(await steve.rename('llm-session.json', 'llm-session.prev.json')).toBe(true);
    expect(await steve.read('llm-session.prev.json')).toBe('new');
    expect(await steve.remove('skills/dig.js')).toBe(true);
    expect(await steve.remove('skills/dig.js')).toBe(false);
    expect(await steve.list('skills')).toEqual(['dig.json.corrupt-1']);
  });

  it("GIVEN an avatar renamed THEN its files follow it; GIVEN it removed THEN they are kept a week under removed/<name>-<time> with its record, then purged", async () => {
    await files.of('steve').write('TASK.md', 'notes');
    await files.renameAvatar('steve', 'stevie');
    expect(await files.of('steve').read('TASK.md')).toBeNull();
    expect(await files.of('stevie').read('TASK.md')).toBe('notes');
    const at = new Date('2026-12-01T10:00:00.000Z');
    const keptIn = await files.retire('stevie', { removedAt: at.toISOString(), avatar: { name: 'stevie' } }, at);
    expect(keptIn).toBe('removed/stevie-2026-12-01T10-00-00-000Z');
    expect(await files.of('stevie').read('TASK.md')).toBeNull();
    await files.of('stevie').write('TASK.md', 'a new stevie');
    expect(await files.purgeRetired(new Date(at.getTime() + REMOVED_KEPT_MS - 1))).toEqual([]);
    expect(await files.purgeRetired(new Date(at.getTime() + REMOVED_KEPT_MS))).toEqual(['stevie-2026-12-01T10-00-00-000Z']);
    expect(await files.of('stevie').read('TASK.md')).toBe('a new stevie');
    if (place.name === 'disk') expect(await readdir(join(dir, 'removed'))).toEqual([]);
  });

  it('GIVEN a TaskFile on the avatar files THEN its sections, own part and lab lessons work as on disk', async () => {
    const task = new TaskFile(files.of('steve'), 'steve');
    await task.update({ open: [{ n: 1, text: 'stay near spawn', at: '2026-01-01T00:00:00.000Z', by: null }], done: [], finished: [] });
    await task.setOwnSections({ Goal: 'Collect dirt.' });
    await task.appendLab('Lesson: dirt is everywhere.', new Date('2026-01-02T00:00:00.000Z'));
    await task.appendLab('Lesson: bring a shovel.', new Date('2026-01-03T00:00:00.000Z'));
    const md = await task.read();
    expect(md).toContain('## Goal\nCollect dirt.');
    expect(md).toContain('#1 (2026-01-01) stay near spawn');
    expect(await task.lessons(5)).toEqual(['dirt is everywhere.', 'bring a shovel.']);
    expect(await files.of('steve').read('lab-log.md')).toBe('## 2026-01-02T00:00:00.000Z\nLesson: dirt is everywhere.\n\n## 2026-01-03T00:00:00.000Z\nLesson: bring a shovel.\n');
    if (place.name === 'disk') expect(await readFile(join(dir, 'avatars', 'steve', 'TASK.md'), 'utf8')).toBe(md);
  });
});
