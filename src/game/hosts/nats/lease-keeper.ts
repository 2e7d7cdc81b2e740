/**
 * An avatar host's hold on its avatars (NATS hosts with a database, docs/many-machines.md). The core takes an
 * avatar's lease for this host session before it places the avatar here, and the start's placement number is the
 * lease's epoch. From then on this keeper renews every lease the host holds, in one statement every third of the
 * lease time, but only while the host hears the core: a host cut off from the core lets its avatars go, as the
 * core can no longer reach them.
 *
 * - A lease the database did not renew (it lapsed, or another host took it at a higher epoch) is let go at once.
 * - A lease that could not be renewed (the database did not answer, or the core was not heard) is let go a sixth
 *   of the lease time before it lapses, by this process's clock counted from when its last renewal was sent (the
 *   database's own expiry is later), looked at every thirtieth of it: the avatar has left this host before the
 *   core may give it to another.
 * - While the database does not answer, the host's beat says so (`failing`) and the core places no avatar here.
 */
import type { Logger } from 'pino';
import type { Leases } from '../../../db/leases.ts';
import { avatarLease } from '../avatar-leases.ts';
import type { LeaseState } from '../protocol.ts';

/** Options of {@link LeaseKeeper}. */
export interface LeaseKeeperOptions {
  leases: Leases;
  /** The leases' holder: this host session, `<id>/<session>`. */
  holder: string;
  /** How long a lease lasts (the core's beat says). */
  leaseMs: number;
  /** The avatars the host plays, each with its placement (its lease's epoch). */
  playing(): Array<[avatar: string, placement: number]>;
  /** Whether the host heard the core lately enough to renew. */
  hearsCore(): boolean;
  /** A lease is lost (`why`): the host leaves that avatar's game. */
  lost(avatar: string, epoch: number, why: string): void;
  log: Logger;
  /** How often it looks at its leases (a thirtieth of the lease time, at most a second: well within the sixth it lets go before). */
  tickMs?: number;
}

interface Held {
  epoch: number;
  /** Until when it is surely held, by this process's clock. */
  validUntil: number;
  /** Whether a renewal of it went through yet. */
  renewed: boolean;
}

/** A promise, or a rejection once `ms` passed without it settling (a later failure of the promise is handled by the race). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * @example
 * const keeper = new LeaseKeeper({ leases, holder: 'h1/3fa2c1d0e9b8', leaseMs: 15_000, playing: () => runtime.playing(), hearsCore, lost, log });
 * keeper.start();
 * // when the host leaves its games:
 * keeper.stop(); await runtime.shutdown(); await keeper.releaseAll();
 */
export class LeaseKeeper {
  #o: LeaseKeeperOptions;
  #held = new Map<string, Held>();
  #state: LeaseState = 'ok';
  #timer: NodeJS.Timeout | undefined;
  #renewing = false;
  #lastRound = 0;
  #stopped = false;

  constructor(opts: LeaseKeeperOptions) {
    this.#o = opts;
  }

  /** Whether the database answered its last renewal. */
  get state(): LeaseState {
    return this.#state;
  }

  /** How often the leases are renewed: a third of the lease time. */
  get renewEveryMs(): number {
    return this.#o.leaseMs / 3;
  }

  start(): void {
    const tickMs = this.#o.tickMs ?? Math.max(50, Math.min(1000, this.#o.leaseMs / 30));
    this.#timer = setInterval(() => this.tick(), tickMs);
    this.#timer.unref();
    this.tick();
  }

  /** Renew no more (the host leaves its games). */
  stop(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#held.clear();
  }

  /** Let every lease of this host session go at once (after its games were left), so the next hosts need not wait. */
  async releaseAll(): Promise<void> {
    try {
      await within(this.#o.leases.releaseAll(this.#o.holder), this.renewEveryMs);
    } catch (err) {
      this.#o.log.debug({ err }, 'could not release the leases of this host; they lapse by themselves');
    }
  }

  /** Look at the leases now: take on the avatars started since, let go of those that run out, renew when due. */
  tick(): void {
    if (this.#stopped) return;
    const now = Date.now();
    const playing = new Map(this.#o.playing());
    for (const [avatar, epoch] of playing) {
      if (this.#held.get(avatar)?.epoch !== epoch) this.#held.set(avatar, { epoch, validUntil: now + this.#o.leaseMs, renewed: false });
    }
    for (const [avatar, h] of this.#held) if (playing.get(avatar) !== h.epoch) this.#held.delete(avatar);
    const hears = this.#o.hearsCore();
    for (const [avatar, h] of [...this.#held]) {
      if (now < h.validUntil - this.#o.leaseMs / 6) continue;
      this.#held.delete(avatar);
      this.#o.lost(avatar, h.epoch, hears ? 'its lease could not be renewed: the database did not answer' : 'its lease ran out: the core was not heard');
    }
    const due = this.#state === 'failing' || now - this.#lastRound >= this.renewEveryMs || [...this.#held.values()].some((h) => !h.renewed);
    if (due && hears && !this.#renewing) void this.#round();
  }

  /** One renewal of every lease held (with none, it still asks the database, to know whether it answers). */
  async #round(): Promise<void> {
    this.#renewing = true;
    const sentAt = Date.now();
    this.#lastRound = sentAt;
    const batch = [...this.#held];
    const renewal = this.#o.leases.renewMany(
      this.#o.holder,
      batch.map(([avatar, h]) => ({ name: avatarLease(avatar), epoch: h.epoch })),
      this.#o.leaseMs,
    );
    try {
      const renewed = await within(renewal, this.renewEveryMs);
      if (this.#stopped) return;
      this.#answered();
      for (const [avatar, h] of batch) {
        if (this.#held.get(avatar) !== h) continue;
        if (renewed.has(avatarLease(avatar))) {
          h.validUntil = sentAt + this.#o.leaseMs;
          h.renewed = true;
          continue;
        }
        this.#held.delete(avatar);
        this.#o.lost(avatar, h.epoch, 'its lease lapsed or another host took it');
      }
    } catch (err) {
      if (!this.#stopped) this.#unanswered(err);
    } finally {
      this.#renewing = false;
    }
  }

  #answered(): void {
    if (this.#state === 'ok') return;
    this.#state = 'ok';
    this.#o.log.info('the database answers again: the avatars\' leases are renewed');
  }

  #unanswered(err: unknown): void {
    if (this.#state === 'failing') {
      this.#o.log.debug({ err }, 'the database still does not answer');
      return;
    }
    this.#state = 'failing';
    this.#o.log.warn({ err, avatars: this.#held.size }, 'the database does not answer: the avatars\' leases cannot be renewed, and each avatar leaves this host before its lease lapses');
  }
}
