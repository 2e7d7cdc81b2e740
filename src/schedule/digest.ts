/**
 * The daily digest of one avatar: what happened since the last digest, in a
 * few lines. Pure: the scheduler hands in the records and counters.
 */
import { plainGoal } from '../text.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, GoalRecordEntry, Usage } from '../store/schema.ts';
import { formatRun } from './runs.ts';

/** Everything one avatar's digest is made from. */
export interface DigestInput {
  avatar: DeepReadonly<Avatar>;
  /** The avatar's goal record (any span; only what ended in (since, now] counts). */
  goals: readonly DeepReadonly<GoalRecordEntry>[];
  since: Date;
  now: Date;
  /** The zone the digest is read in. */
  zone: string;
  /** Minutes in the game within the span. */
  playedMinutes: number;
  /** Engine usage within the span, or null when the avatar's engine records none. */
  usage: Usage | null;
}

/** At most this many goals per line; the rest are counted. */
const LIST_MAX = 6;

/** Usage between two cumulative readings; null when nothing was used. */
export function usageSince(now: Usage | undefined, then: Usage | undefined): Usage | null {
  if (!now) return null;
  const u = {
    promptTokens: now.promptTokens - (then?.promptTokens ?? 0),
    completionTokens: now.completionTokens - (then?.completionTokens ?? 0),
    requests: now.requests - (then?.requests ?? 0),
  };
  return u.requests > 0 || u.promptTokens + u.completionTokens > 0 ? u : null;
}

function within(iso: string, since: Date, now: Date): boolean {
  const t = Date.parse(iso);
  return t > since.getTime() && t <= now.getTime();
}

function list(items: string[]): string {
  const shown = items.slice(0, LIST_MAX).join('; ');
  return items.length > LIST_MAX ? `${shown}; +${items.length - LIST_MAX} more` : shown;
}

/** `2 h 05 min`, `45 min`. */
export function formatMinutes(total: number): string {
  const h = Math.floor(total / 60);
  const m = total % 60;
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : `${m} min`;
}

/**
 * The digest message of one avatar, or null when there is nothing to say
 * (no goal finished, parked or blocked, no direction retired, no time played, no usage).
 *
 * @example
 * buildDigest({ avatar, goals, since, now, zone: 'UTC', playedMinutes: 95, usage: null })
 * // → 'Digest since Tue 1 Dec 20:00 UTC:\nFinished 2: collect 3 oak logs; mine 5 stone\nPlayed 1 h 35 min'
 */
export function buildDigest(input: DigestInput): string | null {
  const { avatar, since, now } = input;
  const ended = input.goals.filter((g) => within(g.ended, since, now));
  const done = ended.filter((g) => g.outcome === 'done').map((g) => plainGoal(g.text, 80));
  const setAside = ended
    .filter((g) => g.outcome === 'parked' || g.outcome === 'blocked')
    .map((g) => `${plainGoal(g.text, 80)} (${g.outcome}${g.note ? `: ${plainGoal(g.note, 80)}` : ''})`);
  const retired = avatar.directions.done.filter((d) => within(d.doneAt, since, now)).map((d) => `#${d.n} ${plainGoal(d.text, 80)}`);
  const played = Math.max(0, input.playedMinutes);
  const usage = input.usage;
  if (done.length === 0 && setAside.length === 0 && retired.length === 0 && played === 0 && !usage) return null;

  const lines = [`Digest since ${formatRun(since, input.zone)} ${input.zone}:`];
  lines.push(done.length > 0 ? `Finished ${done.length}: ${list(done)}` : 'No goal finished.');
  if (setAside.length > 0) lines.push(`Parked or blocked ${setAside.length}: ${list(setAside)}`);
  if (retired.length > 0) lines.push(`Direction retired: ${list(retired)}`);
  const tail = [`Played ${formatMinutes(played)}`];
  if (usage) {
    const tokens = usage.promptTokens + usage.completionTokens;
    tail.push(`${tokens.toLocaleString('en-US')} tokens (${usage.promptTokens.toLocaleString('en-US')} in, ${usage.completionTokens.toLocaleString('en-US')} out) in ${usage.requests} requests`);
  }
  lines.push(tail.join(' · '));
  return lines.join('\n');
}
