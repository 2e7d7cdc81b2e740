/**
 * The leases that hold avatars on their hosts, the core's side (NATS hosts with `DATABASE_URL`,
 * docs/many-machines.md). Each playing avatar has a lease `avatar:<name>` in PostgreSQL:
 *
 * - the core places an avatar by taking its lease for the host session it picked (the holder `<id>/<session>`)
 *   at a new epoch, and that epoch is the placement's number: the start carries it, the host renews the lease
 *   with it, and everything the host says about the avatar carries it back;
 * - a lease still held by a live holder is not taken (the avatar waits until it lapses), except on a planned
 *   move (its host said it stops): an avatar is never played from two hosts at once;
 * - every second the core reads the leases of the avatars it placed: one that lapsed (its host died, was cut
 *   off from the core or from the database) or was taken at a higher epoch moves to another host;
 * - a host not heard from for half the lease time takes no new avatar (its beats stopped: it may be dead or
 *   cut off, and the silence bound that takes it as gone may be far longer).
 *
 * The database's clock is the one clock of every lease.
 */
import type { Logger } from 'pino';
import type { Leases } from '../../db/leases.ts';

/** Why an avatar is out of the world while no host can hold its lease (none answers, or has a database that does). */
export const NO_LEASING_HOST = 'no avatar host can hold it now: none was heard lately or reaches the database';
/** Why an avatar is out of the world while the host it was on still holds its lease. */
export const LEASE_HELD = 'its former avatar host still holds it; it joins again once that lapses';
/** Why an avatar is out of the world while the core cannot reach the database to take its lease. */
export const NO_DATABASE = 'the database does not answer';
/** Why an avatar whose lease its host lost is out of the world until another host has it. */
export const LEASE_LOST = 'its avatar host lost its hold on it; it joins again from another host';

/** The lease of an avatar. */
export function avatarLease(avatar: string): string {
  return `avatar:${avatar}`;
}

/**
 * What taking an avatar's lease gave: its epoch, or another live holder, or no answer from the database; or
 * nothing to do (`moot`: another take for the avatar began meanwhile, and decides).
 */
export type Taken = { epoch: number } | { heldBy: string } | { failed: true } | { moot: true };

/** An avatar as the core placed it: on which host session, at which epoch. */
export interface Placed {
  avatar: string;
  holder: string;
  epoch: number;
}

/** Options of {@link AvatarLeases}. */
export interface AvatarLeasesOptions {
  /** How long a lease lasts unless renewed (`LEASE_MS`). */
  leaseMs: number;
  log: Logger;
  /** How often the core reads the leases of the avatars it placed. */
  checkEveryMs?: number;
  /** What closing does besides (closing the database the leases are in, when it was opened for them). */
  close?: () => Promise<void>;
}

/** Defaults of {@link AvatarLeasesOptions}. */
export const DefaultAvatarLeasesOptions = { checkEveryMs: 1000 } satisfies Required<Pick<AvatarLeasesOptions, 'checkEveryMs'>>;

/**
 * @example
 * const leases = new AvatarLeases(new Leases(db), { leaseMs: 15_000, log });
 * const pool = await HostPool.over(source, log, { leases });
 */
export class AvatarLeases {
  readonly leaseMs: number;
  readonly checkEveryMs: number;
  /** A host not heard from for this long takes no new avatar: half the lease time. */
  readonly heardWithinMs: number;
  #leases: Leases;
  #log: Logger;
  #close: (() => Promise<void>) | undefined;
  /** Whether the database failed to answer last time (logged once until it answers again). */
  #failing = false;
  /** The latest take begun for each avatar, and for which holder. */
  #taking = new Map<string, { n: number; holder: string }>();
  #takes = 0;

  constructor(leases: Leases, opts: AvatarLeasesOptions) {
    const o = { ...DefaultAvatarLeasesOptions, ...opts };
    this.#leases = leases;
    this.#log = o.log;
    this.leaseMs = o.leaseMs;
    this.checkEveryMs = o.checkEveryMs;
    this.heardWithinMs = o.leaseMs / 2;
    this.#close = o.close;
  }

  /**
   * Take the avatar's lease for `holder` at a new epoch: when it is free or lapsed, or, `planned`, from whoever holds
   * it. A take that a later one for another holder made moot lets what it took go.
   */
  async take(avatar: string, holder: string, planned: boolean): Promise<Taken> {
    const mine = { n: ++this.#takes, holder };
    this.#taking.set(avatar, mine);
    const taken = await this.#take(avatar, holder, planned);
    const latest = this.#taking.get(avatar);
    if (latest === mine) {
      this.#taking.delete(avatar);
      return taken;
    }
    if ('epoch' in taken && latest?.holder !== holder) await this.release(avatar, holder, taken.epoch);
    return { moot: true };
  }

  async #take(avatar: string, holder: string, planned: boolean): Promise<Taken> {
    try {
      const lease = await this.#leases.acquire(avatarLease(avatar), holder, this.leaseMs, { force: planned });
      this.#answered();
      if (lease) return { epoch: lease.epoch };
      const now = await this.#leases.current(avatarLease(avatar));
      return { heldBy: now?.holder ?? 'another holder' };
    } catch (err) {
      this.#unanswered(err);
      return { failed: true };
    }
  }

  /** Let an avatar's lease go at once (it stopped): the next placement need not wait for it to lapse. */
  async release(avatar: string, holder: string, epoch: number): Promise<void> {
    try {
      await this.#leases.release(avatarLease(avatar), holder, epoch);
    } catch (err) {
      // It lapses by itself within the lease time.
      this.#log.debug({ err, avatar }, 'could not release the lease of an avatar; it lapses by itself');
    }
  }

  /**
   * One look at the leases: which of `placed` no longer hold theirs (it lapsed, or another holder has it, or a
   * higher epoch), and which of `waiting` another holder still holds, live (they wait until it lapses). Undefined
   * when the database did not answer (nothing can be told then: nothing moves and nothing is placed).
   */
  async look<P extends Placed>(placed: readonly P[], waiting: readonly string[]): Promise<{ lost: P[]; held: Set<string> } | undefined> {
    if (placed.length === 0 && waiting.length === 0) return { lost: [], held: new Set() };
    let rows;
    try {
      rows = await this.#leases.list('avatar:');
      this.#answered();
    } catch (err) {
      this.#unanswered(err);
      return undefined;
    }
    const byName = new Map(rows.map((r) => [r.name, r]));
    const lost = placed.filter((p) => {
      const lease = byName.get(avatarLease(p.avatar));
      // Read after the placement was taken: gone, or moved past it, it is lost.
      return !lease || lease.epoch > p.epoch || (lease.epoch === p.epoch && (!lease.live || lease.holder !== p.holder));
    });
    return { lost, held: new Set(waiting.filter((avatar) => byName.get(avatarLease(avatar))?.live === true)) };
  }

  async close(): Promise<void> {
    await this.#close?.();
  }

  #answered(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.#log.info('the database answers again: avatars are placed and moved again');
  }

  #unanswered(err: unknown): void {
    if (this.#failing) {
      this.#log.debug({ err }, 'the database still does not answer');
      return;
    }
    this.#failing = true;
    this.#log.warn({ err }, 'the database does not answer: no avatar is placed or moved until it does (those playing stay while their hosts can renew their leases)');
  }
}
