/**
 * What a goal loop is built from and what it shows: the contract between
 * the avatar manager (which builds one loop per avatar) and `goal-loop.ts`.
 */
import type { Logger } from 'pino';
import type { Engine } from '../engines/engine.ts';
import type { AvatarGame, Snapshot } from '../game/game.ts';
import type { CompletionCheck, CrashLoopLimit } from './decide.ts';
import type { GoalPort } from './goal-port.ts';
import type { AvatarNews } from './news.ts';
import type { TaskFile } from '../task/task-file.ts';

export type { DisplayState } from './loop-state.ts';
export type { TurnSummary } from './news.ts';

/** A completion check: is the goal met in this snapshot? (`src/goals/check.ts`). */
export type GoalChecker = (goalText: string, baseline: Record<string, number> | null, snap: Snapshot) => CompletionCheck;

/** Everything a loop needs, handed in by the avatar manager. */
export interface GoalLoopDeps {
  avatar: string;
  /** Its own record, the moves it makes on it, its own flush: the loop's only way to the store. */
  goals: GoalPort;
  /** Where its lines for the chats and its turns' ends go, as events (the poster and others subscribe). */
  news: AvatarNews;
  engine: Engine;
  game: AvatarGame;
  task: TaskFile;
  log: Logger;
  checkGoal: GoalChecker;
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
}
