/**
 * The core with its store in a real PostgreSQL that is killed mid-run and started again: what is asked
 * meanwhile is answered "Could not save: the database is unreachable", never acknowledged, kept in memory
 * and written once the database is back; a restart has it. The console harness's core, the real store.
 */
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import type { Mindlink } from '../../src/core.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';
import { startConsoleCore } from './console-harness.ts';

describe.skipIf(!PG_BIN)('the core with its store in PostgreSQL, the database killed mid-run', () => {
  let server: TestPostgres;
  let db: Database;
  let dir: string;
  let other: string;
  const running: Mindlink[] = [];
  beforeAll(async () => {
    server = await startPostgres();
    db = openDatabase(server.url, pino({ level: 'silent' }));
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dbdown-'));
    other = await mkdtemp(join(tmpdir(), 'mindlink-dbdown-again-'));
  }, 120_000);
  afterAll(async () => {
    for (const c of running.splice(0)) await c.stop();
    await db?.end();
    await server?.close();
    for (const d of [dir, other]) if (d) await rm(d, { recursive: true, force: true });
  });

  it('GIVEN the database killed THEN a direction and /avatar create are answered "Could not save: the database is unreachable", not acknowledged; WHEN it is back THEN they are written by themselves and a restart has them', async () => {
    const r = await startConsoleCore(dir, { store: { database: db } });
    running.push(r.core);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    r.send('keep away from lava');
    await r.line(/^\[demo\] Noted as direction #1\.$/);

    await server.stop('SIGKILL');
    try {
      r.send('stay close');
      await r.line(/^\[demo\] Could not save: the database (is unreachable|connection was lost)\. The change is kept and saved as soon as the database takes it again; a restart before then loses it\.$/);
      r.send('/avatar create robin');
      await r.line(/^\[robin\] Could not save: the database (is unreachable|connection was lost)\./);
      expect(r.lines.filter((l) => /Noted as direction #2|Created robin/.test(l))).toEqual([]);
      expect(r.core.store.state.failure).toBeDefined();
    } finally {
      await server.start();
    }
    // Back: the store writes what it kept, without being asked.
    await once(r.core.store.state, 'recovered');
    expect(r.core.store.state.failure).toBeUndefined();
    await r.core.stop();
    running.splice(running.indexOf(r.core), 1);

    // Another folder: what the restart has comes from the database.
    const again = await startConsoleCore(other, { store: { database: db } });
    running.push(again.core);
    expect(again.core.avatars.get('robin')).toBeDefined();
    expect(again.core.avatars.get('demo')?.directions.open.map((d) => d.text)).toEqual(['keep away from lava', 'stay close']);
    expect((await readdir(dir)).filter((f) => f.endsWith('.json'))).toEqual([]);
  }, 120_000);
});
