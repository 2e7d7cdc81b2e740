/**
 * The goal loop's one way to the store: its own avatar's goal, parked goals,
 * directions and loop state, read-only to read and changed by named moves,
 * the finished goals its prompts recall, and its own flush. The avatars'
 * records have one owner (`src/avatars/avatar-records.ts`), which hands each
 * loop its port; the loop never sees the store.
 */
import type { PlayedBy, TurnUsage } from '../engines/engine.ts';
import type { Snapshot } from '../game/game.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, Destination, DoneDirection, GoalRecordEntry, ParkedGoal } from '../store/schema.ts';
import type { GoalChange } from './decide.ts';
import type { GoalOrigin } from './goal-moves.ts';

export type { GoalOrigin } from './goal-moves.ts';

/**
 * @example
 * const port = records.portOf('steve');
 * port.setOwnerGoal('collect 3 oak logs', personId, game.snapshot(), {});
 * await port.saved();
 */
export interface GoalPort {
  /** The avatar's record now, read-only. */
  record(): DeepReadonly<Avatar>;
  /** Every finished goal (every avatar's), oldest first: what the prompts recall. */
  history(): readonly DeepReadonly<GoalRecordEntry>[];
  /** Replace the goal with an owner goal; returns a scheduled goal parked behind it, if any (see `ownerGoalSet` of `goal-moves.ts`). */
  setOwnerGoal(text: string, setById: string | null, snap: Snapshot | undefined, origin: GoalOrigin): ParkedGoal | null;
  /** Park an owner goal beside the running one. */
  parkAside(text: string, setById: string | null, reason: string, setIn?: Destination): void;
  /** Write a turn decision's goal change. */
  apply(change: GoalChange, snap: Snapshot | undefined): void;
  /** Back in the game: measure the goal's baseline if it has none or lost it; the one replaced (see `measured`). */
  measureBaseline(snap: Snapshot): Record<string, number> | null | undefined;
  /** Retire the directions the engine reported done; those retired. */
  retireDirections(numbers: readonly number[]): DoneDirection[];
  /** One metered turn's tokens: the avatar's usage and its current goal's. */
  recordUsage(usage: TurnUsage): void;
  /** One turn of a hybrid engine, by who played it: the avatar's usage and its current goal's. */
  recordTurn(by: PlayedBy): void;
  /** The loop state's stored part: whether the owner wants it playing, and its phase. */
  setLoop(playing: boolean, phase: Avatar['state']): void;
  /** Resolves once this avatar's changes so far are on disk (rejects with StoreWriteError while the disk refuses). */
  saved(): Promise<void>;
}
