import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import { shownUrl } from '../../src/db/url-secrets.ts';
import { migrate, type Migration } from '../../src/db/migrate.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';

const log = pino({ level: 'silent' });

describe.skipIf(!PG_BIN)('the database schema, by versioned SQL (real PostgreSQL)', () => {
  let pg: TestPostgres;
  let db: Database;
  beforeAll(async () => {
    pg = await startPostgres();
    db = openDatabase(pg.url, log);
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await pg?.close();
  });

  it('GIVEN two steps WHEN migrate runs twice THEN each step ran once, in order, and the second run applies none', async () => {
    const steps: Migration[] = [
      { version: 2, name: 'b', sql: "insert into m_a (v) values ('second')" },
      { version: 1, name: 'a', sql: 'create table m_a (v text not null)' },
    ];
    expect(await migrate(db, [...steps].sort((x, y) => x.version - y.version))).toEqual([1, 2]);
    expect(await migrate(db, steps)).toEqual([]);
    expect((await db.query('select v from m_a')).rows).toEqual([{ v: 'second' }]);
  });

  it('GIVEN three processes starting at once THEN a step runs exactly once', async () => {
    const step: Migration[] = [{ version: 10, name: 'once', sql: 'create table m_once (v int)' }];
    const others = [openDatabase(pg.url, log), openDatabase(pg.url, log)];
    const results = await Promise.all([migrate(db, step), ...others.map((o) => migrate(o, step))]);
    await Promise.all(others.map((o) => o.end()));
    expect(results.flat()).toEqual([10]);
  });

  it('GIVEN a step that fails THEN the error names it, it is rolled back whole, and the steps before it stay', async () => {
    const steps: Migration[] = [
      { version: 20, name: 'good', sql: 'create table m_good (v int)' },
      { version: 21, name: 'bad', sql: 'create table m_bad (v int); select no_such_column from m_good' },
    ];
    await expect(migrate(db, steps)).rejects.toThrow(/migration 0021_bad failed: .*no_such_column/);
    expect((await db.query("select to_regclass('m_good') as t, to_regclass('m_bad') as u")).rows).toEqual([{ t: 'm_good', u: null }]);
    expect((await db.query('select version from schema_migrations where version >= 20')).rows).toEqual([{ version: 20 }]);
  });

  it('GIVEN the URL with its password THEN what may be logged hides the password', () => {
    expect(shownUrl(pg.url)).not.toContain(pg.password);
    expect(shownUrl(pg.url)).toMatch(/^postgres:\/\/[^:]+:\*\*\*@127\.0\.0\.1:\d+\/mindlink$/);
    expect(shownUrl('not a url')).not.toContain('not a url');
  });
});
