/**
 * What the hybrid engine remembers of the goals it worked on, and whom a turn
 * goes to (docs/engines.md, "The hybrid engine"): per goal, how often the
 * scripted engine reported blocked and why, the skills it ran (what it tried),
 * and whether the model played on it. Pure: `hybrid.ts` feeds it the replies.
 * It lives in memory only: after a restart the scripted engine gets a goal
 * back and two more tries before the model is asked again.
 */
import { remember } from '../bounded-map.ts';
import { parseGoal } from '../goals/goal-language.ts';
import type { KnownPlaces } from '../goals/places.ts';
import { cutText, oneLine } from '../text.ts';
import type { Handover, TurnReply, TurnRequest } from './engine.ts';

/** `blocked` reports of the scripted engine on one goal after which its turns go to the model. */
export const BLOCKED_BEFORE_MODEL = 2;
/** How many goals are remembered (the newest). */
const GOALS_KEPT = 8;
/** Most characters of one blocked reason in a handover. */
const REASON_MAX = 160;
/** Most skills listed as tried in a handover. */
const TRIED_MAX = 5;

/** What the hybrid engine remembers of one goal. */
export interface GoalMemory {
  /** The goal as set. */
  goal: string;
  /** `blocked` reports of the scripted engine on it. */
  blocked: number;
  /** Their reasons, oldest first (the last few). */
  reasons: string[];
  /** Skill → runs, and the failed runs by code, of the scripted engine on it. */
  tried: Map<string, { runs: number; failed: Map<string, number> }>;
  /** Turns the model played on it. */
  modelTurns: number;
}

/** Who plays a turn, and, for the model, why it is handed over. */
export type Choice = { side: 'scripted' } | { side: 'model'; why: string };

/** A goal's key in the memory: its text, case and spacing aside. */
function key(goal: string): string {
  return goal.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[.!]+$/, '');
}

/** Why a goal outside the goal language goes to the model. */
const OUTSIDE = 'the goal is outside the scripted engine\'s language (it collects, mines, crafts, smelts, goes to, follows, says, explores and eats)';

/**
 * The per-goal memory of one hybrid engine.
 *
 * @example
 * const memory = new HybridMemory(ctx.places);
 * memory.scriptedPlayed('collect 3 oak logs', reply);
 * memory.choose(request); // { side: 'scripted' } until it reported blocked twice
 */
export class HybridMemory {
  private readonly goals = new Map<string, GoalMemory>();
  /** The goal of the last turn that worked on one (a wrap-up after `Done:` comes with no goal). */
  private last: string | undefined;

  /** `places`: the avatar's, so that "go to base" is in the goal language (the scripted engine goes there). */
  constructor(private readonly places?: KnownPlaces) {}

  /** What is remembered of `goal`, if anything. */
  of(goal: string): GoalMemory | undefined {
    return this.goals.get(key(goal));
  }

  private entry(goal: string): GoalMemory {
    const k = key(goal);
    const found = this.goals.get(k) ?? { goal, blocked: 0, reasons: [], tried: new Map(), modelTurns: 0 };
    remember(this.goals, k, found, GOALS_KEPT);
    this.last = k;
    return found;
  }

  /** The goal a wrap-up is about: the request's, or the one the last turn worked on. */
  private wrapped(req: TurnRequest): GoalMemory | undefined {
    if (req.goal) return this.of(req.goal.text);
    return this.last === undefined ? undefined : this.goals.get(this.last);
  }

  /**
   * Who plays this turn. Questions are the scripted engine's first (the model answers what the snapshot cannot),
   * goals are chosen by it, and a turn on a goal goes to the model when the goal is outside the goal language or
   * the scripted engine reported blocked on it {@link BLOCKED_BEFORE_MODEL} times; a direction follows the goal,
   * and a wrap-up goes to the model when the model played on the goal.
   */
  choose(req: TurnRequest): Choice {
    switch (req.kind) {
      case 'question':
      case 'choose':
        return { side: 'scripted' };
      case 'wrapup':
        return (this.wrapped(req)?.modelTurns ?? 0) > 0 ? { side: 'model', why: 'you worked on this goal, so you write its lesson' } : { side: 'scripted' };
      default: {
        if (!req.goal) return { side: 'scripted' };
        if (parseGoal(req.goal.text, this.places).kind === 'unknown') return { side: 'model', why: OUTSIDE };
        const m = this.of(req.goal.text);
        if (m && m.blocked >= BLOCKED_BEFORE_MODEL) {
          return { side: 'model', why: `the scripted engine reported blocked ${m.blocked} times on this goal: ${m.reasons.join('; ')}` };
        }
        return { side: 'scripted' };
      }
    }
  }

  /** The scripted engine played an automatic turn on `goal` (a question or a choice is no work on it). */
  scriptedPlayed(req: TurnRequest, reply: TurnReply): void {
    if (!req.goal || req.kind === 'question' || req.kind === 'choose' || req.kind === 'wrapup') return;
    const m = this.entry(req.goal.text);
    for (const a of reply.actions ?? []) {
      const t = m.tried.get(a.skill) ?? { runs: 0, failed: new Map<string, number>() };
      t.runs++;
      if (!a.ok) t.failed.set(a.code, (t.failed.get(a.code) ?? 0) + 1);
      m.tried.set(a.skill, t);
    }
    if (reply.report.status === 'blocked') {
      m.blocked++;
      const why = oneLine(reply.report.text.split('\n').find((l) => l.trim()) ?? 'no reason given').replace(/^I'm blocked:\s*/i, '').replace(/\.$/, '');
      m.reasons = [...m.reasons, cutText(why, REASON_MAX)].slice(-BLOCKED_BEFORE_MODEL);
    }
  }

  /** The model played a turn on the request's goal (or, for a wrap-up, on the goal it wraps up). */
  modelPlayed(req: TurnRequest): void {
    if (req.kind === 'question') return;
    const goal = req.goal?.text ?? (req.kind === 'wrapup' ? this.wrapped(req)?.goal : undefined);
    if (goal) this.entry(goal).modelTurns++;
  }

  /**
   * The handover of a turn to the model: why, and what the scripted engine tried on the goal.
   *
   * @example
   * memory.handover(req, 'the goal is outside …') // → { why: 'the goal is outside …', tried: ['collect ×4 (2 failed: no_target)'] }
   */
  handover(req: TurnRequest, why: string): Handover {
    const m = req.goal ? this.of(req.goal.text) : undefined;
    const tried = [...(m?.tried ?? new Map<string, { runs: number; failed: Map<string, number> }>())]
      .sort((a, b) => b[1].runs - a[1].runs)
      .slice(0, TRIED_MAX)
      .map(([skill, t]) => {
        const failed = [...t.failed].map(([code, n]) => `${n} failed: ${code}`).join(', ');
        return `${skill} ×${t.runs}${failed ? ` (${failed})` : ''}`;
      });
    return { why, tried };
  }
}

/**
 * The handover in words, for the model's prompt: one short paragraph; on a turn that acts with `write_skill` at
 * hand, where to turn when the tools fall short.
 *
 * @example
 * handoverText({ why: 'the goal is outside …', tried: [] }, true)
 * // → 'This turn is yours: the goal is outside …. If your tools cannot do it in one call, write_skill can make one that does.'
 */
export function handoverText(h: Handover, acts: boolean): string {
  const tried = h.tried.length > 0 ? ` It tried: ${h.tried.join('; ')}.` : '';
  return `This turn is yours: ${h.why}.${tried}${acts ? ' If your tools cannot do it in one call, write_skill can make one that does.' : ''}`;
}
