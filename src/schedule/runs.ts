/**
 * Run times of a schedule, through croner: checking an expression, the next
 * runs, the slot a firing belongs to, what to do about runs missed while
 * mindlink was down, and printing times in a person's zone. Time is always
 * passed in, so all of it runs under fake time.
 */
import { Cron } from 'croner';
import type { Result } from './when.ts';

/** Two runs of one schedule must be at least this far apart: a goal needs time to be worked on. */
export const MIN_GAP_MS = 5 * 60_000;
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
 * checkCron('0 25 * * *', 'UTC', now)         // → { ok: false, error: 'Invalid value for hour: 25' }
 */
export function checkCron(cron: string, zone: string, now: Date): Result<Date[]> {
  let job: Cron;
  try {
    job = pattern(cron, zone);
  } catch (err) {
    // croner says exactly what is wrong ("Invalid value for hour: 25"); drop its class prefix.
    return { ok: false, error: `"${cron}": ${String((err as Error).message).replace(/^Cron\w*:\s*/, '').replace(/\.+$/, '')}` };
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

