/**
 * The loop state of one avatar and every move it makes: whether it plays,
 * what it is doing, which turn comes next, and what the running turn was
 * told. The moves are pure functions (a state in, the next state out), as
 * `decide.ts`'s decisions are; {@link LoopStateCell} holds one avatar's state,
 * applies the moves and keeps the stored part (`playing`, `state`) in the
 * avatar's record. Nothing else writes any of it.
 *
 * Phases: `stopped` → `choosing` ⇄ `working` → `wrapup` → `choosing`; an
 * owner goal from any running phase → `working`.
 */
import type { TurnKind } from '../engines/engine.ts';
import type { GameState } from '../game/game.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar } from '../store/schema.ts';
import type { GoalPort } from './goal-port.ts';

/** What the loop does, as stored with the avatar. */
export type LoopPhase = Avatar['state'];

/** What the loop shows as its state: the stored phase, `waiting` while the game is down, `dead` while the avatar respawns. */
export type DisplayState = LoopPhase | 'waiting' | 'dead';

/** The whole loop state of one avatar. */
export interface LoopState {
  /** Stored: the owner wants it playing (it plays again after a restart). */
  playing: boolean;
  /** Stored: what it is doing. */
  phase: LoopPhase;
  /** Its loop runs in this process (false once stopped, and while paused for a shutdown). */
  active: boolean;
  /** The kind of the next turn when it is not plain choose/continue. */
  next: TurnKind | undefined;
  /** The owner's direction the next `direction` turn carries. */
  message: string | undefined;
  /** The turn that follows the wrap-up now due (after a first `blocked`: the blocked prompt). */
  afterWrapup: TurnKind | undefined;
  /** A turn runs (from its timer firing until it is over). */
  turning: boolean;
  /** Turns begun so far (their timers fired). */
  turns: number;
  /** A wake came while the turn ran: the next turn follows it at once. */
  wake: boolean;
  /** The running turn was stopped or replaced by the owner: its end is no crash. */
  aborted: boolean;
}

/** The part of a loop state that is stored with the avatar. */
type Stored = Pick<Avatar, 'playing' | 'state'>;

/**
 * The state of a loop just built for a stored avatar: not running yet.
 *
 * @example
 * loaded({ playing: true, state: 'working' }) // → { playing: true, phase: 'working', active: false, next: undefined, … }
 */
export function loaded(stored: DeepReadonly<Stored>): LoopState {
  return {
    playing: stored.playing,
    phase: stored.state,
    active: false,
    next: undefined,
    message: undefined,
    afterWrapup: undefined,
    turning: false,
    turns: 0,
    wake: false,
    aborted: false,
  };
}

/**
 * Play: the first turn resumes the saved goal, or chooses one.
 *
 * @example
 * started(loaded({ playing: false, state: 'stopped' }), true) // → { playing: true, active: true, phase: 'working', next: 'resume', … }
 */
export function started(s: LoopState, hasGoal: boolean): LoopState {
  return { ...s, playing: true, active: true, phase: hasGoal ? 'working' : 'choosing', next: hasGoal ? 'resume' : 'choose' };
}

/**
 * Stop for good (the owner's stop, or the loop stopping itself): not playing, no more turns; a running turn is aborted.
 *
 * @example
 * stopped({ ...running, turning: true }) // → { playing: false, phase: 'stopped', active: false, aborted: true, … }
 */
export function stopped(s: LoopState): LoopState {
  return { ...paused(s), playing: false, phase: 'stopped' };
}

/**
 * Pause for a shutdown: no more turns, a running turn is aborted, the stored state is kept (it plays again on the next start).
 *
 * @example
 * paused(running) // → { ...running, active: false }
 */
export function paused(s: LoopState): LoopState {
  return { ...s, active: false, aborted: s.aborted || s.turning };
}

/**
 * The owner set a goal: the next turn continues it, a running turn is aborted (its reply is stale), and a
 * playing avatar is working (from any phase). While stopped only the next turn is set.
 *
 * @example
 * ownerGoalSet({ ...choosing, turning: true }) // → { phase: 'working', next: 'continue', aborted: true, … }
 */
export function ownerGoalSet(s: LoopState): LoopState {
  return { ...s, next: 'continue', phase: s.playing ? 'working' : s.phase, aborted: s.aborted || s.turning };
}

/**
 * The owner gave a direction: the next turn carries it.
 *
 * @example
 * directionGiven(working, 'stay near the village') // → { next: 'direction', message: 'stay near the village', … }
 */
export function directionGiven(s: LoopState, message: string): LoopState {
  return { ...s, next: 'direction', message };
}

/**
 * A wake (an owner message, a whisper, back in the game): while a turn runs, the next one follows it at
 * once; otherwise {@link wakesNow} says the next turn is due now.
 *
 * @example
 * woken({ ...working, turning: true }) // → { wake: true, … }
 */
export function woken(s: LoopState): LoopState {
  return s.active && s.turning ? { ...s, wake: true } : s;
}

/**
 * Whether a wake brings the next turn forward to now: the loop runs and no turn is running.
 *
 * @example
 * wakesNow(working) // → true
 */
export function wakesNow(s: LoopState): boolean {
  return s.active && !s.turning;
}

/**
 * A turn's timer fired: a turn runs (even one that finds the game down and sends nothing).
 *
 * @example
 * turnStarted(working) // → { turning: true, turns: working.turns + 1, … }
 */
export function turnStarted(s: LoopState): LoopState {
  return { ...s, turning: true, turns: s.turns + 1 };
}

/**
 * The kind of the turn to take now, from what is due and whether there is a goal.
 *
 * @example
 * dueTurn({ ...working, next: undefined }, true) // → 'continue'
 * dueTurn({ ...working, next: 'continue' }, false) // → 'choose'
 */
export function dueTurn(s: LoopState, hasGoal: boolean): TurnKind {
  const kind = s.next ?? (hasGoal ? 'continue' : 'choose');
  return kind === 'continue' && !hasGoal ? 'choose' : kind;
}

/**
 * The engine is asked for a turn of `kind`: what was due is taken (a direction turn takes its message; a
 * wrap-up leaves the turn meant to follow it due), the phase is the kind's, and nothing has aborted it yet.
 *
 * @example
 * turnTaken({ ...working, next: 'wrapup', afterWrapup: 'blocked' }, 'wrapup', true) // → { phase: 'wrapup', next: 'blocked', afterWrapup: undefined, … }
 */
export function turnTaken(s: LoopState, kind: TurnKind, hasGoal: boolean): LoopState {
  const follow = kind === 'wrapup' ? s.afterWrapup : undefined;
  return {
    ...s,
    next: follow,
    afterWrapup: follow ? undefined : s.afterWrapup,
    message: kind === 'direction' ? undefined : s.message,
    phase: kind === 'wrapup' ? 'wrapup' : hasGoal ? 'working' : 'choosing',
    aborted: false,
  };
}

/** What a turn's decision sets (`decide.ts`'s `TurnDecision`). */
export interface Decided {
  /** The next turn kind (undefined: `continue` with a goal, else `choose`). */
  next: TurnKind | undefined;
  /** The phase, when it changes. */
  state?: 'working' | 'choosing' | 'wrapup' | undefined;
  /** When `next` is a wrap-up: the turn to follow it, if it is set. */
  followedBy?: TurnKind | undefined;
}

/**
 * A turn's reply was decided: its next turn, phase and the turn after a wrap-up are set.
 *
 * @example
 * turnDecided(working, { next: 'wrapup', state: 'wrapup', followedBy: 'blocked' }) // → { phase: 'wrapup', next: 'wrapup', afterWrapup: 'blocked', … }
 */
export function turnDecided(s: LoopState, d: Decided): LoopState {
  return { ...s, next: d.next, phase: d.state ?? s.phase, afterWrapup: d.followedBy ?? s.afterWrapup };
}

/**
 * The engine's conversation was rotated between turns: the next prompt says it is fresh, unless an owner
 * direction is due (its turn is fresh all the same).
 *
 * @example
 * sessionRotated(working) // → { next: 'fresh', … }
 */
export function sessionRotated(s: LoopState): LoopState {
  return s.next === 'direction' ? s : { ...s, next: 'fresh' };
}

/**
 * Many turns in a row changed nothing: the next prompt is the blocked one.
 *
 * @example
 * stalled(working) // → { next: 'blocked', … }
 */
export function stalled(s: LoopState): LoopState {
  return { ...s, next: 'blocked' };
}

/**
 * The turn is over (replied, failed or aborted): nothing runs; its abort and a wake it collected are spent.
 *
 * @example
 * turnOver({ ...working, turning: true, wake: true }) // → { turning: false, wake: false, aborted: false, … }
 */
export function turnOver(s: LoopState): LoopState {
  return { ...s, turning: false, wake: false, aborted: false };
}

/**
 * The state to show: `stopped` unless the loop runs and plays; `dead` while the avatar is dead in the game
 * (it respawns); `waiting` while it is out of the game.
 *
 * @example
 * shown(working, 'down') // → 'waiting'
 */
export function shown(s: LoopState, game: GameState): DisplayState {
  if (!s.active || !s.playing) return 'stopped';
  return game === 'connected' ? s.phase : game === 'dead' ? 'dead' : 'waiting';
}

/**
 * One avatar's loop state: the moves above applied, and the stored part written to the avatar's record
 * (through the loop's port) whenever a move changes it (nothing else writes it there, so the two stay in step).
 *
 * @example
 * const state = new LoopStateCell(port);
 * state.move(started, port.record().goal !== null);
 * if (wakesNow(state.value)) schedule(0);
 */
export class LoopStateCell {
  private kept: LoopState;

  constructor(private readonly goals: Pick<GoalPort, 'record' | 'setLoop'>) {
    this.kept = loaded(goals.record());
  }

  /** The state now. */
  get value(): LoopState {
    return this.kept;
  }

  /** Apply one move; a change of its stored part is written to the avatar's record. Returns the new state. */
  move<A extends unknown[]>(to: (s: LoopState, ...args: A) => LoopState, ...args: A): LoopState {
    const next = to(this.kept, ...args);
    if (next.playing !== this.kept.playing || next.phase !== this.kept.phase) this.goals.setLoop(next.playing, next.phase);
    this.kept = next;
    return next;
  }
}
