/**
 * The {@link HostSource} of avatar hosts on any machine, over NATS
 * (`HOSTS=nats://…`, docs/many-machines.md). The core does not start these
 * hosts: it finds them.
 *
 * - The core says it is there every couple of seconds ({@link CoreBeat}: its
 *   session, its world's address, the silence bound); each host does the same
 *   ({@link HostBeat}: its id, session, capacity, load and the avatars it
 *   plays). A host is up from its first beat for this core.
 * - A host not heard from for `silenceMs` is `gone`: its running skills end
 *   `aborted`, its avatars are placed on other hosts and join again there.
 *   A host that leaves on purpose (it says so) is gone at once; so is the old
 *   session of a host that comes back under a new one (a restart).
 * - Each core beat names the host sessions the core holds: a host it no longer
 *   names (it heard the core but the core did not hear it) leaves its games.
 * - A host session taken as gone that speaks again (a network that came back)
 *   is told to leave every game and start again as a new session; the pool
 *   places avatars on it afresh. When another session of the same id is live
 *   meanwhile, two hosts share an id: the one that speaks again is told so and exits.
 * - Calls that get an answer go as NATS requests (the answer to a reply subject
 *   of this core's session); an abort is a message on the host's call subject.
 * - NATS delivers at most once: what is published while the other side is
 *   reconnecting is lost. The messages are numbered both ways and the beats
 *   say how far each side got; `ledger.ts` finds and mends what was lost.
 * - With a database, the beat says how long the avatars' leases last, and each
 *   host's beat whether it can hold leases now (`avatar-leases.ts`).
 */
import { EventEmitter } from 'node:events';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { remember } from '../../../bounded-map.ts';
import type { CoreBeat, CoreToHost, FromHost, HostBeat, HostReset, ToHost, WorldAddress } from '../protocol.ts';
import type { HostSource, HostSourceEvents } from '../source.ts';
import { codec, guarded } from './connect.ts';
import { isPlaced, Ledger } from './ledger.ts';
import { newSession, SUBJECT_TOKEN, subjects, type Subjects } from './subjects.ts';

/** Options of {@link NatsHosts}. */
export interface NatsHostsOptions {
  nc: NatsConnection;
  cluster: string;
  world: WorldAddress | null;
  /** A host silent for this long is gone. */
  silenceMs: number;
  log: Logger;
  /** How often the core beats (and looks for silent hosts). */
  beatEveryMs?: number;
  /** How long {@link NatsHosts.start} waits for the hosts already running to answer the first beat. */
  settleMs?: number;
  /** Close `nc` too when this closes (it was opened for it). */
  closesConnection?: boolean;
  /** With a database: how long the avatars' leases last (the beat tells the hosts, which renew them). */
  leaseMs?: number;
}

/** Defaults of {@link NatsHostsOptions}. */
export const DefaultNatsHostsOptions = { beatEveryMs: 2000, settleMs: 1500 } satisfies Required<Pick<NatsHostsOptions, 'beatEveryMs' | 'settleMs'>>;

/** Why an avatar whose NATS host went silent is out of the world until another host has it. */
export const HOST_SILENT = 'its avatar host stopped answering; it joins again from another host';
/** Why an avatar whose NATS host left is out of the world until another host has it. */
export const HOST_LEFT = 'its avatar host stopped; it joins again from another host';

/** The calls a host answers, sent as requests. */
const ANSWERED = new Set<CoreToHost['type']>(['skill', 'stop', 'say', 'map', 'scene']);

interface Live {
  id: string;
  session: string;
  key: string;
  lastHeard: number;
  /** What was sent to it and heard from it, to find what NATS lost. */
  ledger: Ledger;
}

/**
 * @example
 * const source = new NatsHosts({ nc, cluster: 'main', world, silenceMs: 10_000, log });
 * const pool = await HostPool.over(source, log);
 */
export class NatsHosts extends EventEmitter<HostSourceEvents> implements HostSource {
  readonly canGrow = true;
  /** This run of the core. */
  readonly session = newSession();
  #o: NatsHostsOptions & typeof DefaultNatsHostsOptions;
  #s: Subjects;
  #live = new Map<string, Live>();
  /** Host sessions taken as gone (bounded): one that speaks again is reset. */
  #gone = new Map<string, true>();
  #subs: Subscription[] = [];
  #timer: NodeJS.Timeout | undefined;
  #lastBeat = 0;
  /** When the beat timer last ran. */
  #tickAt = 0;
  #closed = false;

  constructor(opts: NatsHostsOptions) {
    super();
    this.#o = { ...DefaultNatsHostsOptions, ...opts };
    this.#s = subjects(opts.cluster);
  }

  async start(): Promise<void> {
    const { nc } = this.#o;
    this.#subs = [
      nc.subscribe(this.#s.hostBeatAll, { callback: guarded(this.#o.log, (m) => this.#onBeat(m.subject, m.data)) }),
      nc.subscribe(this.#s.outAll, { callback: guarded(this.#o.log, (m) => this.#onOut(m.subject, m.data)) }),
      nc.subscribe(this.#s.replyAll(this.session), { callback: guarded(this.#o.log, (m) => this.#onOut(m.subject, m.data)) }),
    ];
    await nc.flush();
    this.#beat();
    this.#tickAt = Date.now();
    this.#timer = setInterval(() => {
      this.#beat();
      this.#findSilent();
    }, this.#o.beatEveryMs);
    this.#timer.unref();
    // The hosts already running answer the first beat at once: the first avatars are spread over all of them.
    await new Promise((r) => setTimeout(r, this.#o.settleMs));
    this.#o.log.info({ hosts: [...this.#live.keys()], cluster: this.#o.cluster, core: this.session }, 'avatar hosts found over NATS');
  }

  send(key: string, msg: CoreToHost): boolean {
    const live = this.#live.get(key.slice(0, key.indexOf('/')));
    if (live?.key !== key || this.#closed) return false;
    return this.#sendTo(live, msg);
  }

  /** Send one numbered message. */
  #sendTo(live: Live, msg: CoreToHost): boolean {
    return this.#publish(live, live.ledger.sent(msg), msg, ANSWERED.has(msg.type) ? this.#s.reply(this.session, live.id) : undefined);
  }

  /** Mend what a host's beat shows NATS lost: calls end as a dropped connection ends them, starts and aborts go again. */
  #mend(live: Live, b: HostBeat): void {
    const missed = live.ledger.missed;
    const lost = live.ledger.beat(b);
    if (live.ledger.missed > missed) this.#o.log.warn({ avatarHost: live.id }, 'messages from an avatar host were lost on the network; it is asked to say again where its avatars are');
    for (const { avatar, m } of lost.answers) {
      this.#o.log.warn({ avatarHost: live.id, avatar, answer: m.type }, 'a call to an avatar host or its answer was lost on the network; it ends as if the connection had dropped');
      this.emit('message', live.key, m);
    }
    for (const m of lost.again) {
      if (m.type === 'start') this.#o.log.warn({ avatarHost: live.id, avatar: m.avatar }, 'the start of an avatar was lost on the network; sending it again');
      this.#sendTo(live, m);
    }
  }

  /** Tell every host to leave this core's games (they keep running for the next core), and stop listening. */
  async close(): Promise<void> {
    if (this.#closed) return;
    clearInterval(this.#timer);
    for (const live of this.#live.values()) this.#sendTo(live, { type: 'shutdown' });
    this.#closed = true;
    for (const sub of this.#subs) sub.unsubscribe();
    await this.#o.nc.flush().catch((err: unknown) => this.#o.log.warn({ err }, 'could not tell the avatar hosts the core stops'));
    if (this.#o.closesConnection) await this.#o.nc.close();
  }

  #publish(live: Pick<Live, 'id' | 'session'>, seq: number, m: CoreToHost | HostReset, reply?: string): boolean {
    try {
      this.#o.nc.publish(this.#s.call(live.id), codec.encode({ to: live.session, seq, m } satisfies ToHost), reply ? { reply } : undefined);
      return true;
    } catch (err) {
      this.#o.log.warn({ err, avatarHost: live.id, message: m.type }, 'could not send to an avatar host');
      return false;
    }
  }

  #beat(): void {
    if (this.#closed) return;
    this.#lastBeat = Date.now();
    const live = [...this.#live.values()];
    const beat: CoreBeat = {
      type: 'core',
      session: this.session,
      world: this.#o.world,
      silenceMs: this.#o.silenceMs,
      hosts: live.map((l) => l.session),
      sent: Object.fromEntries(live.map((l) => [l.session, l.ledger.seq])),
      missed: Object.fromEntries(live.filter((l) => l.ledger.missed > 0).map((l) => [l.session, l.ledger.missed])),
      ...(this.#o.leaseMs ? { leaseMs: this.#o.leaseMs } : {}),
    };
    try {
      this.#o.nc.publish(this.#s.coreBeat, codec.encode(beat));
    } catch (err) {
      this.#o.log.warn({ err }, 'could not send the core beat');
    }
  }

  #findSilent(): void {
    const now = Date.now();
    // A core whose own event loop stood still heard nothing meanwhile: that time is not the hosts' silence (what
    // they said is read right after this tick).
    const stood = Math.max(0, now - this.#tickAt - this.#o.beatEveryMs);
    this.#tickAt = now;
    for (const live of [...this.#live.values()]) {
      live.lastHeard += stood;
      const silentMs = now - live.lastHeard;
      if (silentMs <= this.#o.silenceMs) continue;
      this.#o.log.warn({ avatarHost: live.id, silentMs }, 'an avatar host went silent; taking it as gone');
      this.#takeGone(live, HOST_SILENT);
    }
  }

  /** `planned`: it said it leaves, or runs again under a new session (its avatars' leases may be taken at once). */
  #takeGone(live: Live, reason: string, planned = false): void {
    this.#live.delete(live.id);
    remember(this.#gone, live.key, true, 1000);
    this.emit('down', live.key, { kind: 'gone', reason, ...(planned ? { planned } : {}) });
  }

  #decode<T>(data: Uint8Array): T | undefined {
    try {
      return codec.decode(data) as T;
    } catch (err) {
      this.#o.log.warn({ err }, 'a NATS message that is not JSON; dropped');
      return undefined;
    }
  }

  /** A beat on `…host.<id>.beat`: the id is the subject's (which NATS permissions can tie to the host's user). */
  #onBeat(subject: string, data: Uint8Array): void {
    const b = this.#decode<HostBeat>(data);
    if (this.#closed || b?.type !== 'host' || b.id !== subject.split('.').at(-2) || !SUBJECT_TOKEN.test(b.id) || typeof b.session !== 'string' || !SUBJECT_TOKEN.test(b.session)) return;
    const key = `${b.id}/${b.session}`;
    const live = this.#live.get(b.id);
    if (b.core !== this.session) {
      // A host that has not heard this core yet: tell it at once (at most a beat every 200 ms).
      if (Date.now() - this.#lastBeat > 200) this.#beat();
      return;
    }
    if (b.leaving) {
      if (live?.session === b.session) {
        this.#o.log.info({ avatarHost: b.id }, 'an avatar host is leaving');
        this.#takeGone(live, HOST_LEFT, true);
      }
      return;
    }
    if (this.#gone.has(key)) {
      const duplicate = live && live.session !== b.session;
      this.#o.log.warn({ avatarHost: b.id, duplicate }, duplicate ? 'two avatar hosts run with the same id; one is told to exit' : 'an avatar host taken as gone speaks again; it starts afresh');
      this.#publish({ id: b.id, session: b.session }, 0, { type: 'reset', reason: duplicate ? 'duplicate' : 'unknown' });
      return;
    }
    if (live && live.session !== b.session) {
      this.#o.log.warn({ avatarHost: b.id }, 'an avatar host started again under a new session; its avatars move');
      this.#takeGone(live, HOST_LEFT, true);
    }
    let host = this.#live.get(b.id);
    const leases = b.leases === 'ok' || b.leases === 'failing' ? b.leases : undefined;
    if (!host) {
      host = { id: b.id, session: b.session, key, lastHeard: Date.now(), ledger: new Ledger() };
      this.#live.set(b.id, host);
      const capacity = Number.isInteger(b.capacity) && b.capacity > 0 ? b.capacity : 1;
      this.#o.log.info({ avatarHost: b.id, pid: b.pid, capacity, load: b.load, leases }, 'avatar host joined');
      this.emit('up', { key, name: b.id, pid: b.pid, capacity, leases });
    }
    host.lastHeard = Date.now();
    if (Array.isArray(b.avatars)) this.emit('message', key, { type: 'alive', avatars: b.avatars.filter(isPlaced), leases });
    this.#mend(host, b);
  }

  /** A message on a host's `out` subject or an answer on this core's reply subject: `…host.<id>.out`, `…reply.<id>`. */
  #onOut(subject: string, data: Uint8Array): void {
    const parts = subject.split('.');
    const id = parts.at(-1) === 'out' ? parts.at(-2) : parts.at(-1);
    const live = id ? this.#live.get(id) : undefined;
    const f = this.#decode<FromHost>(data);
    if (this.#closed || !live || !f || f.from !== live.session || typeof f.m?.type !== 'string') return;
    live.lastHeard = Date.now();
    const missed = live.ledger.missed;
    for (const m of live.ledger.heard(f)) this.emit('message', live.key, m);
    if (live.ledger.missed > missed) this.#o.log.warn({ avatarHost: live.id }, 'messages from an avatar host were lost on the network; it is asked to say again where its avatars are');
  }
}
