/**
 * How the scripted engine words a turn's end: its report (words, status, a new goal or a retired direction),
 * and the interruption an aborted turn ends with.
 */
import { saying, TurnInterruptedError, type TurnReport } from './engine.ts';
import { oneLine } from '../text.ts';

/** Where the goal at hand stands after a turn. */
export type Status = 'working' | 'done' | 'blocked';

/** One turn's report: its words, its status, and a new goal or a direction it retires. */
export function report(text: string, status: Status, extra: { goal?: string; directionDone?: number } = {}): TurnReport {
  return {
    ...saying(text.trim()),
    status,
    goal: extra.goal ? oneLine(extra.goal) : null,
    directionsDone: extra.directionDone === undefined ? [] : [extra.directionDone],
  };
}

/** The turn's signal aborted: the turn ends here (an engine never replies to an aborted turn). */
export function interrupted(signal: AbortSignal): TurnInterruptedError {
  return new TurnInterruptedError({ promptTokens: 0, completionTokens: 0, requests: 0 }, signal.reason);
}
