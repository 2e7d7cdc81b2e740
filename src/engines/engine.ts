/**
 * The engine contract: one turn of the avatar's "mind".
 *
 * The goal loop builds a structured {@link TurnRequest} (with its rendered
 * text prompt) and the engine returns the reply text, which ends in the
 * reporting protocol (`STATUS: …`, `GOAL: …`, `SUBTASK: …`, `DIRECTION: …`).
 * An engine that acts in the game (scripted, or LLM tool calls) does so
 * during the turn and must honour the `AbortSignal` (owner stop, new goal).
 */
import type { Logger } from 'pino';
import type { AvatarGame } from '../game/game.ts';
import type { SkillRegistry } from '../game/skill.ts';

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
  /** The full rendered text prompt (what a text model reads). */
  prompt: string;
}

/** The engine's answer to one turn. */
export interface TurnReply {
  /** Free text followed by the reporting protocol lines. */
  text: string;
  /** Token usage when the engine is metered (summed over the turn's requests). */
  usage?: TurnUsage;
  /** The skills run during the turn, in order, when the engine reports them (the thought stream shows them). */
  actions?: { skill: string; ok: boolean; code: string }[];
}

/** Tokens one turn cost, as the provider reported them. */
export interface TurnUsage {
  promptTokens: number;
  completionTokens: number;
  /** Requests sent in the turn (one per tool step); 1 when absent. */
  requests?: number;
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
 * const status = parseProtocol(reply.text).status;
 */
export interface Engine {
  readonly name: string;
  /** Take one turn. Throws {@link ProviderRefusedError} when the provider refuses (out of credit, bad key). */
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
}

/** The engine kinds an avatar record names. */
export type EngineKind = 'scripted' | 'llm';

/**
 * Builds the engine of an avatar (the core calls it once per avatar).
 * Throws a UserError when the kind is not available.
 *
 * @example
 * const engine = engines('scripted', { avatar: 'demo', game, log, skills });
 */
export type EngineProvider = (kind: EngineKind, ctx: EngineContext) => Engine;
