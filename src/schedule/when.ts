/**
 * `<when>` of `/schedule`: a cron expression, or one of the plain forms people
 * type (`every day at 8:00`, `every 2 hours`, `weekdays at 18:30`), turned into
 * a cron expression. Pure: no clock, no croner (its checks are in `runs.ts`).
 */

import { own } from '../keyed.ts';

/** A parse result: the value, or what was wrong in words a chat can show. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

/** A `<when>` understood: the cron expression to run on, and how to say it. */
export interface When {
  cron: string;
  /** Plain words for replies, e.g. `every day at 08:00`. */
  label: string;
}

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const DAY_ABBR: Record<string, number> = Object.fromEntries(
  DAYS.flatMap((d, i) => [
    [d, i],
    [`${d}s`, i],
    [d.slice(0, 3), i],
  ]),
);
DAY_ABBR.tues = 2;
DAY_ABBR.wed = 3;
DAY_ABBR.thu = 4;
DAY_ABBR.thur = 4;
DAY_ABBR.thurs = 4;

/** Two runs of one schedule must be at least this far apart: a goal needs time to be worked on. */
export const MIN_GAP_MS = 5 * 60_000;

/** Minute steps that divide the hour evenly; hour steps that divide the day. */
const MINUTE_STEPS = [5, 10, 15, 20, 30];
const HOUR_STEPS = [1, 2, 3, 4, 6, 8, 12];

/** One cron field: digits and cron symbols, and day or month names. */
const CRON_FIELD = /^(?:[\d*?LW#,/-]|sun|mon|tue|wed|thu|fri|sat|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)+$/i;
/** The catch-all error of {@link parseWhen}; {@link splitSchedule} prefers a more specific one. */
const NOT_UNDERSTOOD = 'is not a schedule I understand';

function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}
function fail<T>(error: string): Result<T> {
  return { ok: false, error };
}

/**
 * A time of day: `8`, `8:00`, `08:30`, `8.30`, `8am`, `6:30 pm`, `noon`, `midnight`.
 *
 * @example
 * parseTimeOfDay('6:30pm') // → { ok: true, value: { hour: 18, minute: 30 } }
 */
export function parseTimeOfDay(text: string): Result<{ hour: number; minute: number }> {
  const t = text.trim().toLowerCase();
  if (t === 'noon') return ok({ hour: 12, minute: 0 });
  if (t === 'midnight') return ok({ hour: 0, minute: 0 });
  const m = /^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/.exec(t);
  if (!m) return fail(`"${text}" is not a time of day (write it like 8:00, 18:30 or 6:30pm)`);
  let hour = Number(m[1]);
  const minute = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.[0];
  if (half) {
    if (hour < 1 || hour > 12) return fail(`"${text}": with am/pm the hour is 1 to 12`);
    if (half === 'a' && hour === 12) hour = 0;
    if (half === 'p' && hour !== 12) hour += 12;
  }
  if (hour > 23) return fail(`"${text}": the hour is 0 to 23`);
  if (minute > 59) return fail(`"${text}": the minutes are 00 to 59`);
  return ok({ hour, minute });
}

/** `08:05` */
export function hhmm(hour: number, minute: number): string {
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** Day words (`mondays`, `mon and fri`, `tue,thu`) → cron day-of-week numbers, or an error naming the word. */
function parseDays(text: string): Result<number[]> {
  const words = text
    .toLowerCase()
    .split(/\s*(?:,|\band\b|&|\+)\s*|\s+/)
    .filter(Boolean);
  const days: number[] = [];
  for (const w of words) {
    const d = own(DAY_ABBR, w);
    if (d === undefined) return fail(`"${w}" is not a day of the week`);
    if (!days.includes(d)) days.push(d);
  }
  if (days.length === 0) return fail('name the days, e.g. "every monday at 9:00"');
  return ok(days.sort((a, b) => a - b));
}

function daysLabel(days: number[]): string {
  const names = days.map((d) => `${DAYS[d]?.[0]?.toUpperCase()}${DAYS[d]?.slice(1)}`);
  return names.length === 1 ? `every ${names[0]}` : `every ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Whether `text` is written as a cron expression (5 or 6 fields of cron characters, or a `@daily`-style nickname).
 * Whether it is a valid one is croner's call (`runs.ts`).
 */
export function looksLikeCron(text: string): boolean {
  const t = text.trim();
  if (/^@[a-z]+$/i.test(t)) return true;
  const fields = t.split(/\s+/);
  return (fields.length === 5 || fields.length === 6) && fields.every((f) => CRON_FIELD.test(f)) && /[\d*]/.test(fields[0] ?? '');
}

/**
 * Read a `<when>`: a cron expression (passed on as is) or a plain form.
 *
 * Plain forms: `every day at 8:00` (also `daily at …`, `at …`), `weekdays at 18:30`,
 * `weekends at 10am`, `every monday at 9` (`mondays at …`, `every mon and fri at …`),
 * `every hour`, `hourly`, `every 2 hours`, `every 30 minutes`.
 *
 * @example
 * parseWhen('weekdays at 18:30') // → { ok: true, value: { cron: '30 18 * * 1-5', label: 'weekdays at 18:30' } }
 */
export function parseWhen(text: string): Result<When> {
  const raw = text.trim().replace(/\s+/g, ' ');
  if (!raw) return fail('say when, e.g. "every day at 8:00" or a cron expression like "0 8 * * *"');
  if (looksLikeCron(raw)) return ok({ cron: raw, label: raw });
  const t = raw.toLowerCase();

  const interval = /^every (\d{1,4}|an?|one)? ?(minutes?|mins?|hours?|hrs?|h)$/.exec(t) ?? (t === 'hourly' ? ['hourly', '1', 'hour'] : null);
  if (interval) {
    const n = interval[1] === undefined || /^(an?|one)$/.test(interval[1]) ? 1 : Number(interval[1]);
    const unit = interval[2] ?? 'hour';
    if (n === 0) return fail(`every 0 ${unit} is no schedule: say how many, e.g. "every 2 hours"`);
    if (unit.startsWith('m')) {
      const least = MIN_GAP_MS / 60_000;
      if (n < least) {
        return fail(`every ${n === 1 ? 'minute' : `${n} minutes`} is too often: runs are at least ${least} minutes apart, so a goal has time to get done; use ${MINUTE_STEPS.join(', ')} minutes, or hours`);
      }
      if (!MINUTE_STEPS.includes(n)) {
        return fail(`every ${n} minutes does not divide the hour evenly; use ${MINUTE_STEPS.join(', ')} minutes, or hours`);
      }
      return ok({ cron: `*/${n} * * * *`, label: `every ${n} minutes` });
    }
    if (!HOUR_STEPS.includes(n)) {
      return fail(`every ${n} hours does not divide the day evenly; use ${HOUR_STEPS.join(', ')} hours, or a cron expression`);
    }
    return ok({ cron: n === 1 ? '0 * * * *' : `0 */${n} * * *`, label: n === 1 ? 'every hour' : `every ${n} hours` });
  }

  const at = /^(.*?)\s*\bat (.+)$/.exec(t);
  if (!at) {
    return fail(`"${raw}" ${NOT_UNDERSTOOD}: try "every day at 8:00", "weekdays at 18:30", "every 2 hours" or a cron expression like "0 8 * * *"`);
  }
  const time = parseTimeOfDay(at[2] ?? '');
  if (!time.ok) return time;
  const { hour, minute } = time.value;
  const clock = hhmm(hour, minute);
  const days = (at[1] ?? '').replace(/^on /, '').trim();
  if (days === '' || /^(every ?day|daily|each day)$/.test(days)) {
    return ok({ cron: `${minute} ${hour} * * *`, label: `every day at ${clock}` });
  }
  if (/^(every )?(weekdays?|workdays?)$/.test(days)) return ok({ cron: `${minute} ${hour} * * 1-5`, label: `weekdays at ${clock}` });
  if (/^(every )?weekends?$/.test(days)) return ok({ cron: `${minute} ${hour} * * 0,6`, label: `weekends at ${clock}` });
  const named = parseDays(days.replace(/^(every|each|on) /, ''));
  if (!named.ok) return fail(`${named.error}: try "every day at ${clock}", "weekdays at ${clock}" or "every monday at ${clock}"`);
  return ok({ cron: `${minute} ${hour} * * ${named.value.join(',')}`, label: `${daysLabel(named.value)} at ${clock}` });
}

/**
 * Split `/schedule`'s text into `<when>` and the goal: the longest start that is
 * a schedule, the rest the goal (a leading `Goal:` and separators `,` `:` `-` `|` dropped).
 *
 * @example
 * splitSchedule('every day at 8:00 collect 10 oak logs') // → { when: 'every day at 8:00', goal: 'collect 10 oak logs' }
 * splitSchedule('0 8 * * 1-5 mine 5 stone')              // → { when: '0 8 * * 1-5', goal: 'mine 5 stone' }
 */
export function splitSchedule(text: string): Result<{ when: When; goal: string }> {
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return fail('say when and what, e.g. /schedule every day at 8:00 collect 10 oak logs');
  if (/^["“]/.test(text.trim()) && !/^["“][^"”]*["”]/.test(text.trim())) {
    return fail('the quote around <when> is not closed, e.g. /schedule "every day at 8:00" collect 10 oak logs');
  }
  // A quoted or `|`-separated <when> is taken as written.
  const quoted = /^["“](.+?)["”]\s*(.*)$/s.exec(text.trim()) ?? /^([^|]+)\|\s*(.*)$/s.exec(text.trim());
  let best: { when: When; used: number } | undefined;
  let specificError: string | undefined;
  if (quoted) {
    const w = parseWhen(quoted[1] ?? '');
    if (!w.ok) return w;
    return withGoal(w.value, quoted[2] ?? '');
  }
  // Cron first: 6 fields when the sixth still looks like a cron field, else 5.
  for (const n of [6, 5]) {
    const head = words.slice(0, n).join(' ');
    if (words.length >= n && looksLikeCron(head)) {
      best = { when: { cron: head, label: head }, used: n };
      break;
    }
  }
  if (!best && /^@[a-z]+$/i.test(words[0] ?? '')) best = { when: { cron: words[0] ?? '', label: words[0] ?? '' }, used: 1 };
  if (!best) {
    for (let n = Math.min(words.length, 10); n >= 1; n--) {
      const head = words.slice(0, n).join(' ').replace(/[,:|-]+$/, '');
      const w = parseWhen(head);
      if (w.ok) {
        best = { when: w.value, used: n };
        break;
      }
      // The most telling error: a specific one (a bad hour, an unknown day) from the shortest start.
      if (!w.error.includes(NOT_UNDERSTOOD)) specificError = w.error;
    }
  }
  if (!best) {
    return fail(
      specificError ?? `"${words.slice(0, 4).join(' ')}${words.length > 4 ? '…' : ''}" does not start with a schedule: try "every day at 8:00 <goal>", "every 2 hours <goal>" or "0 8 * * * <goal>"`,
    );
  }
  return withGoal(best.when, words.slice(best.used).join(' '));
}

function withGoal(when: When, rest: string): Result<{ when: When; goal: string }> {
  const goal = rest
    .replace(/^[\s,:|-]+/, '')
    .replace(/^(goal:|new goal:|your goal is)\s*/i, '')
    .trim();
  if (!goal) return fail(`say what the goal is after "${when.label}", e.g. /schedule ${when.label} collect 10 oak logs`);
  return ok({ when, goal });
}
