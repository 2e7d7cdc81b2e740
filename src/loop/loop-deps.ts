/**
 * What a goal loop is built from and what it shows: the contract between
 * the avatar manager (which builds one loop per avatar) and `goal-loop.ts`.
 */
import type { Logger } from 'pino';
import type { Engine, PlayedBy, TurnKind, TurnReply } from '../engines/engine.ts';
import type { AvatarGame, Snapshot } from '../game/game.ts';
import type { Store } from '../store/store.ts';
import type { CompletionCheck, CrashLoopLimit, DonePing, LoopPostKind } from './decide.ts';
import type { TaskFile } from '../task/task-file.ts';

export type { DisplayState } from './loop-state.ts';

/** A completion check: is the goal met in this snapshot? (`src/goals/check.ts`). */
export type GoalChecker = (goalText: string, baseline: Record<string, number> | null, snap: Snapshot) => CompletionCheck;

/** Everything a loop needs, handed in by the avatar manager. */
export interface GoalLoopDeps {
  avatar: string;
  store: Store;
  engine: Engine;
  game: AvatarGame;
  task: TaskFile;
  log: Logger;
  checkGoal: GoalChecker;
  /** Post one line about this avatar to its chats. `ping`: whom an owner goal's Done pings, and where it was set. */
  post(kind: LoopPostKind, text: string, ping?: DonePing | null): void;
  /** The loop stopped itself (provider refused, crash loop, kicked): the manager takes the avatar out of the game. */
  onSelfStop(reason: string): void;
  /** Keep TASK.md's mindlink sections in step with the store. */
  syncTask(): Promise<void>;
  pacing: { baseMs: number; maxMs: number };
  /** Fresh-session limits. */
  session?: { maxAgeMs: number; maxSize: number };
  /** Crash loop: this many crashes within `windowMs` stop the avatar. */
  crashLoop?: CrashLoopLimit;
  now?: () => Date;
  /** The jitter source of the backoff (`Math.random` when absent). */
  random?: () => number;
}

/** Events of a the goal loop (`goal-loop.ts`), for observers and tests. */
export interface GoalLoopEvents {
  /** The next automatic turn is due in `delayMs`. */
  turnScheduled: [delayMs: number];
  /** A turn of this kind finished (its reply applied), with what it did. */
  turnEnded: [kind: TurnKind, summary: TurnSummary];
}

/** What one turn did, for observers (the thought stream's one line per turn). */
export interface TurnSummary {
  kind: TurnKind;
  status: 'working' | 'done' | 'blocked';
  /** The skills run during the turn, in order (empty when the engine reports none). */
  actions: NonNullable<TurnReply['actions']>;
  /** The first line of the reply's text, after what the engine said between its tool calls (an agent's commentary). */
  says: string;
  /** Which engine played it, when the avatar's engine is made of others (the hybrid engine). */
  playedBy?: PlayedBy;
}
