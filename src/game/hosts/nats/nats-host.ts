/**
 * An avatar host's side of NATS (`npm run host -- --nats … --id …`,
 * docs/many-machines.md): it plays for the core it hears, with the same
 * {@link HostRuntime} a child host runs, and the core's messages come and go
 * over the cluster's subjects (`subjects.ts`) instead of an IPC channel.
 *
 * - It beats every couple of seconds ({@link HostBeat}: id, session, capacity,
 *   load, the avatars it plays), and at once when it hears a new core.
 * - A new core (another session) means the old one's games are over: it leaves
 *   them and plays afresh for the new one, on the world the new one names.
 * - When it has not heard its core for the core's silence bound, it leaves
 *   every game and starts again as a new session: by then the core has placed
 *   its avatars on other hosts, and two bots must not play one avatar.
 * - Told by the core that its session is unknown there (it was taken as gone),
 *   or no longer named in the core's beat once it was, it does the same; told
 *   that another host runs with its id, it stops.
 * - Its beat says how far the core's numbered messages reached it and which
 *   calls it has not answered yet, and the number of the last message it
 *   sent: the core finds from it what NATS lost. When the core's beat says it
 *   missed messages of this session, it says again where each avatar is.
 * - With a database, when the core's beat says its avatars are held by
 *   leases, a {@link LeaseKeeper} renews theirs while it hears the core; an
 *   avatar whose lease is lost, it tells the core of and leaves at once.
 */
import { EventEmitter } from 'node:events';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import type { Leases } from '../../../db/leases.ts';
import type { HostRuntime } from '../host-runtime.ts';
import type { AvatarAgain, CoreBeat, FromHost, HostBeat, HostToCore, ToHost, WorldAddress } from '../protocol.ts';
import { codec, guarded } from './connect.ts';
import { LeaseKeeper } from './lease-keeper.ts';
import { newSession, subjects, type Subjects } from './subjects.ts';

/** Options of {@link NatsHost}. */
export interface NatsHostOptions {
  nc: NatsConnection;
  cluster: string;
  /** Its name: the subjects it takes calls on. */
  id: string;
  /** How many avatars it takes. */
  capacity: number;
  log: Logger;
  /** The runtime of the games it plays for one core, on that core's world. */
  runtime(world: WorldAddress | null, send: (m: HostToCore) => void): Promise<HostRuntime>;
  beatEveryMs?: number;
  /** The leases in its database (`--database`, `DATABASE_URL`): it can hold avatars for a core that holds them by leases. */
  leases?: Leases;
}

/** Defaults of {@link NatsHostOptions}. */
export const DefaultNatsHostOptions = { beatEveryMs: 2000 } satisfies Required<Pick<NatsHostOptions, 'beatEveryMs'>>;

/** Events of a {@link NatsHost}. */
export interface NatsHostEvents {
  /** The core says another host runs with this id: this one must stop. */
  duplicate: [];
}

/**
 * @example
 * const host = new NatsHost({ nc, cluster: 'main', id: 'a', capacity: 100, log, runtime: async (world, send) => runHost({ … }) });
 * await host.start();
 * // on SIGTERM:
 * await host.leave();
 */
export class NatsHost extends EventEmitter<NatsHostEvents> {
  #o: NatsHostOptions & typeof DefaultNatsHostOptions;
  #s: Subjects;
  #session = newSession();
  #core: CoreBeat | null = null;
  #coreHeard = 0;
  /** When the beat timer last ran. */
  #tickAt = 0;
  /** Whether the core's beat has named this session (from then on, a beat that does not means it was taken as gone). */
  #held = false;
  #runtime: HostRuntime | null = null;
  /** The runtime's leases, when the core holds its avatars by leases. */
  #keeper: LeaseKeeper | null = null;
  /** Whether it said it has no database to a core that holds avatars by leases. */
  #toldNoDatabase = false;
  /** Where each call being run is answered (its request's reply subject): the calls open. */
  #replyTo = new Map<number, string>();
  /** The highest message number of this session that reached it, or that the core's beat says it sent. */
  #seen = 0;
  /** The number of the last message this session sent. */
  #said = 0;
  /** The core's last mark of messages it missed from this session that was answered (each avatar said again). */
  #missedAnswered = 0;
  /** Core changes, leaving and resets, one at a time. */
  #chain: Promise<void> = Promise.resolve();
  #subs: Subscription[] = [];
  #timer: NodeJS.Timeout | undefined;
  #leaving = false;
  /** The process's event-loop delay and CPU since the last beat (what the beat says of its load). */
  #loop = monitorEventLoopDelay({ resolution: 10 });
  #cpu = { used: process.cpuUsage(), at: performance.now() };

  constructor(opts: NatsHostOptions) {
    super();
    this.#o = { ...DefaultNatsHostOptions, ...opts };
    this.#s = subjects(opts.cluster);
  }

  /** This run's session (a new one each time it leaves its games). */
  get session(): string {
    return this.#session;
  }

  async start(): Promise<void> {
    const { nc } = this.#o;
    this.#subs = [
      nc.subscribe(this.#s.coreBeat, { callback: guarded(this.#o.log, (m) => this.#onCoreBeat(m.data)) }),
      nc.subscribe(this.#s.call(this.#o.id), { callback: guarded(this.#o.log, (m) => this.#onCall(m.data, m.reply)) }),
    ];
    await nc.flush();
    this.#loop.enable();
    this.#beat();
    this.#tickAt = Date.now();
    this.#timer = setInterval(() => {
      this.#fence();
      this.#beat();
    }, this.#o.beatEveryMs);
    this.#timer.unref();
  }

  /** Stop on purpose: say so (the core moves its avatars at once), leave every game, stop listening. */
  async leave(): Promise<void> {
    this.#leaving = true;
    clearInterval(this.#timer);
    this.#loop.disable();
    this.#beat();
    await this.#serial(() => this.#drop('the host is stopping'));
    for (const sub of this.#subs) sub.unsubscribe();
    await this.#o.nc.flush().catch((err: unknown) => this.#o.log.warn({ err }, 'could not tell the core this host leaves'));
  }

  #serial(step: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(step).catch((err: unknown) => this.#o.log.error({ err }, 'avatar host: could not change cores'));
    this.#chain = next;
    return next;
  }

  #publish(subject: string, body: HostBeat | Omit<FromHost, 'seq'>): boolean {
    try {
      if ('from' in body) {
        this.#o.nc.publish(subject, codec.encode({ ...body, seq: this.#said + 1 } satisfies FromHost));
        this.#said += 1;
      } else this.#o.nc.publish(subject, codec.encode(body));
      return true;
    } catch (err) {
      this.#o.log.warn({ err, subject }, 'could not send to the core');
      return false;
    }
  }

  #beat(): void {
    const beat: HostBeat = {
      type: 'host',
      id: this.#o.id,
      session: this.#session,
      core: this.#core?.session ?? null,
      pid: process.pid,
      capacity: this.#o.capacity,
      avatars: this.#runtime?.playing() ?? [],
      hearing: this.#runtime?.hearing() ?? [],
      load: this.#load(),
      ...(this.#o.leases ? { leases: this.#keeper?.state ?? 'ok' } : {}),
      ...(this.#leaving ? { leaving: true as const } : {}),
      seen: this.#seen,
      open: [...this.#replyTo.keys()],
      said: this.#said,
    };
    this.#publish(this.#s.hostBeat(this.#o.id), beat);
  }

  /** Event-loop p99 and CPU (percent of one core) since the last beat. */
  #load(): HostBeat['load'] {
    const used = process.cpuUsage(this.#cpu.used);
    const now = performance.now();
    const load = {
      loopDelayP99Ms: Math.round(this.#loop.percentile(99) / 1e5) / 10,
      cpuPct: Math.round((used.user + used.system) / Math.max(1, now - this.#cpu.at)) / 10,
    };
    this.#cpu = { used: process.cpuUsage(), at: now };
    this.#loop.reset();
    return load;
  }

  /** Leave the games when the core has been silent past its bound: it has given them to other hosts by now. */
  #fence(): void {
    // A host whose own event loop stood still (a busy machine) heard nothing meanwhile: that time is not the core's
    // silence. What the core said is read right after this tick; if the core took this host as gone, its beat says so.
    const now = Date.now();
    this.#coreHeard += Math.max(0, now - this.#tickAt - this.#o.beatEveryMs);
    this.#tickAt = now;
    const core = this.#core;
    if (!core || this.#leaving || Date.now() - this.#coreHeard <= core.silenceMs) return;
    this.#o.log.warn({ silentMs: Date.now() - this.#coreHeard }, 'no word from the core; leaving the games (its avatars play on other hosts now)');
    this.#core = null;
    void this.#serial(() => this.#drop('the core went silent'));
  }

  /** Leave every game and take a new session (what is sent under the old one from now on is dropped). */
  async #drop(why: string): Promise<void> {
    const runtime = this.#runtime;
    const keeper = this.#keeper;
    this.#runtime = null;
    this.#keeper = null;
    keeper?.stop();
    this.#session = newSession();
    this.#held = false;
    this.#replyTo.clear();
    this.#seen = 0;
    this.#said = 0;
    this.#missedAnswered = 0;
    if (!runtime) return;
    this.#o.log.info({ why, avatars: runtime.playing().map(([a]) => a) }, 'leaving the games');
    await runtime.shutdown();
    // The bots have left: the next hosts may take the avatars at once.
    await keeper?.releaseAll();
  }

  /** Play for `core` from now on (a fresh runtime on its world), and say so at once. */
  async #playFor(core: CoreBeat): Promise<void> {
    const session = this.#session;
    const send = (m: HostToCore): void => this.#send(session, m);
    const runtime = await this.#o.runtime(core.world, send);
    this.#runtime = runtime;
    // Only now: the core places avatars on a host whose beat names it.
    this.#core = core;
    this.#coreHeard = Date.now();
    this.#keeper = this.#keeperFor(core, session, runtime);
    this.#o.log.info({ core: core.session, world: core.world }, 'playing for a core');
    this.#beat();
  }

  /** The keeper of the runtime's leases, when the core holds avatars by leases and this host has a database. */
  #keeperFor(core: CoreBeat, session: string, runtime: HostRuntime): LeaseKeeper | null {
    const leaseMs = typeof core.leaseMs === 'number' && core.leaseMs > 0 ? core.leaseMs : undefined;
    if (!leaseMs) return null;
    if (!this.#o.leases) {
      if (!this.#toldNoDatabase) this.#o.log.error('the core holds its avatars by leases, and this host has no database: it takes no avatar (give it --database or DATABASE_URL)');
      this.#toldNoDatabase = true;
      return null;
    }
    const keeper = new LeaseKeeper({
      leases: this.#o.leases,
      holder: `${this.#o.id}/${session}`,
      leaseMs,
      playing: () => runtime.playing(),
      // Heard within a third of the lease time (and at least two of its beats).
      hearsCore: () => Date.now() - this.#coreHeard <= Math.max(leaseMs / 3, 2 * this.#o.beatEveryMs),
      lost: (avatar, epoch, why) => {
        if (this.#session !== session) return;
        this.#o.log.warn({ avatar, epoch, why }, 'lost the lease of an avatar; leaving its game');
        this.#send(session, { type: 'left', avatar, placement: epoch, why });
        runtime.leave(avatar, epoch, why);
      },
      log: this.#o.log,
    });
    keeper.start();
    return keeper;
  }

  #onCoreBeat(data: Uint8Array): void {
    const b = this.#decode<CoreBeat>(data);
    if (b?.type !== 'core' || typeof b.session !== 'string' || this.#leaving) return;
    if (this.#core?.session === b.session) {
      this.#coreHeard = Date.now();
      // What the core sent before this beat has arrived by now, or never will.
      const sent = b.sent?.[this.#session];
      if (typeof sent === 'number' && sent > this.#seen) this.#seen = sent;
      const missed = b.missed?.[this.#session];
      if (typeof missed === 'number' && missed > this.#missedAnswered) this.#sayAgain(missed);
      const named = Array.isArray(b.hosts) && b.hosts.includes(this.#session);
      if (named) this.#held = true;
      else if (this.#held) this.#takenAsGone();
      return;
    }
    void this.#serial(async () => {
      if (this.#core?.session === b.session || this.#leaving) return;
      await this.#drop('a new core');
      await this.#playFor(b);
    });
  }

  /** The core missed messages of this session: each avatar's state and snapshot again, as they are now. */
  #sayAgain(mark: number): void {
    const runtime = this.#runtime;
    if (!runtime) return;
    this.#missedAnswered = mark;
    this.#o.log.info({ avatars: runtime.playing().length }, 'the core missed messages; saying again where each avatar is');
    for (const { state, snapshot } of runtime.current()) this.#send(this.#session, { type: 'again', state, snapshot });
  }

  /** The core no longer holds this session (its beats did not reach it for long): leave the games, join afresh. */
  #takenAsGone(): void {
    const core = this.#core;
    this.#held = false;
    void this.#serial(async () => {
      await this.#drop('the core took this host as gone');
      if (core && this.#core === core) await this.#playFor(core);
    });
  }

  #onCall(data: Uint8Array, reply: string | undefined): void {
    const t = this.#decode<ToHost>(data);
    if (!t || t.to !== this.#session || typeof t.m?.type !== 'string') return;
    if (typeof t.seq === 'number' && t.seq > this.#seen) this.#seen = t.seq;
    const m = t.m;
    if (m.type === 'reset') {
      if (m.reason === 'duplicate') {
        this.#o.log.error({ id: this.#o.id }, 'another avatar host runs with this id: give each host its own --id');
        this.emit('duplicate');
        return;
      }
      this.#takenAsGone();
      return;
    }
    if (m.type === 'shutdown') {
      this.#core = null;
      void this.#serial(() => this.#drop('the core stops'));
      return;
    }
    if (!this.#runtime) return;
    if (reply && 'call' in m) this.#replyTo.set(m.call, reply);
    this.#runtime.handle(m);
    // A new lease is renewed at once: its first renewal says from when it is surely held.
    if (m.type === 'start') this.#keeper?.tick();
  }

  /** What the runtime of session `session` tells the core: answers to their reply subject, the rest on `out`. */
  #send(session: string, m: HostToCore | AvatarAgain): void {
    // The beat carries what `alive` would; a runtime left behind says nothing more.
    if (session !== this.#session || m.type === 'alive') return;
    const reply = 'call' in m ? this.#replyTo.get(m.call) : undefined;
    if (reply === undefined || !('call' in m)) {
      this.#publish(this.#s.out(this.#o.id), { from: session, m });
      return;
    }
    this.#replyTo.delete(m.call);
    if (this.#publish(reply, { from: session, m })) return;
    // An answer too big for NATS (a huge scene) still answers: with nothing.
    const empty: HostToCore =
      m.type === 'scene' ? { ...m, scene: null } : m.type === 'map' ? { ...m, map: null } : m.type === 'skillResult' ? { ...m, result: { ok: false, code: 'threw', detail: 'its result could not be sent to the core' } } : m;
    this.#publish(reply, { from: session, m: empty });
  }

  #decode<T>(data: Uint8Array): T | undefined {
    try {
      return codec.decode(data) as T;
    } catch (err) {
      this.#o.log.warn({ err }, 'a NATS message that is not JSON; dropped');
      return undefined;
    }
  }
}
