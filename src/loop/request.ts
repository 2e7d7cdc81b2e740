/**
 * One turn's structured request to the engine, with its rendered prompt
 * (the prompts of `prompts.ts`): the goal, the direction summary and the open
 * direction, the avatar's own notes where the kind carries them, and the
 * nudges the loop's memory calls for.
 */
import type { CompletionCheck, TurnKind, TurnRequest } from '../engines/engine.ts';
import type { Avatar, GoalRecordEntry } from '../store/schema.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import { summarizeDirections } from '../task/directions.ts';
import { NUDGES, renderPrompt } from './prompts.ts';
import { needsRewrite, ownPartForPrompt } from '../task/task-md.ts';

/** What a request is built from. */
export interface RequestFacts {
  kind: TurnKind;
  avatar: DeepReadonly<Avatar>;
  /** The owner's message, for `question` and `direction` turns. */
  message?: string;
  /** TASK.md as it is now. */
  task: string;
  /** The avatar's finished goals (the record), oldest first. */
  history: readonly DeepReadonly<GoalRecordEntry>[];
  /** Turns in a row that changed nothing (nudges "try something different"). */
  unchangedStreak: number;
  /** The completion check that refused the last `done`, for a `continue` turn. */
  checkFailure: string | undefined;
  /** Is the goal met in the game now? (the loop's completion check of this turn). */
  completion(): CompletionCheck;
  /** The last lessons of the lab log (each one short line, oldest first), for the kinds that carry them. */
  lessons?: readonly string[];
}

/** The kinds whose prompt carries the last lessons of the lab log: what one goal learned shapes the next. */
export const LESSON_KINDS: ReadonlySet<TurnKind> = new Set(['choose', 'resume', 'fresh']);

/** How many lessons of the lab log a prompt carries. */
export const LESSONS_CARRIED = 5;

/**
 * @example
 * const req = buildRequest({ kind: 'continue', avatar: rec, task, history, unchangedStreak: 0, checkFailure: undefined, completion });
 * await engine.turn(req, signal);
 */
export function buildRequest(f: RequestFacts): TurnRequest {
  const { kind, avatar: rec, task } = f;
  const nudges: string[] = [];
  if (kind === 'blocked') nudges.push(NUDGES.anotherRoute);
  if (f.unchangedStreak > 0 && kind !== 'question') nudges.push(NUDGES.tryDifferent);
  if (task && needsRewrite(task) && kind !== 'question') nudges.push(NUDGES.rewriteTask);
  const recent = f.history
    .filter((g) => g.avatar === rec.name && g.outcome === 'done')
    .slice(-5)
    .map((g) => g.text);
  const base = {
    kind,
    avatar: rec.name,
    goal: rec.goal ? { text: rec.goal.text, setBy: rec.goal.setBy, baseline: rec.goal.baseline } : null,
    directionSummary: summarizeDirections(rec.directions),
    directions: rec.directions.open.map((d) => ({ n: d.n, text: d.text, at: d.at })),
    task: kind === 'resume' || kind === 'fresh' || kind === 'choose' ? ownPartForPrompt(task) : '',
    nudges,
    ...(f.message !== undefined ? { message: f.message } : {}),
    ...(kind === 'choose' ? { recentGoals: recent, parkedGoals: rec.parked.map((p) => p.text) } : {}),
    ...(kind === 'continue' && f.checkFailure ? { checkFailure: f.checkFailure } : {}),
    ...(LESSON_KINDS.has(kind) && f.lessons && f.lessons.length > 0 ? { lessons: f.lessons.slice(-LESSONS_CARRIED) } : {}),
  } satisfies Omit<TurnRequest, 'prompt' | 'completion'>;
  return { ...base, prompt: renderPrompt(base), completion: f.completion };
}
