/**
 * The store in PostgreSQL, beyond the contract both backends share (store.test.ts): rows written per record
 * and per change, a database that goes away and comes back, the fence, bad rows, a second process opening
 * the same database. A real PostgreSQL; the store's own modules as they are.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import { Leases } from '../../src/db/leases.ts';
import { migrate } from '../../src/db/migrate.ts';
import { StoreFencedError, StoreWriteError } from '../../src/errors.ts';
import { filesOf } from '../../src/store/files.ts';
import { LAYOUT } from '../../src/store/pg/layout.ts';
import { newAvatarRecord, Store } from '../../src/store/store.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';
import { recordsOf } from '../avatars/records-helpers.ts';
import { newDatabase } from './backends.ts';

/** A logger whose lines (as written) the test reads. */
function capturedLog(): { log: pino.Logger; text: () => string; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  const text = (): string => chunks.join('');
  return {
    log: pino({ level: 'debug' }, sink),
    text,
    lines: () =>
      text()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const share = (guild: string) => ({ guild, role: 'r', server: 's' });

describe.skipIf(!PG_BIN)('the store in PostgreSQL (real PostgreSQL)', () => {
  let server: TestPostgres;
  let db: Database;
  let dir: string;
  let serial = 0;
  const stores: Store[] = [];
  const pools: Database[] = [];
  const quiet = pino({ level: 'silent' });

  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    serial += 1;
    db = openDatabase(await newDatabase(server, `s${process.pid}_${serial}`), quiet);
    pools.push(db);
    dir = await mkdtemp(join(tmpdir(), 'mindlink-pgstore-'));
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) s.close();
    await Promise.all(pools.splice(0).map((p) => p.end()));
    await rm(dir, { recursive: true, force: true });
  });

  async function open(opts: Parameters<typeof Store.open>[1] = {}): Promise<Store> {
    const store = await Store.open(dir, { database: db, ...opts });
    stores.push(store);
    return store;
  }

  /** Each row's transaction id: a row a write did not touch keeps its own. */
  async function xmins(table: string): Promise<Map<string, string>> {
    const res = await db.query<{ key: string; xmin: string }>(`select key, xmin::text as xmin from ${table}`);
    return new Map(res.rows.map((r) => [r.key, r.xmin]));
  }

  it('GIVEN a new database THEN Store.open makes every table of the layout, and every list or map of each file has a table of its own', async () => {
    const store = await open();
    await store.flush();
    const res = await db.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = 'public'");
    const tables = new Set(res.rows.map((r) => r.name));
    for (const t of [...LAYOUT.flatMap((f) => f.collections.map((c) => c.table)), 'store_fields', 'store_quarantine']) expect(tables, t).toContain(t);
    for (const file of LAYOUT) {
      const data = store[file.name].data as Record<string, unknown>;
      const collections = Object.keys(data).filter((k) => typeof data[k] === 'object' && data[k] !== null);
      expect(collections.sort(), file.file).toEqual(file.collections.map((c) => c.field).sort());
    }
  });

  it('GIVEN three avatars WHEN one changes THEN only its row is written; WHEN two change in one tick THEN both rows are written in one transaction', async () => {
    const store = await open();
    const records = recordsOf(store);
    for (const name of ['ada', 'bob', 'cy']) records.add(newAvatarRecord(name, 'p1', 'embedded', 'scripted', false, new Date()));
    await store.flush();
    const before = await xmins('avatars');
    records.setOwner('bob', 'p2');
    await store.flush();
    const after = await xmins('avatars');
    expect(after.get('ada')).toBe(before.get('ada'));
    expect(after.get('cy')).toBe(before.get('cy'));
    expect(after.get('bob')).not.toBe(before.get('bob'));
    records.setOwner('ada', 'p2');
    records.setOwner('cy', 'p2');
    await store.flush();
    const both = await xmins('avatars');
    expect(both.get('ada')).toBe(both.get('cy'));
    expect(both.get('bob')).toBe(after.get('bob'));
  });

  it('GIVEN a store reopened THEN it reads what was written, in order, and its first write rewrites only what changed', async () => {
    const first = await open();
    for (let i = 0; i < 5; i++) filesOf(first).state.update((s) => s.shares.push(share(`g${i}`)));
    filesOf(first).state.update((s) => s.shares.splice(1, 1));
    await first.flush();
    first.close();
    const again = await open();
    expect(again.state.data.shares.map((s) => s.guild)).toEqual(['g0', 'g2', 'g3', 'g4']);
    const before = await xmins('shares');
    filesOf(again).state.update((s) => s.shares.push(share('g5')));
    await again.flush();
    const after = await xmins('shares');
    for (const [key, xmin] of before) expect(after.get(key), key).toBe(xmin);
    expect(after.size).toBe(5);
  });

  it('GIVEN the database killed mid-run THEN saved() refuses with "Could not save: the database …", failure is set and logged without the password; WHEN it is back THEN the store writes by itself and nothing acknowledged is lost', async () => {
    const { log, text, lines } = capturedLog();
    const store = await open({ log });
    filesOf(store).state.update((s) => s.shares.push(share('before')));
    await store.saved(store.mark());
    await server.stop('SIGKILL');
    try {
      const mark = store.mark();
      filesOf(store).state.update((s) => s.shares.push(share('while-down')));
      const err = await store.saved(mark).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreWriteError);
      expect((err as Error).message).toMatch(/^Could not save: the database (is unreachable|connection was lost)\. The change is kept and saved as soon as the database takes it again/);
      expect(store.state.failure).toBeDefined();
      expect(lines().some((l) => l.msg === 'could not write a data file; the change is kept in memory and written again until it is on disk' && l.file === 'postgres:state.json')).toBe(true);
    } finally {
      await server.start();
    }
    await once(store.state, 'recovered');
    expect(store.state.failure).toBeUndefined();
    filesOf(store).state.update((s) => s.shares.push(share('after')));
    await store.flush();
    const reader = openDatabase(new URL(server.url).toString().replace(/\/mindlink$/, `/s${process.pid}_${serial}`), quiet);
    pools.push(reader);
    const fresh = await Store.open(dir, { database: reader });
    stores.push(fresh);
    expect(fresh.state.data.shares.map((s) => s.guild)).toEqual(['before', 'while-down', 'after']);
    expect(text()).not.toContain(server.password);
  }, 60_000);

  it('GIVEN writes fenced by the frontend lease THEN they go through while it is held; WHEN another core takes the lease THEN the next write is refused (StoreFencedError, rolled back) and the other core writes', async () => {
    await migrate(db);
    const leases = new Leases(db);
    const mine = await leases.acquire('frontend', 'core-a', 600_000);
    if (!mine) throw new Error('the lease was not free');
    const store = await open({ fence: (client) => Leases.held(client, 'frontend', 'core-a', mine.epoch) });
    filesOf(store).state.update((s) => s.shares.push(share('a-1')));
    await store.flush();
    const theirs = await leases.acquire('frontend', 'core-b', 600_000, { force: true });
    if (!theirs) throw new Error('the lease was not taken');
    const standby = await open({ fence: (client) => Leases.held(client, 'frontend', 'core-b', theirs.epoch) });
    expect(standby.state.data.shares.map((s) => s.guild)).toEqual(['a-1']);
    const mark = store.mark();
    filesOf(store).state.update((s) => s.shares.push(share('a-2')));
    const err = await store.saved(mark).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreWriteError);
    expect((err as StoreWriteError).cause).toBeInstanceOf(StoreFencedError);
    expect((err as Error).message).toMatch(/^Could not save: another mindlink core holds the store now\./);
    filesOf(standby).state.update((s) => s.shares.push(share('b-1')));
    await standby.flush();
    const rows = await db.query<{ guild: string }>("select body->>'guild' as guild from shares order by ord");
    expect(rows.rows.map((r) => r.guild)).toEqual(['a-1', 'b-1']);
  });

  it('GIVEN a row that does not match its schema THEN the store opens without it, it is kept in store_quarantine with one log line, and its row is gone after the next write', async () => {
    const store = await open();
    const records = recordsOf(store);
    records.add(newAvatarRecord('demo', 'p1', 'embedded', 'scripted', false, new Date()));
    await store.flush();
    store.close();
    await db.query(`insert into avatars (key, ord, body) values ('steve', 5, $1)`, [JSON.stringify({ ...newAvatarRecord('steve', 'p1', 'embedded', 'scripted', false, new Date()), engine: 'gpt-9' })]);
    const { log, lines } = capturedLog();
    const again = await open({ log });
    expect(again.state.data.avatars.map((a) => a.name)).toEqual(['demo']);
    expect(lines().filter((l) => l.level === 40)).toEqual([expect.objectContaining({ file: 'postgres:state.json', record: 'avatars.1', keptIn: 'the table store_quarantine' })]);
    await again.flush();
    expect((await db.query('select key from avatars')).rows).toEqual([{ key: 'demo' }]);
    const kept = await db.query<{ record: string; name: string }>("select record, value->>'name' as name from store_quarantine");
    expect(kept.rows).toEqual([{ record: 'avatars.1', name: 'steve' }]);
  });
});
