/**
 * The goal loop's decisions (docs/goal-loop.md), as pure functions: given
 * what the loop remembers, the engine's report and the completion check, what
 * happens to the goal, what is posted, which turn comes next and after what
 * delay. `turn.ts` applies them: the goal through the loop's port (`goal-port.ts`),
 * the next turn and the phase to the loop's state (`loop-state.ts`).
 */
import { backoffMs, type Backoff } from '../backoff.ts';
import type { CompletionCheck, TurnKind, TurnReport } from '../engines/engine.ts';
import { sameGoal } from '../goals/goal-language.ts';
import type { Destination } from '../store/schema.ts';

export type { CompletionCheck };

/** A kind of post the loop makes. */
export type LoopPostKind = 'done' | 'new_goal' | 'direction_done' | 'stopped' | 'info';

/** Whom a `Done:` pings: the person who set the goal, in the chat where it was set (null: unknown, see the poster). */
export interface DonePing {
  person: string;
  setIn: Destination | null;
}

/** One line the loop posts about its avatar; `ping` says whom it pings (an owner goal's Done only). */
export interface LoopPost {
  kind: LoopPostKind;
  text: string;
  ping?: DonePing | null;
}

/** What the loop remembers from turn to turn (the goal itself lives in the store). */
export interface LoopMemory {
  /** The last completion check that refused a `done` claim, for the next `continue` prompt. */
  checkFailure: string | undefined;
  /** Turns in a row that changed nothing in the world, the notes or the goal. */
  unchangedStreak: number;
  /** `blocked` replies in a row on the current goal. */
  blockedStreak: number;
  /** The first line of the last `blocked` reply. */
  blockedReason: string;
}

/** The memory of a loop that just started. */
export function freshMemory(): LoopMemory {
  return { checkFailure: undefined, unchangedStreak: 0, blockedStreak: 0, blockedReason: '' };
}

/** The current goal, as far as the decisions need it. */
export interface GoalFacts {
  text: string;
  setBy: 'owner' | 'self';
  setById: string | null;
  /** The chat an owner goal was set in. */
  setIn?: Destination | undefined;
  baseline: Record<string, number> | null;
}

/** Everything a reply's decision depends on. */
export interface TurnFacts {
  /** The turn that was taken. */
  kind: TurnKind;
  /** The goal now (after the reply's `DIRECTION:` lines). */
  goal: GoalFacts | null;
  /** The owner changed the goal while the turn ran: its reply is stale and only paced. */
  stale: boolean;
  reply: TurnReport;
  /** Is `goal` met in the game now? Asked only for a `done` claim. */
  completion(goal: GoalFacts): CompletionCheck;
  /** The next turn already due when the reply came (an owner direction that arrived meanwhile …). */
  next: TurnKind | undefined;
  /** Parked owner goals (a `GOAL:` naming one takes it back as the owner's). */
  parked: readonly { text: string; setById: string | null; setIn?: Destination | undefined }[];
}

/** What happens to the stored goal. */
export type GoalChange =
  | { kind: 'keep' }
  /** A new goal from the reply. The old one, if any, is parked (owner) or recorded with `oldOutcome` (self). */
  | {
      kind: 'switch';
      text: string;
      setBy: 'owner' | 'self';
      setById: string | null;
      /** Where a parked owner goal taken up again was set. */
      setIn?: Destination | undefined;
      fromParked: boolean;
      parkReason: string;
      oldOutcome: 'blocked' | 'replaced';
    }
  /** The goal is done: recorded, cleared; the wrap-up follows. */
  | { kind: 'finish' }
  /** An owner goal blocked too often: parked for later, cleared. */
  | { kind: 'park'; reason: string };

/** What a reply leads to. */
export interface TurnDecision {
  memory: LoopMemory;
  change: GoalChange;
  /** The stored loop state to set, if it changes. */
  state?: 'working' | 'choosing' | 'wrapup';
  posts: LoopPost[];
  /** The next turn kind (undefined: `continue` with a goal, else `choose`). */
  next: TurnKind | undefined;
  /** When `next` is a wrap-up: the turn to follow it, if it is set (after a first `blocked`: the blocked prompt). */
  followedBy?: TurnKind;
  /** A `done` claim the completion check refused: what it says. */
  refused?: string;
}

/** `blocked` replies in a row on an owner goal after which it is parked. */
export const PARK_AFTER_BLOCKED = 3;

/**
 * Decide what a finished turn's reply leads to. A wrap-up only sets the state back; a stale
 * reply (the owner changed the goal meanwhile) changes nothing.
 *
 * @example
 * const d = decideTurn({ kind: 'continue', goal, stale: false, reply: { ...saying(''), status: 'done' }, completion, … }, memory);
 * // d.change → { kind: 'finish' }, d.posts → [{ kind: 'done', text: 'Done: collect 3 oak logs', ping }], d.next → 'wrapup'
 */
export function decideTurn(f: TurnFacts, memory: LoopMemory): TurnDecision {
  if (f.kind === 'wrapup') return wrappedUp(f, memory);
  if (f.stale) return keep(f, memory);
  return keepDirection(f, afterReply(f, memory));
}

/**
 * An owner direction that arrived while the turn ran is never dropped by what the reply leads to:
 * it comes right after a wrap-up the reply made due, or instead of the next automatic prompt.
 */
function keepDirection(f: TurnFacts, d: TurnDecision): TurnDecision {
  if (f.next !== 'direction' || d.next === 'direction') return d;
  if (d.next === 'wrapup') return { ...d, followedBy: 'direction' };
  return { ...d, next: 'direction' };
}

/** What pacing looks at once a turn's decision is applied. */
export interface PaceFacts {
  kind: TurnKind;
  /** The next turn kind now due. */
  next: TurnKind | undefined;
  /** Position, inventory/XP or the avatar's own notes changed during the turn. */
  worldChanged: boolean;
  /** The goal changed during the turn (a new, finished or parked goal, or the owner's). */
  goalChanged: boolean;
  pacing: Backoff;
  /** A number in [0, 1) for the backoff's jitter. */
  jitter: number;
}

/**
 * The delay before the next automatic turn (docs/goal-loop.md, pacing): the base pace after a turn that changed
 * something; a turn that changed nothing doubles it, up to the cap, with jitter.
 *
 * @example
 * paceTurn({ kind: 'continue', next: undefined, worldChanged: false, goalChanged: false, pacing, jitter: 0 }, memory).delayMs // → 6000 after 3000
 */
export function paceTurn(f: PaceFacts, memory: LoopMemory): { memory: LoopMemory; delayMs: number } {
  if (f.worldChanged || f.goalChanged) return { memory: { ...memory, unchangedStreak: 0 }, delayMs: f.pacing.minMs };
  // A wrap-up (or the turn that leads to one) is bookkeeping, not a failed attempt.
  if (f.kind === 'wrapup' || f.next === 'wrapup') return { memory, delayMs: f.pacing.minMs };
  const unchangedStreak = memory.unchangedStreak + 1;
  return { memory: { ...memory, unchangedStreak }, delayMs: backoffMs(unchangedStreak, f.pacing, () => f.jitter) };
}

function keep(f: TurnFacts, memory: LoopMemory, next: TurnKind | undefined = f.next): TurnDecision {
  return { memory, change: { kind: 'keep' }, posts: [], next };
}

/** The wrap-up wrote its lesson: back to working on the goal, or to choosing one. */
function wrappedUp(f: TurnFacts, memory: LoopMemory): TurnDecision {
  return { ...keep(f, memory), state: f.goal ? 'working' : 'choosing' };
}

/** Apply a fresh report's status, goal and step. */
function afterReply(f: TurnFacts, m: LoopMemory): TurnDecision {
  const { goal, reply } = f;
  if (reply.goal && (!goal || !sameGoal(reply.goal, goal.text))) return switchTo(f, m, reply.goal);
  // Choosing, and no goal picked: ask again.
  if (!goal) return keep(f, m, 'choose');
  if (reply.status === 'done') {
    const check = f.completion(goal);
    if (check.checkable && !check.met) return { ...keep(f, { ...m, checkFailure: check.says }, 'continue'), refused: check.says };
    // A goal someone set pings them; a goal the avatar chose itself pings nobody.
    const ping = goal.setBy === 'owner' && goal.setById ? { person: goal.setById, setIn: goal.setIn ?? null } : null;
    return {
      memory: { ...m, blockedStreak: 0 },
      change: { kind: 'finish' },
      state: 'wrapup',
      posts: [{ kind: 'done', text: `Done: ${goal.text}`, ping }],
      next: 'wrapup',
    };
  }
  const cleared = { ...m, checkFailure: undefined };
  if (reply.status === 'blocked') {
    const blockedStreak = m.blockedStreak + 1;
    const blockedReason = (reply.text.split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 200);
    if (goal.setBy === 'owner' && blockedStreak >= PARK_AFTER_BLOCKED) {
      const reason = 'blocked repeatedly';
      return {
        memory: { ...cleared, blockedStreak: 0, blockedReason },
        change: { kind: 'park', reason },
        state: 'choosing',
        posts: [{ kind: 'info', text: `Parked your goal for later: ${goal.text} (${reason})` }],
        next: 'wrapup',
      };
    }
    // One wrap-up per blocked streak, then "take another route, or pick another goal".
    const memory = { ...cleared, blockedStreak, blockedReason };
    return blockedStreak === 1 ? { ...keep(f, memory, 'wrapup'), followedBy: 'blocked' } : keep(f, memory, 'blocked');
  }
  return keep(f, { ...cleared, blockedStreak: 0 }, reply.subtask ? 'wrapup' : f.next);
}

/** The reply names a new goal: a parked owner goal comes back as the owner's; the old goal is parked or recorded. */
function switchTo(f: TurnFacts, m: LoopMemory, text: string): TurnDecision {
  const parked = f.parked.find((g) => sameGoal(g.text, text));
  const old = f.goal;
  const parkReason = m.blockedStreak > 0 && m.blockedReason ? m.blockedReason : 'I took another goal for now';
  const posts: LoopPost[] = [];
  if (old?.setBy === 'owner') posts.push({ kind: 'info', text: `Parked your goal for later: ${old.text} (${parkReason})` });
  posts.push({ kind: 'new_goal', text: parked ? `Back to your goal: ${text}` : `New goal (my choice): ${text}` });
  return {
    memory: { ...m, blockedStreak: 0, checkFailure: undefined },
    change: {
      kind: 'switch',
      text,
      setBy: parked ? 'owner' : 'self',
      setById: parked ? parked.setById : null,
      ...(parked?.setIn ? { setIn: parked.setIn } : {}),
      fromParked: parked !== undefined,
      parkReason,
      oldOutcome: m.blockedStreak > 0 ? 'blocked' : 'replaced',
    },
    state: 'working',
    posts,
    next: f.next,
  };
}

/**
 * Whether an engine conversation is due for a fresh session: a day old (`maxAgeMs`) or over its size limit.
 *
 * @example
 * sessionDue({ startedAt: 0, size: 10 }, 86_400_000, { maxAgeMs: 86_400_000, maxSize: 400_000 }) // → true
 */
export function sessionDue(session: { startedAt: number; size: number }, now: number, limits: { maxAgeMs: number; maxSize: number }): boolean {
  return now - session.startedAt >= limits.maxAgeMs || session.size > limits.maxSize;
}

/** Crashes within this window, this many of them, stop the avatar ("crash loop"). */
export interface CrashLoopLimit {
  count: number;
  windowMs: number;
}

/**
 * A turn crashed: count it, and either back off or stop the avatar.
 *
 * @example
 * decideCrash([t0, t1], now, { count: 3, windowMs: 300_000 }, pacing, 0, 'boom') // → { stop: 'crash loop (3 crashes …' }
 */
export function decideCrash(
  crashes: readonly number[],
  now: number,
  limit: CrashLoopLimit,
  pacing: Backoff,
  jitter: number,
  message: string,
): { crashes: number[]; stop: string } | { crashes: number[]; delayMs: number } {
  const recent = [...crashes.filter((t) => now - t < limit.windowMs), now];
  if (recent.length >= limit.count) {
    return { crashes: recent, stop: `crash loop (${recent.length} crashes in ${Math.round(limit.windowMs / 60_000)} minutes; last: ${message})` };
  }
  return { crashes: recent, delayMs: backoffMs(recent.length, pacing, () => jitter) };
}

/** Turns in a row that changed nothing after which the loop treats the goal as blocked. */
export const STALLED_AFTER = 8;

/** What {@link decideStall} looks at. */
export interface StallFacts {
  /** The next turn kind now due. */
  next: TurnKind | undefined;
  /** The current goal's text and run token, or null while choosing. */
  goal: { text: string; runToken: string } | null;
  unchangedStreak: number;
  /** The run token of the goal the owner was last told is stuck. */
  reported: string | undefined;
}

/**
 * Every goal progresses, finishes or is reported blocked in bounded time, whatever the engine says:
 * after {@link STALLED_AFTER} turns in a row that changed nothing (and every {@link STALLED_AFTER} after
 * that), the next prompt is the blocked one ("take another route, or pick another goal"); the owner is
 * told once per goal.
 *
 * @example
 * decideStall({ next: undefined, goal: { text: 'collect 3 oak logs', runToken: 't1' }, unchangedStreak: 8, reported: undefined });
 * // { next: 'blocked', post: "Stuck on collect 3 oak logs: nothing changed in 8 turns, so I'm taking another route or another goal." }
 */
export function decideStall(f: StallFacts): { next: TurnKind | undefined; post: string | null } {
  if (!f.goal || f.next || f.unchangedStreak === 0 || f.unchangedStreak % STALLED_AFTER !== 0) return { next: f.next, post: null };
  const post = f.reported === f.goal.runToken ? null : `Stuck on ${f.goal.text}: nothing changed in ${f.unchangedStreak} turns, so I'm taking another route or another goal.`;
  return { next: 'blocked', post };
}
