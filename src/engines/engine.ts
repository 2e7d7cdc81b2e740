/**
 * The engine contract: one turn of the avatar's "mind".
 *
 * The goal loop builds a structured {@link TurnRequest} (with its rendered
 * text prompt) and the engine answers with a structured {@link TurnReport}:
 * its status, a new goal, a finished step, the directions it retired and its
 * own words. An engine that speaks text (the llm engine) reads the report out
 * of the reporting protocol its model writes (`llm/protocol.ts`); the others
 * build it directly. An engine that acts in the game (scripted, or LLM tool
 * calls) does so during the turn and honours the `AbortSignal` (owner stop,
 * new goal), as {@link Engine.turn} says.
 */
import type { Logger } from 'pino';
import type { AvatarGame } from '../game/game.ts';
import type { SkillRegistry } from '../game/skill.ts';
import type { PlaceBook } from '../goals/places.ts';
import type { LearnedSkills } from '../learned/learned-skills.ts';
import type { AvatarFolder } from '../store/avatar-files.ts';
import type { TaskFile } from '../task/task-file.ts';
import type { EngineKind } from './kinds.ts';

/** Why the loop is prompting. */
export type TurnKind = 'choose' | 'continue' | 'blocked' | 'wrapup' | 'resume' | 'fresh' | 'question' | 'direction';

/** The current goal as the engine sees it. */
export interface GoalView {
  text: string;
  setBy: 'owner' | 'self';
  /** Inventory when the goal was set ("collect N" means N more than this), or null if not yet known. */
  baseline: Record<string, number> | null;
}

/** An open owner direction. */
export interface DirectionView {
  n: number;
  text: string;
  at: string;
}

/** One structured request to an engine. */
export interface TurnRequest {
  kind: TurnKind;
  avatar: string;
  goal: GoalView | null;
  /** The short direction summary (≤ ~700 chars) carried by every automatic prompt. */
  directionSummary: string;
  /** All open owner direction, newest last. */
  directions: DirectionView[];
  /** TASK.md: the avatar's own part (≤ 6 KB on resume/fresh), or all of it. */
  task: string;
  /** "try something different", "rewrite TASK.md short", "take another route, or pick another goal"… */
  nudges: string[];
  /** The owner's message for `question` / `direction` turns. */
  message?: string;
  /** The last finished goals (newest last), for `choose`. */
  recentGoals?: string[];
  /** Parked owner goals, for `choose`. */
  parkedGoals?: string[];
  /** The last completion check that failed ("the check says …"), for `continue`. */
  checkFailure?: string;
  /** The last few lessons of the lab log, oldest first, each one short line: for `choose`, `resume` and `fresh`. */
  lessons?: string[];
  /**
   * Set by an engine that hands this turn to another it is made of (the hybrid engine to its model): why the
   * turn is handed over, and what was tried on the goal. `prompt` says the same in words.
   */
  handover?: Handover;
  /** The full rendered text prompt (what a text model reads). */
  prompt: string;
  /**
   * Is `goal` met in the game now? The loop's one completion check, asked when called. An engine may ask it
   * during its turn (before it says `done`); the loop judges a `done` by the last answer it gave, and asks it
   * itself only when the turn asked none that confirms the claim.
   */
  completion(): CompletionCheck;
}

/** Why a turn is handed to another engine, and what was tried on the goal so far. */
export interface Handover {
  /** One clause: "the scripted engine reported blocked twice on this goal: …", "the goal is outside the scripted engine's language". */
  why: string;
  /** What was tried, one short item each ("3 collect runs, 2 failed (no_target)"). */
  tried: string[];
}

/** A completion check's answer: whether the goal can be checked against the game, and if so whether it is met. */
export type CompletionCheck = { checkable: false } | { checkable: true; met: boolean; says: string };

/** The most characters a reported goal keeps. */
export const GOAL_MAX = 300;

/** What one turn reports to the loop. */
export interface TurnReport {
  /** `working` when the engine says nothing else. */
  status: 'working' | 'done' | 'blocked';
  /** A new goal, only when the goal changes (one line, at most {@link GOAL_MAX} characters), or null. */
  goal: string | null;
  /** A finished or blocked step of the goal (it earns a wrap-up turn), or null. */
  subtask: { state: 'done' | 'blocked'; step: string } | null;
  /** The numbers of the owner directions that are done or no longer apply, in the order given, once each. */
  directionsDone: number[];
  /** The engine's own words (for a question, the answer), without any protocol lines. */
  text: string;
}

/**
 * A report of words only: working, no new goal, no step, no direction.
 *
 * @example
 * saying('(the model is not answering)') // → { status: 'working', goal: null, subtask: null, directionsDone: [], text: '(the model is not answering)' }
 */
export function saying(text: string): TurnReport {
  return { status: 'working', goal: null, subtask: null, directionsDone: [], text };
}

/** The engine's answer to one turn. */
export interface TurnReply {
  report: TurnReport;
  /** Token usage when the engine is metered (summed over the turn's requests). */
  usage?: TurnUsage;
  /** The skills run during the turn, in order, when the engine reports them (the thought stream shows them). */
  actions?: { skill: string; ok: boolean; code: string }[];
  /** What the engine said between its tool calls, before its reply (an agent's running commentary; the thought stream shows it). */
  thoughts?: string[];
  /**
   * Which engine played the turn, set by an engine made of others (the hybrid engine): its name, and whether it
   * asked a model. `/status`, `/usage` and the thought stream show it.
   */
  playedBy?: PlayedBy;
  /** One line for the avatar's chats, said once (the hybrid engine's "the model refused; the scripted engine plays on"). */
  notice?: string;
}

/** The engine that played a turn. */
export interface PlayedBy {
  /** `scripted`, `llm` … */
  engine: string;
  /** Whether it asked a model (a model turn) or not (a scripted turn). */
  model: boolean;
}

/** Tokens one turn cost, as the provider reported them. */
export interface TurnUsage {
  promptTokens: number;
  completionTokens: number;
  /** Requests sent in the turn (one per tool step); 1 when absent. */
  requests?: number;
  /** What the turn cost in USD when the engine says so itself (an agent CLI reports its own figure). */
  costUsd?: number;
}

/**
 * A turn stopped early by its abort signal (owner stop, new owner goal). `usage` is what the requests it
 * had already finished cost, so a metered engine's tokens are counted even when its reply never comes.
 *
 * @example
 * if (signal.aborted) throw new TurnInterruptedError(usage, signal.reason);
 */
export class TurnInterruptedError extends Error {
  readonly usage: TurnUsage;
  constructor(usage: TurnUsage, reason: unknown) {
    super(`turn interrupted: ${reason instanceof Error ? reason.message : String(reason)}`, { cause: reason });
    this.name = 'TurnInterruptedError';
    this.usage = usage;
  }
}

/** Size and age of the engine's current conversation, for fresh-session rotation. */
export interface SessionInfo {
  startedAt: number;
  /** Characters kept in the conversation. */
  size: number;
}

/**
 * An engine instance belongs to one avatar.
 *
 * @example
 * const reply = await engine.turn(request, signal);
 * if (reply.report.status === 'done') …
 */
export interface Engine {
  readonly name: string;
  /**
   * Take one turn. Throws {@link ProviderRefusedError} when the provider refuses (out of credit, bad key).
   *
   * Abort: once `signal` aborts (owner stop, new owner goal), the engine stops what it does as soon as it
   * can and rejects with {@link TurnInterruptedError}, carrying what the requests it finished cost; it
   * never resolves with a reply to an aborted turn. One that aborts before it starts rejects at once.
   */
  turn(request: TurnRequest, signal: AbortSignal): Promise<TurnReply>;
  /** The current conversation's age and size. */
  session(): SessionInfo;
  /** Start a fresh conversation (called only between turns). */
  resetSession(): void;
  /** Let go of what the engine holds on its game (listeners); called when the avatar's engine is replaced. */
  close?(): void;
}

/** What an engine gets when it is created for an avatar. */
export interface EngineContext {
  avatar: string;
  game: AvatarGame;
  log: Logger;
  /** The avatar's skills, bound to `game` (the LLM engine offers them as tools). */
  skills: SkillRegistry;
  /** The avatar's TASK.md, where the engine keeps its own part (the loop keeps mindlink's sections in it). */
  task: TaskFile;
  /**
   * The avatar's own files (on disk or in the database: `src/store/avatar-files.ts`), where an engine keeps its
   * saved session. Absent, an engine keeps it in the avatar's folder on disk (some tests).
   */
  files?: AvatarFolder;
  /**
   * The skills the avatar wrote and kept (docs/skills.md): a model-driven engine offers the relevant ones as tools
   * and writes new ones through it. Absent where no library is kept (some tests).
   */
  learned?: LearnedSkills;
  /**
   * The places the avatar remembers on its server (docs/commands.md "Places"): the goal language reads "go to base"
   * against them, and the avatar remembers new ones. `skills` already offers them (`go_to` a place, `remember_place`:
   * `place-skills.ts`). Absent where none are kept (some tests).
   */
  places?: PlaceBook;
}

/** The engine kinds an avatar record names (`kinds.ts`). */
export type { EngineKind } from './kinds.ts';

/**
 * Builds the engine of an avatar (the core calls it once per avatar).
 * Throws a UserError when the kind is not available.
 *
 * @example
 * const engine = engines('scripted', { avatar: 'demo', game, log, skills });
 */
export type EngineProvider = (kind: EngineKind, ctx: EngineContext) => Engine;
