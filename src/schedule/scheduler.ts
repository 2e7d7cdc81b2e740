/**
 * The scheduler: owns every croner job of mindlink. Scheduled goals (one job
 * each, in their creator's zone) live here; the daily digests and the
 * once-a-minute count of time played live in {@link Digests}, which it starts and stops.
 *
 * A run sets the goal as if its creator had sent `Goal: …` (through
 * {@link ScheduleHost}), unless the avatar is stopped (skipped, one line) or
 * on an owner goal (the scheduled goal is parked and offered later). Every
 * run's scheduled time is stored before it acts, so no run fires twice; runs
 * missed while mindlink was down are made up at start when under an hour
 * late, else skipped with one line. {@link Scheduler.stop} stops every timer.
 */
import { Cron } from 'croner';
import type { Logger } from 'pino';
import { UserError } from '../errors.ts';
import { sameGoal } from '../goals/goal-language.ts';
import { requirePossibleGoal } from '../goals/possible.ts';
import { plainGoal } from '../text.ts';
import { displayName } from '../people/people.ts';
import { schedulePingPlace } from '../people/ping-place.ts';
import { isOwnerOrAdmin } from '../rights.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Destination, Schedule } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { schedulesWriter } from '../store/writers/schedules.ts';
import { Digests, type DigestHost } from './digests.ts';
import { checkCron, DEFAULT_ZONE, formatRun, missedRuns, nextRuns, slotOf } from './runs.ts';
import { splitSchedule, type When } from './when.ts';

/** What the scheduler needs from the rest of mindlink. */
export interface ScheduleHost extends DigestHost {
  /** Whether the avatar's loop runs (not stopped). */
  isPlaying(avatar: string): boolean;
  /**
   * Set an owner goal exactly as `Goal: …` from this person would; `run` is the schedule and its slot, and its Done
   * pings them in `pingIn`.
   */
  setGoal(avatar: string, text: string, personId: string, run: { id: number; slot: string }, pingIn?: Destination): void;
  /** Park an owner goal without touching the current one; it is offered again when the avatar chooses. */
  parkGoal(avatar: string, text: string, personId: string, reason: string, pingIn?: Destination): void;
}

/** How to build a {@link Scheduler}. */
export interface SchedulerOptions {
  store: Store;
  log: Logger;
  host: ScheduleHost;
  /** Identities in `ADMINS`. */
  admins: readonly string[];
}

/** A schedule as `/schedule` made it: the record, its next runs and the zone they are in. */
export interface ScheduleAdded {
  schedule: Schedule;
  when: When;
  next: Date[];
  zone: string;
  /** The creator has no zone of their own (UTC). */
  defaultZone: boolean;
}

/** At most this many schedules per avatar. */
export const MAX_PER_AVATAR = 20;
const GOAL_MAX = 2000;

/**
 * @example
 * const scheduler = new Scheduler({ store, log, host, admins: config.ADMINS });
 * await scheduler.start();      // make up or skip missed runs, arm every job
 * scheduler.add({ avatar: 'demo', text: 'every day at 8:00 collect 10 oak logs', by: personId, dest: 'console' });
 * scheduler.stop();             // every timer stopped
 */
export class Scheduler {
  private readonly jobs = new Map<number, Cron>();
  private started = false;
  /** The daily digests and the minutes-played counter. */
  readonly digests: Digests;

  /** `schedules.json` `schedules` and `next`: written here only. */
  private readonly file;

  constructor(private readonly options: SchedulerOptions) {
    this.digests = new Digests({ store: options.store, log: options.log, host: options.host, zoneOf: (id) => this.zoneOf(id) });
    this.file = schedulesWriter(options.store);
  }

  /** The zone of a person (`/timezone`), UTC when unset. */
  zoneOf(personId: string): string {
    return this.options.store.state.data.persons.find((p) => p.id === personId)?.timezone ?? DEFAULT_ZONE;
  }

  private personName(personId: string): string {
    return displayName(this.options.store.state.data.persons.find((p) => p.id === personId));
  }

  /** Make up or skip the runs missed while mindlink was down, then arm every job. */
  async start(now = new Date()): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const s of [...this.file.value.schedules]) {
      try {
        await this.catchUp(s, now);
      } catch (err) {
        this.options.log.error({ err, schedule: s.id }, 'missed-run check failed');
      }
      this.arm(s);
    }
    await this.digests.start(now);
  }

  /** Stop every timer (shutdown). */
  stop(): void {
    this.started = false;
    for (const job of this.jobs.values()) job.stop();
    this.jobs.clear();
    this.digests.stop();
  }

  /** Number of live croner jobs (tests: every timer is stopped on shutdown). */
  get liveJobs(): number {
    return this.jobs.size + this.digests.liveJobs;
  }

  // ───────────────────────────── schedules ─────────────────────────────

  /**
   * Store and arm a schedule from `/schedule`'s text (`<when> <goal>`).
   * Throws a UserError naming what was wrong; then nothing is stored.
   */
  add(input: { avatar: string; text: string; by: string; dest: Destination }, now = new Date()): ScheduleAdded {
    const split = splitSchedule(input.text.replace(/\p{Cc}/gu, ' '));
    if (!split.ok) throw new UserError('bad_schedule', `${capital(split.error)}. Nothing was scheduled.`);
    const { when, goal } = split.value;
    if (goal.length > GOAL_MAX) throw new UserError('bad_schedule', `The goal is ${goal.length} characters; the limit is ${GOAL_MAX}. Nothing was scheduled.`);
    requirePossibleGoal(goal, (why) => `I could never do "${plainGoal(goal, 80)}": ${why}. Nothing was scheduled.`, input.avatar);
    const zone = this.zoneOf(input.by);
    const checked = checkCron(when.cron, zone, now);
    if (!checked.ok) throw new UserError('bad_schedule', `${capital(checked.error)}. Nothing was scheduled.`);
    const count = this.file.value.schedules.filter((s) => s.avatar === input.avatar).length;
    if (count >= MAX_PER_AVATAR) {
      throw new UserError('too_many_schedules', `${input.avatar} has ${count} schedules already (the most). /unschedule one first.`, input.avatar);
    }
    const schedule = this.file.update((f) => {
      const s: Schedule = {
        id: f.next,
        avatar: input.avatar,
        cron: when.cron,
        when: when.label,
        goal,
        createdBy: input.by,
        dest: input.dest,
        createdAt: now.toISOString(),
        lastRun: null,
      };
      f.next += 1;
      f.schedules.push(s);
      return s;
    });
    this.arm(schedule);
    const defaultZone = this.options.store.state.data.persons.find((p) => p.id === input.by)?.timezone === undefined;
    return { schedule, when, next: checked.value, zone, defaultZone };
  }

  /** Remove a schedule and its job. Returns it, or undefined when there is none with that id. */
  remove(id: number): DeepReadonly<Schedule> | undefined {
    const s = this.get(id);
    if (!s) return undefined;
    this.jobs.get(id)?.stop();
    this.jobs.delete(id);
    this.file.update((f) => {
      f.schedules = f.schedules.filter((x) => x.id !== id);
    });
    return s;
  }

  /** An avatar was removed: its schedules go (and their jobs). Returns how many. */
  removeAllFor(avatar: string): number {
    const gone = this.file.value.schedules.filter((s) => s.avatar === avatar);
    for (const s of gone) this.remove(s.id);
    return gone.length;
  }

  /** An avatar was renamed: its schedules, and the minutes it played (what digests count from), follow it. */
  renameAvatar(from: string, to: string): void {
    this.file.update((f) => {
      for (const s of f.schedules) if (s.avatar === from) s.avatar = to;
    });
    this.digests.renameAvatar(from, to);
  }

  /** One schedule by id. */
  get(id: number): DeepReadonly<Schedule> | undefined {
    return this.file.value.schedules.find((s) => s.id === id);
  }

  /** Schedules, oldest first; those of some avatars only when `avatars` is given. */
  list(avatars?: readonly string[]): DeepReadonly<Schedule>[] {
    return this.file.value.schedules.filter((s) => !avatars || avatars.includes(s.avatar));
  }

  /** The next run of a schedule (in its creator's zone), or null. */
  nextRun(s: DeepReadonly<Schedule>, now = new Date()): Date | null {
    return nextRuns(s.cron, this.zoneOf(s.createdBy), now, 1)[0] ?? null;
  }

  /** A person's zone changed: their schedules and digests run in the new one from now on. */
  zoneChanged(personId: string): void {
    for (const s of this.file.value.schedules.filter((x) => x.createdBy === personId)) this.arm(s);
    this.digests.zoneChanged(personId);
  }

  private arm(s: DeepReadonly<Schedule>): void {
    this.jobs.get(s.id)?.stop();
    this.jobs.delete(s.id);
    if (!this.started) return;
    const zone = this.zoneOf(s.createdBy);
    try {
      const job = new Cron(s.cron, { timezone: zone, mode: '5-or-6-parts', protect: true }, () => this.fire(s.id));
      this.jobs.set(s.id, job);
    } catch (err) {
      // Stored by an older check or edited by hand: it cannot run, and says so in the log (it stays listed).
      this.options.log.error({ err, schedule: s.id, cron: s.cron, zone }, 'schedule cannot be armed');
    }
  }

  /** One firing of a schedule's job: the one catch of this boundary. */
  private async fire(id: number): Promise<void> {
    try {
      const s = this.get(id);
      if (!s) return;
      const slot = slotOf(s.cron, this.zoneOf(s.createdBy), new Date());
      if (!slot) return;
      if (!(await this.claim(s, slot))) return;
      this.apply(s, slot);
    } catch (err) {
      this.options.log.error({ err, schedule: id }, 'scheduled run failed');
    }
  }

  /** Record `slot` as handled before acting, on disk: false when it was handled already (never twice). */
  private async claim(s: DeepReadonly<Schedule>, slot: Date): Promise<boolean> {
    if (s.lastRun && Date.parse(s.lastRun) >= slot.getTime()) return false;
    this.file.update((f) => {
      const kept = f.schedules.find((x) => x.id === s.id);
      if (kept) kept.lastRun = slot.toISOString();
    });
    await this.file.flush();
    return true;
  }

  private async catchUp(s: DeepReadonly<Schedule>, now: Date): Promise<void> {
    const zone = this.zoneOf(s.createdBy);
    const missed = missedRuns(s.cron, zone, s.lastRun, s.createdAt, now);
    if (missed.kind === 'none') return;
    if (!(await this.claim(s, missed.slot))) return;
    const at = `${formatRun(missed.slot, zone)} ${zone}`;
    this.options.log.info({ schedule: s.id, slot: missed.slot.toISOString(), kind: missed.kind, earlier: missed.skipped }, 'run missed while mindlink was down');
    if (missed.kind === 'run') {
      this.apply(s, missed.slot);
      return;
    }
    const earlier = missed.skipped > 0 ? ` (and ${missed.skipped} earlier)` : '';
    this.options.host.post(s.dest, s.avatar, `Schedule #${s.id} skipped its run of ${at}${earlier}: mindlink was down, and it is more than an hour late.`);
  }

  /** Set the scheduled goal of the run of `slot`, or say in one line why not. */
  private apply(s: DeepReadonly<Schedule>, slot: Date): void {
    const { host, store } = this.options;
    const avatar = store.state.data.avatars.find((a) => a.name === s.avatar);
    if (!avatar) {
      this.options.log.warn({ schedule: s.id, avatar: s.avatar }, 'avatar of a schedule is gone: schedule removed');
      this.remove(s.id);
      return;
    }
    const say = (text: string): void => host.post(s.dest, avatar.name, text);
    const who = this.personName(s.createdBy);
    const goal = plainGoal(s.goal);
    if (!isOwnerOrAdmin(store.state.data, s.createdBy, avatar, this.options.admins)) {
      say(`Schedule #${s.id} skipped: ${who} no longer owns ${avatar.name}. /unschedule ${s.id} removes it.`);
      return;
    }
    if (!host.isPlaying(avatar.name)) {
      say(`Schedule #${s.id} skipped: I'm stopped. /play ${avatar.name} starts me.`);
      return;
    }
    const current = avatar.goal;
    if (current && sameGoal(current.text, s.goal)) {
      say(`Schedule #${s.id}: I'm already on it (${goal}).`);
      return;
    }
    if (current?.setBy === 'owner') {
      if (avatar.parked.some((p) => sameGoal(p.text, s.goal))) {
        say(`Schedule #${s.id}: ${goal} is already parked; I take it up after the goal I'm on.`);
        return;
      }
      const reason = `scheduled while I was on ${this.personName(current.setById ?? '')}'s goal`;
      host.parkGoal(avatar.name, s.goal, s.createdBy, reason, schedulePingPlace(this.options.store.state.data, avatar.name, s.createdBy, s.dest));
      say(`Schedule #${s.id} parked for later: ${goal}. I'm on an owner goal (${plainGoal(current.text, 80)}) and take it up after.`);
      return;
    }
    host.setGoal(avatar.name, s.goal, s.createdBy, { id: s.id, slot: slot.toISOString() }, schedulePingPlace(this.options.store.state.data, avatar.name, s.createdBy, s.dest));
    say(`New goal from ${who} (schedule #${s.id}): ${s.goal}.`);
  }
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
