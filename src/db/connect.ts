/**
 * The connection to PostgreSQL (`DATABASE_URL`, docs/many-machines.md): one pool per process, its errors logged
 * without the URL's credentials.
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { shownUrl } from './url-secrets.ts';

/** A pool of connections to the database. */
export type Database = pg.Pool;

/**
 * Open a pool on `url`. An idle connection's error (the server restarted, the network dropped) is logged and
 * the pool makes a new connection for the next query; it does not stop the process.
 *
 * @example
 * const db = openDatabase(config.DATABASE_URL, log);
 * await db.query('select 1');
 * await db.end();
 */
export function openDatabase(url: string, log: Logger, opts: { max?: number; name?: string; queryTimeoutMs?: number } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    application_name: opts.name ?? 'mindlink',
    connectionTimeoutMillis: 10_000,
    // A query that gets no answer (a network that drops packets) fails after this long instead of waiting for TCP.
    ...(opts.queryTimeoutMs ? { query_timeout: opts.queryTimeoutMs } : {}),
  });
  pool.on('error', (err) => log.warn({ db: shownUrl(url), err: err.message }, 'a database connection failed; the next query opens another'));
  return pool;
}
