import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import { Leases } from '../../src/db/leases.ts';
import { migrate } from '../../src/db/migrate.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';

const log = pino({ level: 'silent' });
/** Long enough never to lapse within a test. */
const LONG = 600_000;

describe.skipIf(!PG_BIN)('leases with epochs (real PostgreSQL)', () => {
  let pg: TestPostgres;
  let db: Database;
  let leases: Leases;
  beforeAll(async () => {
    pg = await startPostgres();
    db = openDatabase(pg.url, log);
    await migrate(db);
    leases = new Leases(db);
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await pg?.close();
  });

  /** Wait (by the database's clock) until the lease of `name` has lapsed. */
  async function lapsed(name: string): Promise<void> {
    for (;;) {
      const all = await leases.list(name);
      if (all.every((l) => !l.live)) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  it('GIVEN a free name THEN the first holder takes it at epoch 1, another is refused, and the holder renews it at the same epoch', async () => {
    const a = await leases.acquire('avatar:ada', 'host-a', LONG);
    expect(a).toMatchObject({ name: 'avatar:ada', holder: 'host-a', epoch: 1 });
    expect(await leases.acquire('avatar:ada', 'host-b', LONG)).toBeUndefined();
    expect(await leases.acquire('avatar:ada', 'host-a', LONG)).toMatchObject({ holder: 'host-a', epoch: 1 });
    expect(await leases.renew('avatar:ada', 'host-a', 1, LONG)).toBe(true);
    expect(await leases.renew('avatar:ada', 'host-b', 1, LONG)).toBe(false);
  });

  it('GIVEN a lease that lapsed THEN another holder takes it at a higher epoch, and the old holder can neither renew it nor pass the fence', async () => {
    const old = await leases.acquire('avatar:bob', 'host-a', 1);
    await lapsed('avatar:bob');
    expect(await leases.renew('avatar:bob', 'host-a', old!.epoch, LONG)).toBe(false);
    const taken = await leases.acquire('avatar:bob', 'host-b', LONG);
    expect(taken).toMatchObject({ holder: 'host-b', epoch: old!.epoch + 1 });
    const client = await db.connect();
    try {
      await client.query('begin');
      expect(await Leases.held(client, 'avatar:bob', 'host-a', old!.epoch)).toBe(false);
      expect(await Leases.held(client, 'avatar:bob', 'host-b', taken!.epoch)).toBe(true);
      await client.query('commit');
    } finally {
      client.release();
    }
  });

  it('GIVEN a holder inside its fenced transaction WHEN another forces the lease over THEN the takeover waits for that commit', async () => {
    const mine = await leases.acquire('frontend', 'core-1', LONG);
    const client = await db.connect();
    const order: string[] = [];
    try {
      await client.query('begin');
      expect(await Leases.held(client, 'frontend', 'core-1', mine!.epoch)).toBe(true);
      const takeover = leases.acquire('frontend', 'core-2', LONG, { force: true }).then((l) => {
        order.push('taken');
        return l;
      });
      // the takeover is blocked on the row lock: a query on another connection shows it waiting
      for (;;) {
        const waiting = await db.query("select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'insert into leases%'");
        if (waiting.rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      order.push('committed');
      await client.query('commit');
      expect(await takeover).toMatchObject({ holder: 'core-2', epoch: mine!.epoch + 1 });
    } finally {
      client.release();
    }
    expect(order).toEqual(['committed', 'taken']);
  });

  it('GIVEN five holders asking at once for a free name THEN exactly one gets it', async () => {
    const got = await Promise.all(['h1', 'h2', 'h3', 'h4', 'h5'].map((h) => leases.acquire('avatar:cy', h, LONG)));
    expect(got.filter((l) => l !== undefined)).toHaveLength(1);
  });

  it('GIVEN a released lease THEN another takes it at once at a higher epoch, and list shows who holds what', async () => {
    const a = await leases.acquire('avatar:dee', 'host-a', LONG);
    await leases.release('avatar:dee', 'host-a', a!.epoch);
    expect(await leases.acquire('avatar:dee', 'host-b', LONG)).toMatchObject({ holder: 'host-b', epoch: a!.epoch + 1 });
    expect((await leases.list('avatar:d')).map((l) => [l.name, l.holder, l.live])).toEqual([['avatar:dee', 'host-b', true]]);
    expect(await leases.current('avatar:none')).toBeUndefined();
  });

  it('GIVEN a holder with three leases, one lapsed and one taken by another THEN one renewal renews only the one it still holds, and releasing all it holds frees that one at once', async () => {
    const kept = await leases.acquire('avatar:eve', 'host-a', LONG);
    const gone = await leases.acquire('avatar:fay', 'host-a', 1);
    const taken = await leases.acquire('avatar:gus', 'host-a', LONG);
    await lapsed('avatar:fay');
    await leases.acquire('avatar:gus', 'host-b', LONG, { force: true });
    const held = [kept!, gone!, taken!].map((l) => ({ name: l.name, epoch: l.epoch }));
    expect(await leases.renewMany('host-a', held, LONG)).toEqual(new Set(['avatar:eve']));
    // Nothing held: the database still answers.
    expect(await leases.renewMany('host-a', [], LONG)).toEqual(new Set());
    await leases.releaseAll('host-a');
    expect((await leases.list('avatar:')).filter((l) => ['avatar:eve', 'avatar:gus'].includes(l.name)).map((l) => [l.name, l.holder, l.live])).toEqual([
      ['avatar:eve', 'host-a', false],
      ['avatar:gus', 'host-b', true],
    ]);
    expect(await leases.acquire('avatar:eve', 'host-c', LONG)).toMatchObject({ holder: 'host-c', epoch: kept!.epoch + 1 });
  });
});
