/**
 * The goal loop's writes to the store: an avatar's goal set, switched,
 * finished or parked, each ended goal in the record, and token usage.
 * The loop decides (`decide.ts`); this module writes what it decided.
 */
import { randomUUID } from 'node:crypto';
import type { Snapshot } from '../game/game.ts';
import { baselineGone } from '../goals/check.ts';
import { keyed } from '../keyed.ts';
import type { PlayedBy, TurnUsage } from '../engines/engine.ts';
import type { Avatar, Destination, Goal, GoalRecordEntry, ParkedGoal, Store, Usage } from '../store/store.ts';
import { sameGoal } from '../goals/goal-language.ts';
import type { GoalChange, LoopPost } from './decide.ts';
import { completeDirection } from '../task/directions.ts';

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

/**
 * @example
 * const goals = new GoalStore(store, 'steve', () => new Date());
 * goals.setOwnerGoal(rec, 'collect 3 oak logs', personId, game.snapshot());
 */
export class GoalStore {
  constructor(
    private readonly store: Store,
    private readonly avatar: string,
    private readonly now: () => Date,
  ) {}

  /** The avatar's stored record (live object inside the store). */
  record(): Avatar {
    const a = this.store.state.data.avatars.find((x) => x.name === this.avatar);
    if (!a) throw new Error(`avatar ${this.avatar} is not in the store`);
    return a;
  }

  /**
   * Back in the game: a goal set while out of the game gets its baseline now, and a baseline the
   * inventory no longer holds (lost while the avatar was away) is measured again, so "collect N more"
   * still means N more than the avatar holds. Returns the baseline it replaced, if any.
   */
  measureBaseline(rec: Avatar, snap: Snapshot): Record<string, number> | null | undefined {
    const goal = rec.goal;
    if (!goal || (goal.baseline && !baselineGone(goal.text, goal.baseline, snap))) return undefined;
    const was = goal.baseline;
    this.store.state.update(() => {
      goal.baseline = keyed(snap.inventory);
    });
    return was;
  }

  /** A new goal record, with a new run token and the inventory baseline of `snap`. */
  private newGoal(text: string, setBy: Goal['setBy'], setById: string | null, snap: Snapshot | undefined, setIn?: Destination): Goal {
    return { text, setBy, setById, ...(setIn ? { setIn } : {}), startedAt: this.now().toISOString(), baseline: snap ? keyed(snap.inventory) : null, runToken: randomUUID() };
  }

  /**
   * Replace the goal with an owner goal (the old one is recorded as replaced; a parked copy is dropped).
   * Goals are taken in the order they were given: a message written before the scheduled run that set
   * the current goal (read late, after a restart) comes first, so that run's goal is parked behind it,
   * as the run would have parked it. Returns the goal so parked, if any.
   */
  setOwnerGoal(rec: Avatar, text: string, setById: string | null, snap: Snapshot | undefined, origin: GoalOrigin = {}): ParkedGoal | null {
    return this.store.state.update(() => {
      const old = rec.goal;
      const later = old?.schedule !== undefined && origin.writtenAt !== undefined && origin.writtenAt < Date.parse(old.schedule.slot);
      let parked: ParkedGoal | null = null;
      if (old && later) {
        this.park(rec, old, `scheduled while I was on ${origin.byName ?? 'an owner'}'s goal`);
        parked = rec.parked.find((p) => sameGoal(p.text, old.text)) ?? null;
      } else if (old) this.recordGoal(old, 'replaced');
      rec.goal = { ...this.newGoal(text, 'owner', setById, snap, origin.setIn), ...(origin.schedule ? { schedule: origin.schedule } : {}) };
      rec.parked = rec.parked.filter((p) => p.text !== text);
      return parked;
    });
  }

  /** Park an owner goal without touching the current one (a scheduled goal while an owner goal runs). */
  parkAside(rec: Avatar, text: string, setById: string | null, reason: string, setIn?: Destination): void {
    this.store.state.update(() => this.park(rec, this.newGoal(text, 'owner', setById, undefined, setIn), reason));
  }

  /** Write a turn decision's goal change. */
  apply(rec: Avatar, change: GoalChange, snap: Snapshot | undefined): void {
    const goal = rec.goal;
    this.store.state.update(() => {
      if (change.kind === 'switch') {
        if (goal) {
          if (goal.setBy === 'owner') this.park(rec, goal, change.parkReason);
          // A goal given up after `blocked` keeps the reason (the digest shows it).
          else this.recordGoal(goal, change.oldOutcome, change.oldOutcome === 'blocked' ? change.parkReason : undefined);
        }
        rec.goal = this.newGoal(change.text, change.setBy, change.setById, snap, change.setIn);
        if (change.fromParked) rec.parked = rec.parked.filter((g) => !sameGoal(g.text, change.text));
      } else if (change.kind === 'finish' && goal) {
        this.recordGoal(goal, 'done');
        rec.goal = null;
      } else if (change.kind === 'park' && goal) {
        this.park(rec, goal, change.reason);
        rec.goal = null;
      }
    });
  }

  /** Park an owner goal for later (once), and record it as parked. */
  private park(rec: Avatar, goal: Goal, reason: string): void {
    this.recordGoal(goal, 'parked', reason);
    if (!rec.parked.some((p) => sameGoal(p.text, goal.text))) {
      rec.parked.push({ text: goal.text, setById: goal.setById, ...(goal.setIn ? { setIn: goal.setIn } : {}), parkedAt: this.now().toISOString(), reason });
    }
  }

  /** An ended goal, into the record. */
  private recordGoal(goal: Goal, outcome: GoalRecordEntry['outcome'], note?: string): void {
    const entry: GoalRecordEntry = {
      avatar: this.avatar,
      text: goal.text,
      setBy: goal.setBy,
      setById: goal.setById,
      started: goal.startedAt,
      ended: this.now().toISOString(),
      outcome,
      ...(note ? { note } : {}),
      ...(goal.usage ? { usage: { ...goal.usage } } : {}),
    };
    this.store.record.update((r) => {
      r.goals.push(entry);
    });
  }

  /** Retire the open directions the engine reported done (`DIRECTION: done n`); one post for each retired. */
  retireDirections(rec: Avatar, numbers: readonly number[]): LoopPost[] {
    const posts: LoopPost[] = [];
    for (const n of numbers) {
      const done = this.store.state.update(() => completeDirection(rec.directions, n, this.now()));
      if (done) posts.push({ kind: 'direction_done', text: `Direction #${n} done: ${done.text}` });
    }
    return posts;
  }

  /** Add one metered turn's tokens to the avatar's usage, and to its current goal's (kept with the goal when it ends). */
  recordUsage(rec: Avatar, usage: TurnUsage): void {
    const add = (u: Usage): void => {
      u.promptTokens += usage.promptTokens;
      u.completionTokens += usage.completionTokens;
      u.requests += usage.requests ?? 1;
      if (usage.costUsd !== undefined) u.costUsd = (u.costUsd ?? 0) + usage.costUsd;
    };
    this.store.record.update((r) => add((r.usage[this.avatar] ??= { promptTokens: 0, completionTokens: 0, requests: 0 })));
    const goal = rec.goal;
    if (goal) this.store.state.update(() => add((goal.usage ??= { promptTokens: 0, completionTokens: 0, requests: 0 })));
  }

  /**
   * Count one turn of an engine made of others (the hybrid engine) by who played it, the scripted engine or a
   * model: in the avatar's usage, and in its current goal's.
   */
  recordTurn(rec: Avatar, by: PlayedBy): void {
    const add = (u: Usage): void => {
      const turns = (u.turns ??= { scripted: 0, model: 0 });
      if (by.model) turns.model += 1;
      else turns.scripted += 1;
    };
    this.store.record.update((r) => add((r.usage[this.avatar] ??= { promptTokens: 0, completionTokens: 0, requests: 0 })));
    const goal = rec.goal;
    if (goal) this.store.state.update(() => add((goal.usage ??= { promptTokens: 0, completionTokens: 0, requests: 0 })));
  }
}
