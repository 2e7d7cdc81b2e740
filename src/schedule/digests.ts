/**
 * The daily digests (one croner job per chat that has `/digest on`, in the
 * zone of the person who turned it on) and the once-a-minute count of the
 * minutes each avatar spends in the game, which the digest reports.
 */
import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Destination, Digest } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { digestsWriter } from '../store/writers/digests.ts';
import { keyed } from '../keyed.ts';
import { buildDigest, usageSince } from './digest.ts';
import { nextRuns } from './runs.ts';
import { hhmm } from './when.ts';

/** The digest time when `/digest on` names none. */
export const DEFAULT_DIGEST_TIME = '20:00';

/** What the digests need of the core: who is in the game, and a way to post. */
export interface DigestHost {
  /** Whether the avatar is in the game right now (counted as time played). */
  inGame(avatar: string): boolean;
  /** Post a line to one chat, about an avatar (or none). */
  post(dest: Destination, avatar: string | null, text: string): void;
}

/** How to build {@link Digests}. */
export interface DigestsOptions {
  store: Store;
  log: Logger;
  host: DigestHost;
  /** The zone of a person (UTC when unset). */
  zoneOf(personId: string): string;
}

/**
 * @example
 * const digests = new Digests({ store, log, host, zoneOf });
 * await digests.start();
 * digests.set('telegram:-100123', true, personId, '21:00');
 */
export class Digests {
  private readonly jobs = new Map<Destination, Cron>();
  private sampler: Cron | undefined;
  private started = false;

  /** `schedules.json` `digests` and `played`: written here only. */
  private readonly w;

  constructor(private readonly options: DigestsOptions) {
    this.w = digestsWriter(options.store);
  }

  /** A renamed avatar: the minutes it played, and the digests' marks of it, follow it. */
  renameAvatar(from: string, to: string): void {
    const move = <T>(counters: Record<string, T>): void => {
      const value = counters[from];
      if (value === undefined) return;
      counters[to] = value;
      delete counters[from];
    };
    this.w.update((f) => {
      move(f.played);
      for (const d of f.digests) {
        move(d.mark.played);
        move(d.mark.usage);
      }
    });
  }

  /**
   * Arm every digest and the minute counter. A digest that fell due while mindlink was down is
   * sent now, once: it covers the whole span since the last one, however many days that is.
   */
  async start(now = new Date()): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const d of [...this.w.value.digests]) {
      this.arm(d);
      if (this.missed(d, now)) {
        this.options.log.info({ dest: d.dest, since: d.mark.at }, 'digest missed while down: sending it late');
        await this.send(d.dest, now);
      }
    }
    this.sampler = new Cron('* * * * *', { protect: true }, () => this.countPlayed());
  }

  /** Whether a digest time passed between the chat's last digest (or `/digest on`) and `now`. */
  private missed(d: Digest, now: Date): boolean {
    // A second of slack: croner may fire a moment early, and that digest is not missed.
    const due = nextRuns(digestCron(d.time), this.options.zoneOf(d.by), new Date(Date.parse(d.mark.at) + 1000), 1)[0];
    return due !== undefined && due.getTime() <= now.getTime();
  }

  /** Stop every timer. */
  stop(): void {
    this.started = false;
    for (const job of this.jobs.values()) job.stop();
    this.jobs.clear();
    this.sampler?.stop();
    this.sampler = undefined;
  }

  /** Number of live croner jobs. */
  get liveJobs(): number {
    return this.jobs.size + (this.sampler ? 1 : 0);
  }

  /** A person's zone changed: their digests run in the new one. */
  zoneChanged(personId: string): void {
    for (const d of this.w.value.digests.filter((x) => x.by === personId)) this.arm(d);
  }

  /** The digest of a chat, if on. */
  get(dest: Destination): DeepReadonly<Digest> | undefined {
    return this.w.value.digests.find((d) => d.dest === dest);
  }

  /** Turn a chat's digest on (at `time`, `HH:MM` in the person's zone) or off. Returns it when on. */
  set(dest: Destination, on: boolean, by: string, time?: string, now = new Date()): DeepReadonly<Digest> | undefined {
    const existing = this.get(dest);
    this.jobs.get(dest)?.stop();
    this.jobs.delete(dest);
    if (!on) {
      if (existing) this.w.update((f) => void (f.digests = f.digests.filter((d) => d.dest !== dest)));
      return undefined;
    }
    const d = this.w.update((f) => {
      const kept = f.digests.find((x) => x.dest === dest);
      if (kept) {
        kept.time = time ?? kept.time;
        kept.by = by;
        return kept;
      }
      const created: Digest = { dest, time: time ?? DEFAULT_DIGEST_TIME, by, mark: this.mark(now) };
      f.digests.push(created);
      return created;
    });
    this.arm(d);
    return d;
  }

  /** The next digest of a chat, or null. */
  next(d: DeepReadonly<Digest>, now = new Date()): Date | null {
    return nextRuns(digestCron(d.time), this.options.zoneOf(d.by), now, 1)[0] ?? null;
  }

  private arm(d: DeepReadonly<Digest>): void {
    this.jobs.get(d.dest)?.stop();
    this.jobs.delete(d.dest);
    if (!this.started) return;
    const job = new Cron(digestCron(d.time), { timezone: this.options.zoneOf(d.by), protect: true }, async () => {
      await this.send(d.dest);
    });
    this.jobs.set(d.dest, job);
  }

  /** Counters now: the start of the next digest's span. */
  private mark(now: Date): Digest['mark'] {
    return {
      at: now.toISOString(),
      played: keyed(this.w.value.played),
      usage: keyed(Object.entries(this.options.store.record.data.usage).map(([k, u]) => [k, { ...u, ...(u.turns ? { turns: { ...u.turns } } : {}) }] as const)),
    };
  }

  /**
   * Post the digest of one chat: one message per avatar linked there with something
   * to say since the last one, nothing at all on a quiet day. The one catch of this boundary.
   */
  async send(dest: Destination, now = new Date()): Promise<number> {
    try {
      const d = this.get(dest);
      if (!d) return 0;
      const { store, host } = this.options;
      const zone = this.options.zoneOf(d.by);
      const since = new Date(d.mark.at);
      const linked = store.state.data.links.filter((l) => l.dest === dest).map((l) => l.avatar);
      let sent = 0;
      for (const avatar of store.state.data.avatars.filter((a) => linked.includes(a.name))) {
        const text = buildDigest({
          avatar,
          goals: store.record.data.goals.filter((g) => g.avatar === avatar.name),
          since,
          now,
          zone,
          playedMinutes: (this.w.value.played[avatar.name] ?? 0) - (d.mark.played[avatar.name] ?? 0),
          usage: usageSince(store.record.data.usage[avatar.name], d.mark.usage[avatar.name]),
        });
        if (text) {
          host.post(dest, avatar.name, text);
          sent++;
        }
      }
      const mark = this.mark(now);
      this.w.update((f) => {
        const kept = f.digests.find((x) => x.dest === dest);
        if (kept) kept.mark = mark;
      });
      await this.w.flush();
      return sent;
    } catch (err) {
      this.options.log.error({ err, dest }, 'digest failed');
      return 0;
    }
  }

  /** Once a minute: one more minute for every avatar in the game. */
  private countPlayed(): void {
    try {
      const inGame = this.options.store.state.data.avatars.filter((a) => this.options.host.inGame(a.name)).map((a) => a.name);
      if (inGame.length === 0) return;
      this.w.update((f) => {
        for (const name of inGame) f.played[name] = (f.played[name] ?? 0) + 1;
      });
    } catch (err) {
      this.options.log.error({ err }, 'counting time played failed');
    }
  }
}

/** `HH:MM` → the cron expression of a daily run at that time. */
export function digestCron(time: string): string {
  const [h, m] = time.split(':').map(Number);
  return `${m ?? 0} ${h ?? 0} * * *`;
}

/** Whether `text` is a digest time `HH:MM` (also `8:00`, `20h`); normalised, or null. */
export function digestTime(text: string): string | null {
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?h?$/.exec(text.trim().toLowerCase());
  if (!m) return null;
  const h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  return h <= 23 && min <= 59 ? hhmm(h, min) : null;
}
