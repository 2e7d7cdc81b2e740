/**
 * Leases in PostgreSQL (docs/many-machines.md): a named thing (an avatar, the front end) is held by one holder (a
 * host, a core) until its lease expires unless renewed. Each new holder gets a higher epoch, so whatever a former
 * holder does late can be told apart and refused (fencing). Time is the database's clock, one for every machine.
 */
import type pg from 'pg';
import type { Database } from './connect.ts';

/** A lease as the database has it. */
export interface Lease {
  name: string;
  holder: string;
  /** Grows by one each time another holder takes the lease (or its holder takes it back after it lapsed). */
  epoch: number;
  expiresAt: Date;
}

interface LeaseRow {
  name: string;
  holder: string;
  epoch: string;
  expires_at: Date;
}

const row = (r: LeaseRow): Lease => ({ name: r.name, holder: r.holder, epoch: Number(r.epoch), expiresAt: r.expires_at });

/**
 * The leases table.
 *
 * @example
 * const leases = new Leases(db);
 * const lease = await leases.acquire('avatar:ada', 'host-a', 15_000); // undefined while another holds it
 * if (lease && !(await leases.renew('avatar:ada', 'host-a', lease.epoch, 15_000))) leaveTheGame();
 */
export class Leases {
  constructor(private readonly db: Database) {}

  /**
   * Take `name` for `ttlMs` when it is free or lapsed (a new epoch), or renew it when `holder` holds it now (the
   * same epoch). `force` takes it from a live holder too (a new epoch: a planned move). Undefined when another
   * holder has it.
   */
  async acquire(name: string, holder: string, ttlMs: number, opts: { force?: boolean } = {}): Promise<Lease | undefined> {
    const res = await this.db.query<LeaseRow>(
      `insert into leases (name, holder, epoch, expires_at) values ($1, $2, 1, now() + $3 * interval '1 millisecond')
       on conflict (name) do update set
         holder = excluded.holder,
         epoch = case when leases.holder = excluded.holder and leases.expires_at > now() then leases.epoch else leases.epoch + 1 end,
         expires_at = excluded.expires_at
       where leases.holder = excluded.holder or leases.expires_at <= now() or $4
       returning name, holder, epoch, expires_at`,
      [name, holder, ttlMs, opts.force === true],
    );
    const r = res.rows[0];
    return r ? row(r) : undefined;
  }

  /** Extend the lease by `ttlMs` from now if `holder` still holds it at `epoch` and it has not lapsed; false when it is lost. */
  async renew(name: string, holder: string, epoch: number, ttlMs: number): Promise<boolean> {
    const res = await this.db.query(
      `update leases set expires_at = now() + $4 * interval '1 millisecond'
       where name = $1 and holder = $2 and epoch = $3 and expires_at > now()`,
      [name, holder, epoch, ttlMs],
    );
    return res.rowCount === 1;
  }

  /**
   * Renew, in one statement, each of `held` that `holder` still holds at its epoch, unlapsed, by `ttlMs` from now;
   * returns the names renewed (one not among them is lost). With nothing held it still asks the database (an
   * answer shows it can be reached).
   */
  async renewMany(holder: string, held: ReadonlyArray<{ name: string; epoch: number }>, ttlMs: number): Promise<Set<string>> {
    const res = await this.db.query<{ name: string }>(
      `update leases set expires_at = now() + $2 * interval '1 millisecond'
       from unnest($3::text[], $4::bigint[]) as held(name, epoch)
       where leases.name = held.name and leases.epoch = held.epoch and leases.holder = $1 and leases.expires_at > now()
       returning leases.name`,
      [holder, ttlMs, held.map((h) => h.name), held.map((h) => h.epoch)],
    );
    return new Set(res.rows.map((r) => r.name));
  }

  /** Let every lease `holder` holds go at once (a holder that stops: the next ones need not wait for them to lapse). */
  async releaseAll(holder: string): Promise<void> {
    await this.db.query(`update leases set expires_at = now() where holder = $1 and expires_at > now()`, [holder]);
  }

  /** Let the lease go at once (the next holder need not wait for it to lapse); nothing when it is no longer held so. */
  async release(name: string, holder: string, epoch: number): Promise<void> {
    await this.db.query(`update leases set expires_at = now() where name = $1 and holder = $2 and epoch = $3 and expires_at > now()`, [name, holder, epoch]);
  }

  /** The lease of `name` as it stands, lapsed or not; undefined when it was never taken. */
  async current(name: string): Promise<Lease | undefined> {
    const res = await this.db.query<LeaseRow>('select name, holder, epoch, expires_at from leases where name = $1', [name]);
    const r = res.rows[0];
    return r ? row(r) : undefined;
  }

  /** The leases whose names start with `prefix` (e.g. `avatar:`), lapsed or not, with whether each is live now. */
  async list(prefix: string): Promise<(Lease & { live: boolean })[]> {
    const res = await this.db.query<LeaseRow & { live: boolean }>(
      `select name, holder, epoch, expires_at, expires_at > now() as live from leases where starts_with(name, $1) order by name`,
      [prefix],
    );
    return res.rows.map((r) => ({ ...row(r), live: r.live }));
  }

  /**
   * Fencing, inside the caller's transaction on `client`: whether `holder` still holds `name` at `epoch`, unlapsed.
   * The row stays locked until that transaction ends, so no one can take the lease over before it commits.
   *
   * @example
   * await client.query('begin');
   * if (!(await Leases.held(client, 'frontend', me, epoch))) { await client.query('rollback'); return; }
   * // … writes …
   * await client.query('commit');
   */
  static async held(client: pg.ClientBase, name: string, holder: string, epoch: number): Promise<boolean> {
    const res = await client.query(`select 1 from leases where name = $1 and holder = $2 and epoch = $3 and expires_at > now() for share`, [name, holder, epoch]);
    return res.rowCount === 1;
  }
}
