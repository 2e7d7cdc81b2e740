/**
 * Run times of a schedule, through croner: checking an expression, the next
 * runs, the slot a firing belongs to, what to do about runs missed while
 * mindlink was down, and printing times in a person's zone. Time is always
 * passed in, so all of it runs under fake time.
 */
import { Cron } from 'croner';
import { MIN_GAP_MS, type Result } from './when.ts';

export { MIN_GAP_MS };

/** A run missed while mindlink was down is made up at start if it is at most this late. */
export const CATCH_UP_MS = 60 * 60_000;
/** The zone of a person who has not set one. */
export const DEFAULT_ZONE = 'UTC';

/** A croner job that never fires on its own: for computing run times. */
function pattern(cron: string, zone: string): Cron {
  return new Cron(cron, { paused: true, timezone: zone, mode: '5-or-6-parts' });
}

/**
 * Check a cron expression in a zone: croner must accept it, it must run again,
 * and not more often than every {@link MIN_GAP_MS}. Returns the next three runs.
 *
 * @example
 * checkCron('0 8 * * *', 'Europe/Berlin', now) // → { ok: true, value: [Date, Date, Date] }
 * checkCron('0 25 * * *', 'UTC', now)         // → { ok: false, error: '"0 25 * * *": 25 does not fit: the hour is 0 to 23' }
 */
export function checkCron(cron: string, zone: string, now: Date): Result<Date[]> {
  let job: Cron;
  try {
    job = pattern(cron, zone);
  } catch (err) {
    return { ok: false, error: cronProblem(cron, err instanceof Error ? err.message : String(err)) };
  }
  try {
    const next = job.nextRuns(6, now);
    if (next.length === 0) return { ok: false, error: `"${cron}" never runs (no such date comes again)` };
    for (let i = 1; i < next.length; i++) {
      const gap = (next[i]?.getTime() ?? 0) - (next[i - 1]?.getTime() ?? 0);
      if (gap < MIN_GAP_MS) {
        return { ok: false, error: `"${cron}" runs more often than every ${MIN_GAP_MS / 60_000} minutes; a goal needs time to get done` };
      }
    }
    return { ok: true, value: next.slice(0, 3) };
  } finally {
    job.stop();
  }
}

/** What each cron field holds, for refusals (croner's names). */
const FIELDS: Record<string, string> = {
  second: 'the seconds are 0 to 59',
  minute: 'the minute is 0 to 59',
  hour: 'the hour is 0 to 23',
  day: 'the day of the month is 1 to 31 (or L)',
  month: 'the month is 1 to 12 (or jan … dec)',
  dayOfWeek: 'the day of the week is 0 to 7 (0 and 7 are Sunday; or sun … sat)',
};

const CRON_HINT = 'use a cron expression of 5 fields (minute hour day month weekday, e.g. "0 8 * * *"), or 6 with seconds first';

/**
 * What is wrong with a cron expression croner refused, in mindlink's words: croner's own text
 * names its classes and environments (`CronPattern: … requires system startup detection`), so it
 * is read for what went wrong and never shown.
 *
 * @example
 * cronProblem('0 25 * * *', 'CronPattern: Invalid value for hour: 25') // → '"0 25 * * *": 25 is no hour: the hour is 0 to 23'
 */
export function cronProblem(cron: string, message: string): string {
  const head = `"${cron}"`;
  if (/@reboot|event-based|startup/i.test(message)) {
    return `${head} would run when the machine starts, which is no time of day: use a time, e.g. @daily, "every day at 8:00" or "0 8 * * *"`;
  }
  if (/^@/.test(cron.trim())) return `${head} is not a schedule name I know: use @hourly, @daily, @weekly, @monthly or @yearly, "every day at 8:00", or a cron expression`;
  const value = /Invalid value for (\w+): (.+)$/.exec(message);
  const field = value?.[1] ? FIELDS[value[1]] : undefined;
  if (value && field) return `${head}: ${value[2]?.replace(/\.+$/, '')} does not fit: ${field}`;
  if (/parts|configuration format/i.test(message)) return `${head} has ${cron.trim().split(/\s+/).length} fields; ${CRON_HINT}`;
  if (/stepping|step/i.test(message)) return `${head}: a step (*/n) is a whole number of 1 or more`;
  if (/nth weekday/i.test(message)) return `${head}: the nth weekday (#n) is 1 to 5, or L for the last`;
  const entry = /entry (\d) \(([^)]*)\)/.exec(message);
  if (entry) {
    const n = Number(entry[1]);
    const written = cron.trim().split(/\s+/)[n - 1] ?? entry[2];
    return `${head}: field ${n} ("${written}") holds something no cron field takes; ${CRON_HINT}`;
  }
  return `${head} is not a cron expression I can run; ${CRON_HINT}`;
}

/** The next `n` runs after `now`. */
export function nextRuns(cron: string, zone: string, now: Date, n = 1): Date[] {
  const job = pattern(cron, zone);
  try {
    return job.nextRuns(n, now);
  } finally {
    job.stop();
  }
}

/**
 * The scheduled time a firing at `at` belongs to: the latest run at or before
 * `at` (croner may call a moment early or late, so a second of slack either way).
 */
export function slotOf(cron: string, zone: string, at: Date): Date | null {
  const job = pattern(cron, zone);
  try {
    return job.previousRuns(1, new Date(at.getTime() + 1000))[0] ?? null;
  } finally {
    job.stop();
  }
}

/** What to do at start about the runs a schedule missed. */
export type MissedRuns =
  | { kind: 'none' }
  /** Make up the latest one now; `skipped` older ones are dropped. */
  | { kind: 'run'; slot: Date; skipped: number }
  /** Too late for all of them: skip, with one line. */
  | { kind: 'skip'; slot: Date; skipped: number };

/**
 * Runs that fell between the last handled one (or the schedule's creation) and
 * `now`: the latest is made up if it is less than {@link CATCH_UP_MS} late, else skipped.
 *
 * @example
 * missedRuns('0 8 * * *', 'UTC', '2026-12-01T08:00:00Z', '2026-11-01T00:00:00Z', new Date('2026-12-02T08:20:00Z'))
 * // → { kind: 'run', slot: 2026-12-02T08:00Z, skipped: 0 }
 */
export function missedRuns(cron: string, zone: string, lastRun: string | null, createdAt: string, now: Date): MissedRuns {
  const since = Date.parse(lastRun ?? createdAt);
  const job = pattern(cron, zone);
  try {
    // Only the latest few matter: every 5 minutes over a day down is still "skipped n".
    const prev = job.previousRuns(100, now).filter((d) => d.getTime() > since && d.getTime() <= now.getTime());
    const latest = prev[0];
    if (!latest) return { kind: 'none' };
    const late = now.getTime() - latest.getTime();
    return { kind: late < CATCH_UP_MS ? 'run' : 'skip', slot: latest, skipped: prev.length - 1 };
  } finally {
    job.stop();
  }
}

/**
 * A zone name as typed → the IANA zone: in `Intl.supportedValuesOf('timeZone')`
 * (any case), `UTC`, or an alias both Intl and croner accept (`Europe/Kiev`).
 * Offsets (`+02:00`) and abbreviations (`CET`, `PST`) are refused with a suggestion.
 *
 * @example
 * resolveZone('europe/berlin') // → { ok: true, value: 'Europe/Berlin' }
 * resolveZone('Berlin')        // → { ok: false, error: '"Berlin" is not an IANA time zone. Did you mean Europe/Berlin?' }
 */
export function resolveZone(text: string): Result<string> {
  const t = text.trim();
  const zones = Intl.supportedValuesOf('timeZone');
  if (/^(utc|gmt|etc\/utc|z)$/i.test(t)) return { ok: true, value: 'UTC' };
  const exact = zones.find((z) => z.toLowerCase() === t.toLowerCase());
  if (exact) return { ok: true, value: exact };
  if (/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(t)) {
    const alias = canonicalZone(t);
    if (alias) return { ok: true, value: alias };
  }
  const key = t.toLowerCase().replace(/\s+/g, '_');
  const like = zones.filter((z) => z.toLowerCase().split('/').pop() === key || z.toLowerCase() === key).slice(0, 3);
  const hint = like.length > 0 ? ` Did you mean ${like.join(' or ')}?` : ' Use a name like Europe/Berlin, America/New_York or UTC.';
  return { ok: false, error: `"${t.slice(0, 60)}" is not an IANA time zone.${hint}` };
}

/** The alias itself when both Intl and croner compute in it (`Europe/Kiev`); else null. */
function canonicalZone(name: string): string | null {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name }).format(0);
    const job = pattern('0 0 * * *', name);
    job.nextRun(new Date(0));
    job.stop();
    return name;
  } catch (err) {
    // Intl throws RangeError for an unknown zone; croner throws its own Error.
    if (err instanceof Error) return null;
    throw err;
  }
}

/**
 * A time as a person reads it in their zone: `Wed 2 Dec 08:00` (seconds shown when not :00).
 *
 * @example
 * formatRun(new Date('2026-12-02T07:00:00Z'), 'Europe/Berlin') // → 'Wed 2 Dec 08:00'
 */
export function formatRun(date: Date, zone: string): string {
  const withSeconds = date.getUTCSeconds() !== 0;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' as const } : {}),
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const clock = `${get('hour')}:${get('minute')}${withSeconds ? `:${get('second')}` : ''}`;
  return `${get('weekday')} ${get('day')} ${get('month')} ${clock}`;
}

