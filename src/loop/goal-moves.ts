/**
 * How an avatar's goal and parked goals change, as the loop decides them
 * (`decide.ts`): a goal set by an owner, parked aside, switched, finished or
 * parked, a baseline measured again, directions retired. Each move changes
 * the draft of the avatar's record that its owner's update hands it
 * (`src/avatars/avatar-records.ts`, the one writer of avatar records) and
 * returns the goals it ended, for the goal record; it writes nothing itself.
 */
import { randomUUID } from 'node:crypto';
import type { Snapshot } from '../game/game.ts';
import { baselineGone } from '../goals/check.ts';
import { sameGoal } from '../goals/goal-language.ts';
import { keyed } from '../keyed.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, Destination, DoneDirection, Goal, GoalRecordEntry, ParkedGoal } from '../store/schema.ts';
import { completeDirection } from '../task/directions.ts';
import type { GoalChange } from './decide.ts';

/** Where an owner goal comes from, when it matters for the order goals are taken in. */
export interface GoalOrigin {
  /** A message's time (Unix ms), as its platform says. */
  writtenAt?: number | undefined;
  /** Who set it, as shown in a park reason. */
  byName?: string | undefined;
  /** The schedule run that sets it: its id and slot (ISO). */
  schedule?: { id: number; slot: string } | undefined;
  /** The chat it was set in: its Done pings the setter there (`src/people/ping-place.ts`). */
  setIn?: Destination | undefined;
}

/** A new goal record, with a new run token and the inventory baseline of `snap`. */
function newGoal(text: string, setBy: Goal['setBy'], setById: string | null, snap: Snapshot | undefined, now: Date, setIn?: Destination): Goal {
  return { text, setBy, setById, ...(setIn ? { setIn } : {}), startedAt: now.toISOString(), baseline: snap ? keyed(snap.inventory) : null, runToken: randomUUID() };
}

/** An ended goal, as the goal record keeps it. */
function ended(a: Avatar, goal: Goal, outcome: GoalRecordEntry['outcome'], now: Date, note?: string): GoalRecordEntry {
  return {
    avatar: a.name,
    text: goal.text,
    setBy: goal.setBy,
    setById: goal.setById,
    started: goal.startedAt,
    ended: now.toISOString(),
    outcome,
    ...(note ? { note } : {}),
    ...(goal.usage ? { usage: { ...goal.usage, ...(goal.usage.turns ? { turns: { ...goal.usage.turns } } : {}) } } : {}),
  };
}

/** Park an owner goal for later (once), and record it as parked. */
function park(a: Avatar, goal: Goal, reason: string, now: Date): GoalRecordEntry {
  if (!a.parked.some((p) => sameGoal(p.text, goal.text))) {
    a.parked.push({ text: goal.text, setById: goal.setById, ...(goal.setIn ? { setIn: goal.setIn } : {}), parkedAt: now.toISOString(), reason });
  }
  return ended(a, goal, 'parked', now, reason);
}

/**
 * Whether a goal's baseline is to be measured now: it has none (set while out of the game), or the
 * inventory no longer holds it.
 *
 * @example
 * toMeasure(rec.goal, snap) // → true for a goal set while the avatar was away
 */
export function toMeasure(goal: DeepReadonly<Goal> | null, snap: Snapshot): boolean {
  return goal !== null && (!goal.baseline || baselineGone(goal.text, goal.baseline, snap));
}

/**
 * Back in the game: a goal set while out of the game gets its baseline now, and a baseline the inventory
 * no longer holds is measured again (see {@link toMeasure}). Returns the baseline it replaced (null: it had
 * none), or undefined when nothing changed.
 *
 * @example
 * measured(draft, snap) // → { oak_log: 3 } when the logs the goal was measured against are gone
 */
export function measured(a: Avatar, snap: Snapshot): Record<string, number> | null | undefined {
  const goal = a.goal;
  if (!goal || !toMeasure(goal, snap)) return undefined;
  const was = goal.baseline;
  goal.baseline = keyed(snap.inventory);
  return was;
}

/**
 * Replace the goal with an owner goal (the old one ends as replaced; a parked copy is dropped). Goals are
 * taken in the order they were given: a message written before the scheduled run that set the current
 * goal (read late, after a restart) comes first, so that run's goal is parked behind it. Returns the goals
 * ended and the goal so parked, if any.
 *
 * @example
 * ownerGoalSet(draft, 'collect 3 oak logs', personId, snap, {}, now) // → { ended: [the old goal, replaced], parked: null }
 */
export function ownerGoalSet(
  a: Avatar,
  text: string,
  setById: string | null,
  snap: Snapshot | undefined,
  origin: GoalOrigin,
  now: Date,
): { ended: GoalRecordEntry[]; parked: ParkedGoal | null } {
  const old = a.goal;
  const later = old?.schedule !== undefined && origin.writtenAt !== undefined && origin.writtenAt < Date.parse(old.schedule.slot);
  const done: GoalRecordEntry[] = [];
  let parked: ParkedGoal | null = null;
  if (old && later) {
    done.push(park(a, old, `scheduled while I was on ${origin.byName ?? 'an owner'}'s goal`, now));
    parked = a.parked.find((p) => sameGoal(p.text, old.text)) ?? null;
  } else if (old) done.push(ended(a, old, 'replaced', now));
  a.goal = { ...newGoal(text, 'owner', setById, snap, now, origin.setIn), ...(origin.schedule ? { schedule: origin.schedule } : {}) };
  a.parked = a.parked.filter((p) => p.text !== text);
  return { ended: done, parked };
}

/**
 * Park an owner goal without touching the current one (a scheduled goal while an owner goal runs).
 *
 * @example
 * parkedAside(draft, 'collect 10 oak logs', personId, 'scheduled while I was on alice's goal', undefined, now)
 */
export function parkedAside(a: Avatar, text: string, setById: string | null, reason: string, setIn: Destination | undefined, now: Date): GoalRecordEntry[] {
  return [park(a, newGoal(text, 'owner', setById, undefined, now, setIn), reason, now)];
}

/**
 * A turn decision's goal change: switch (an owner goal is parked, another ends as the decision says), finish, park.
 *
 * @example
 * changed(draft, { kind: 'finish' }, snap, now) // → [the goal, done]; draft.goal === null
 */
export function changed(a: Avatar, change: GoalChange, snap: Snapshot | undefined, now: Date): GoalRecordEntry[] {
  const goal = a.goal;
  const done: GoalRecordEntry[] = [];
  if (change.kind === 'switch') {
    if (goal) {
      // A goal given up after `blocked` keeps the reason (the digest shows it).
      done.push(goal.setBy === 'owner' ? park(a, goal, change.parkReason, now) : ended(a, goal, change.oldOutcome, now, change.oldOutcome === 'blocked' ? change.parkReason : undefined));
    }
    a.goal = newGoal(change.text, change.setBy, change.setById, snap, now, change.setIn);
    if (change.fromParked) a.parked = a.parked.filter((g) => !sameGoal(g.text, change.text));
  } else if (change.kind === 'finish' && goal) {
    done.push(ended(a, goal, 'done', now));
    a.goal = null;
  } else if (change.kind === 'park' && goal) {
    done.push(park(a, goal, change.reason, now));
    a.goal = null;
  }
  return done;
}

/**
 * Retire the open directions the engine reported done (`DIRECTION: done n`). Returns those retired.
 *
 * @example
 * directionsRetired(draft, [3], now) // → [direction #3, done]
 */
export function directionsRetired(a: Avatar, numbers: readonly number[], now: Date): DoneDirection[] {
  return numbers.flatMap((n) => completeDirection(a.directions, n, now) ?? []);
}
