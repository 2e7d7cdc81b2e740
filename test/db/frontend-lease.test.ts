import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import { FRONTEND, takeFrontend } from '../../src/db/frontend-lease.ts';
import { Leases } from '../../src/db/leases.ts';
import { migrate } from '../../src/db/migrate.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';

const log = pino({ level: 'silent' });

describe.skipIf(!PG_BIN)('the front end held by one core at a time (real PostgreSQL)', () => {
  let pg: TestPostgres;
  let db: Database;
  beforeAll(async () => {
    pg = await startPostgres();
    db = openDatabase(pg.url, log);
    await migrate(db);
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await pg?.close();
  });

  it('GIVEN core A holding the front end THEN core B stands by; WHEN A lets it go THEN B holds it at a higher epoch and A no longer passes the fence', async () => {
    const a = await takeFrontend(db, { ttlMs: 600_000, log, holder: 'core-a' });
    let bHolds = false;
    const lines: string[] = [];
    let saidStandby: () => void = () => undefined;
    const standing = new Promise<void>((resolve) => (saidStandby = resolve));
    const bLog = pino({ level: 'info' }, { write: (line: string) => (lines.push(line), line.includes('standing by') && saidStandby()) });
    const b = takeFrontend(db, { ttlMs: 600_000, log: bLog, holder: 'core-b' }).then((l) => {
      bHolds = true;
      return l;
    });
    // B has asked and been refused: it says who holds the front end
    await standing;
    expect(lines.join('')).toContain('"holder":"core-a"');
    expect(bHolds).toBe(false);
    await a.release();
    const held = await b;
    expect(held.epoch).toBe(a.epoch + 1);
    const client = await db.connect();
    try {
      expect(await a.fence(client)).toBe(false);
      expect(await held.fence(client)).toBe(true);
    } finally {
      client.release();
    }
    await held.release();
  });

  it('GIVEN a core that died holding the front end (no renewal, no release) THEN a standby takes it once it lapses, by the database clock', async () => {
    const dead = await new Leases(db).acquire(FRONTEND, 'core-dead', 300);
    const standby = await takeFrontend(db, { ttlMs: 600_000, log, holder: 'core-c' });
    expect(standby.epoch).toBe(dead!.epoch + 1);
    await standby.release();
  });

  it('GIVEN core A holding the front end WHEN another core takes it over THEN A learns it lost it at its next renewal', async () => {
    const a = await takeFrontend(db, { ttlMs: 300, log, holder: 'core-d' });
    await new Leases(db).acquire(FRONTEND, 'core-e', 600_000, { force: true });
    expect(await a.lost).toMatch(/lapsed or was taken over/);
    await new Leases(db).release(FRONTEND, 'core-e', a.epoch + 1);
  });

  it('GIVEN core A holding the front end WHEN the database is down for longer than the lease THEN A learns it lost it', async () => {
    const own = openDatabase(pg.url, log);
    const a = await takeFrontend(own, { ttlMs: 600, log, holder: 'core-f' });
    await pg.stop('SIGKILL');
    try {
      expect(await a.lost).toMatch(/could not be renewed|lapsed/);
    } finally {
      await pg.start();
      await own.end();
    }
  });

  it('GIVEN a standby WHEN its wait is cut (Ctrl-C) THEN it stops waiting', async () => {
    const a = await takeFrontend(db, { ttlMs: 600_000, log, holder: 'core-g' });
    const ctl = new AbortController();
    const b = takeFrontend(db, { ttlMs: 600_000, log, holder: 'core-h', signal: ctl.signal });
    ctl.abort();
    await expect(b).rejects.toThrow(/abort/i);
    await a.release();
  });
});
