/**
 * The front end's lease (docs/many-machines.md "Two cores"): with the store in PostgreSQL, two or more cores may run
 * against one database, and only the holder of the `frontend` lease is mindlink — it polls Telegram, holds the
 * Discord gateway, runs the loops and writes the store. The others stand by, asking for the lease, and the first
 * to find it lapsed (its holder killed, cut off, stopped) takes it at a higher epoch and starts. A holder that
 * cannot renew its lease before it lapses has lost it: it must stop at once, and its writes are fenced by the
 * lease (see {@link FrontendLease.fence}).
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from './connect.ts';
import { Leases } from './leases.ts';

/** The lease's name in the `leases` table. */
export const FRONTEND = 'frontend';
/** How often a standby asks for the lease at most: it takes over within this of the lapse. */
const STANDBY_ASK_MS = 1000;

/** The front end, held. */
export interface FrontendLease {
  /** This core's name as the lease row shows it (`host:pid:…`). */
  readonly holder: string;
  /** The epoch this core holds it at. */
  readonly epoch: number;
  /** Resolves once the lease is lost (not renewed before it lapsed, or taken over): the core must stop. */
  readonly lost: Promise<string>;
  /** For a write transaction on `client`: true while this core still holds the lease (the row stays locked until commit). */
  fence(client: pg.ClientBase): Promise<boolean>;
  /** Stop renewing and let the lease go, so a standby takes over at once (a graceful stop). */
  release(): Promise<void>;
}

/** Options of {@link takeFrontend}. */
export interface FrontendOptions {
  /** How long a lease lasts unrenewed; it is renewed every third of it. */
  ttlMs: number;
  log: Logger;
  /** Ends the wait of a standby (Ctrl-C): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** This core's name (default: host name, pid and a random part). */
  holder?: string;
  /** Told once for each other holder seen while this core stands by. */
  onStandby?: (holder: string, until: Date) => void;
}

/**
 * Wait until this core holds the front end, then keep it: renewed every third of `ttlMs`. A renewal refused, or
 * none accepted for as long as the lease lasts (the database unreachable), resolves `lost`.
 *
 * @example
 * const front = await takeFrontend(db, { ttlMs: 15_000, log });
 * void front.lost.then((why) => { log.error(why); process.exit(1); });
 */
export async function takeFrontend(db: Database, opts: FrontendOptions): Promise<FrontendLease> {
  const leases = new Leases(db);
  const holder = opts.holder ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const every = Math.max(50, Math.floor(opts.ttlMs / 3));
  let said: string | undefined;
  let lease = await leases.acquire(FRONTEND, holder, opts.ttlMs).catch((err: unknown) => {
    opts.log.warn({ err: (err as Error).message }, 'could not ask the database for the front end; asking again');
    return undefined;
  });
  while (!lease) {
    const now = await leases.current(FRONTEND).catch(() => undefined);
    if (now && now.holder !== said) {
      said = now.holder;
      opts.log.info({ holder: now.holder, until: now.expiresAt.toISOString() }, 'standing by: another core holds the front end; this one takes it once that lease lapses');
      opts.onStandby?.(now.holder, now.expiresAt);
    }
    await delay(Math.min(every, STANDBY_ASK_MS), undefined, { signal: opts.signal });
    lease = await leases.acquire(FRONTEND, holder, opts.ttlMs).catch((err: unknown) => {
      opts.log.warn({ err: (err as Error).message }, 'could not ask the database for the front end; asking again');
      return undefined;
    });
  }
  const held = lease;
  opts.log.info({ holder, epoch: held.epoch }, 'this core holds the front end');
  let renewedAt = performance.now();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let loseIt: (why: string) => void = () => undefined;
  const lost = new Promise<string>((resolve) => {
    loseIt = (why) => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      resolve(why);
    };
  });
  const renew = async (): Promise<void> => {
    if (stopped) return;
    const startedAt = performance.now();
    try {
      if (!(await leases.renew(FRONTEND, holder, held.epoch, opts.ttlMs))) {
        loseIt(`the front end's lease (epoch ${held.epoch}) lapsed or was taken over`);
        return;
      }
      renewedAt = startedAt;
    } catch (err) {
      opts.log.warn({ err: (err as Error).message }, 'could not renew the front end lease; trying again');
      // No answer for as long as the lease lasts: by the database's clock it may have lapsed and been taken.
      if (performance.now() - renewedAt >= opts.ttlMs) {
        loseIt(`the front end's lease could not be renewed for ${opts.ttlMs} ms (the database unreachable)`);
        return;
      }
    }
    if (!stopped) timer = setTimeout(() => void renew(), every);
  };
  timer = setTimeout(() => void renew(), every);
  return {
    holder,
    epoch: held.epoch,
    lost,
    fence: (client) => Leases.held(client, FRONTEND, holder, held.epoch),
    async release() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      await leases.release(FRONTEND, holder, held.epoch);
    },
  };
}
