/**
 * `mindlink migrate --from-files DATA_DIR`: a data folder written by the core on the lowdb files (avatars, a
 * goal, directions, a pending post, a schedule, TASK.md, a lab log, a kept skill, a removed avatar), moved by
 * the real command into a real PostgreSQL, then a core on the database: the same `/status`, the same records
 * and the same files. A second migration is refused, the folder is left as it was, the password is never shown.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import type { KeptSkill } from '../../src/learned/manifest.ts';
import { Outbox } from '../../src/outbox/outbox.ts';
import { Store } from '../../src/store/store.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';
import { startConsoleCore, type ConsoleCore } from '../core/console-harness.ts';
import { TestEngine } from '../fakes/test-engine.ts';
import { newDatabase } from './backends.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Run `mindlink migrate …` (src/main.ts under tsx) with `env`; its exit code and output. */
function mindlinkMigrate(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'migrate', ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'debug', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file under `dir` with its bytes and time, to prove nothing was changed. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.set(relative(dir, p), `${(await stat(p)).mtimeMs} ${(await readFile(p)).toString('base64')}`);
    }
  };
  await walk(dir);
  return out;
}

const skill: KeptSkill = {
  version: 1,
  name: 'oak_logs',
  description: 'Chop oak logs',
  params: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
  goal: 'collect 3 oak logs',
  postcondition: 'collect {count} oak logs',
  createdAt: '2030-01-01T00:00:00.000Z',
  runs: 4,
  successes: 3,
  lastRunAt: '2030-01-02T00:00:00.000Z',
  lastError: null,
};

/** An engine whose avatars hold their goal and keep a lab log: nothing changes by itself between two `/status`. */
const steadyEngine = () => new TestEngine((req) => (req.kind === 'choose' ? 'GOAL: explore\nSTATUS: working' : 'STATUS: working'));

/** What `/status` says of demo and of robin (both stopped), as the console prints it. */
async function statusOf(r: ConsoleCore): Promise<string[]> {
  const from = r.lines.length;
  const said = (re: RegExp): number => r.lines.slice(from).filter((l) => re.test(l)).length;
  // One chat's replies come in order: the third reply's first line marks the end of the first two.
  r.send('/status demo');
  r.send('/status robin');
  r.send('/status demo');
  while (said(/^\[demo\] stopped · /) < 2) await new Promise((res) => setTimeout(res, 20));
  const lines = r.lines.slice(from);
  return lines.slice(0, lines.findIndex((l, i) => i > 0 && /^\[demo\] stopped · /.test(l)));
}

describe.skipIf(!PG_BIN)('mindlink migrate --from-files (real PostgreSQL)', () => {
  let server: TestPostgres;
  let url: string;
  let db: Database;
  let dir: string;
  let empty: string;
  beforeAll(async () => {
    server = await startPostgres();
    url = await newDatabase(server, `m${process.pid}`);
    db = openDatabase(url, pino({ level: 'silent' }));
    dir = await mkdtemp(join(tmpdir(), 'mindlink-migrate-'));
    empty = await mkdtemp(join(tmpdir(), 'mindlink-migrate-empty-'));
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await server?.close();
    for (const d of [dir, empty]) if (d) await rm(d, { recursive: true, force: true });
  });

  it('GIVEN a data folder written by the core THEN migrate moves it, a core on the database shows the same /status, records and files, a second migrate is refused, and the folder is untouched', async () => {
    // The folder, as the core on the files writes it.
    const before = await startConsoleCore(dir, { engines: steadyEngine });
    await before.line(/^\[demo\] New goal \(my choice\): explore$/);
    before.send('/avatar create robin');
    await before.line(/^\[robin\] Created robin/);
    before.send('/avatar create bob');
    await before.line(/^\[bob\] Created bob/);
    before.send('/avatar remove bob bob');
    await before.line(/^\[mindlink\] Removed bob: /);
    before.send('demo: Goal: collect 5 dirt');
    await before.line(/^\[demo\] New goal from /);
    before.send('demo: keep away from lava');
    await before.line(/^\[demo\] Noted as direction #1\.$/);
    before.send('robin: stay near the river');
    await before.line(/^\[robin\] Noted as direction #1\.$/);
    before.send('/schedule every day at 8:00 collect 5 dirt robin');
    await before.line(/^\[robin\] Schedule #1: /);
    await before.core.learned.keep('demo', skill, 'await collect({ item: "oak_log", count: params.count });\n');
    await new TaskFile(before.core.store.avatarFiles.of('demo'), 'demo').appendLab('Lesson: dirt is everywhere.', new Date('2030-01-03T00:00:00.000Z'));
    before.send('/stop demo');
    await before.line(/^\[demo\] Stopped/);
    const status = await statusOf(before);
    expect(status.some((l) => /^\[robin\] stopped · /.test(l))).toBe(true);
    await before.core.stop();
    // A post still on its way: to a chat whose platform is not running.
    const store = await Store.open(dir);
    new Outbox(store).post({ dest: 'telegram:42', avatar: 'demo', text: 'Done: something', kind: 'done' });
    await store.flush();
    store.close();
    const folder = await snapshot(dir);

    const first = await mindlinkMigrate(['--from-files', dir], { DATABASE_URL: url });
    expect(first.stderr).not.toContain(server.password);
    expect(first.stdout).not.toContain(server.password);
    expect({ code: first.code, stderr: first.code === 0 ? '' : first.stderr }).toEqual({ code: 0, stderr: '' });
    expect(first.stdout).toContain(`mindlink migrate: moved ${dir} into postgres://postgres:***@127.0.0.1:${server.port}/m${process.pid}`);
    expect(first.stdout).toMatch(/ {2}state\.json: 2 avatars, 1 persons, 2 links, 1 servers,/);
    expect(first.stdout).toMatch(/ {2}outbox\.json: 1 outbox posts,/);
    expect(first.stdout).toMatch(/ {2}schedules\.json: 1 schedules,/);
    expect(first.stdout).toMatch(/the avatars' own files: \d+ files \([\d.]+ KB\) of 2 avatars and 1 removed avatars/);

    // A core on the database (and an empty folder: nothing can come from the files).
    const after = await startConsoleCore(empty, { engines: steadyEngine, store: { database: db } });
    expect(await statusOf(after)).toEqual(status);
    const files = after.core.store.avatarFiles;
    for (const [avatar, name] of [
      ['demo', 'TASK.md'],
      ['demo', 'lab-log.md'],
      ['demo', 'skills/oak_logs.json'],
      ['demo', 'skills/oak_logs.js'],
      ['robin', 'TASK.md'],
    ] as const) {
      expect(await files.of(avatar).read(name), `${avatar}/${name}`).toBe(await readFile(join(dir, 'avatars', avatar, name), 'utf8'));
    }
    expect((await after.core.learned.list('demo')).map((s) => s.name)).toEqual(['oak_logs']);
    expect(after.core.outbox.all().map((p) => [p.dest, p.text])).toEqual([['telegram:42', 'Done: something']]);
    expect(after.core.store.schedules.data.schedules.map((s) => [s.id, s.avatar, s.goal])).toEqual([[1, 'robin', 'collect 5 dirt']]);
    expect(after.core.avatars.get('demo')?.directions.open.map((d) => d.text)).toEqual(['keep away from lava']);
    await after.core.stop();
    const removed = await db.query<{ avatar: string }>('select avatar from removed_avatars');
    expect(removed.rows).toEqual([{ avatar: 'bob' }]);

    const second = await mindlinkMigrate(['--from-files', dir], { DATABASE_URL: url });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/^mindlink migrate: the database holds a mindlink store already: migrate --from-files moves a data folder into an empty one only, once\. Nothing was changed\.$/m);
    expect(await snapshot(dir)).toEqual(folder);
    expect(await readdir(empty)).not.toContain('state.json');
  }, 180_000);

  it('GIVEN no DATABASE_URL, or other arguments THEN migrate says how it is used, exit code 2', async () => {
    const none = await mindlinkMigrate(['--from-files', dir], { DATABASE_URL: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^mindlink migrate: DATABASE_URL is not set\. usage: mindlink migrate --from-files DATA_DIR/);
    const bad = await mindlinkMigrate(['--from', dir], { DATABASE_URL: url });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^usage: mindlink migrate --from-files DATA_DIR/);
  }, 60_000);

  it('GIVEN a folder with a data file that does not parse THEN migrate refuses naming it and writes nothing', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'mindlink-migrate-broken-'));
    try {
      const target = await newDatabase(server, `mb${process.pid}`);
      await (await import('node:fs/promises')).writeFile(join(broken, 'state.json'), '{"version":1,"avatars":[');
      const r = await mindlinkMigrate(['--from-files', broken], { DATABASE_URL: target });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`mindlink migrate: ${join(broken, 'state.json')} is not valid JSON`);
      const check = openDatabase(target, pino({ level: 'silent' }));
      try {
        expect((await check.query('select count(*)::int as n from store_fields')).rows).toEqual([{ n: 0 }]);
      } finally {
        await check.end();
      }
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  }, 60_000);
});
