/**
 * The goal loop of one avatar (docs/goal-loop.md: states, the reporting protocol, pacing).
 *
 * This class keeps when turns happen: start and stop, the timers, the wakes,
 * the game's events, crashes and stopping itself. The loop's state and its
 * moves are `loop-state.ts`'s (this class asks it to move and acts on what it
 * says); what one turn does is `turn.ts`; what a reply leads to is decided by
 * the pure functions of `decide.ts`. It knows nothing of Minecraft beyond a
 * {@link Snapshot} and an {@link Engine}.
 */
import { EventEmitter } from 'node:events';
import type { Backoff } from '../backoff.ts';
import { TurnInterruptedError, type Engine } from '../engines/engine.ts';
import { ProviderRefusedError } from '../errors.ts';
import { forAvatar, type Logger } from '../logger.ts';
import type { Death, Snapshot } from '../game/game.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, Destination, ParkedGoal } from '../store/schema.ts';
import { decideCrash } from './decide.ts';
import type { GoalOrigin, GoalPort } from './goal-port.ts';
import type { DisplayState, GoalLoopDeps, GoalLoopEvents } from './loop-deps.ts';
import { directionGiven, LoopStateCell, ownerGoalSet, paused, shown, started, stopped, turnOver, turnStarted, wakesNow, woken, type LoopState } from './loop-state.ts';
import { Turns } from './turn.ts';

export type { DonePing, LoopPostKind } from './decide.ts';
export type { DisplayState, GoalChecker, GoalLoopDeps, GoalLoopEvents, TurnSummary } from './loop-deps.ts';
export type { GoalOrigin, GoalPort } from './goal-port.ts';

/**
 * @example
 * const loop = new GoalLoop(deps);
 * loop.start();                       // resumes the saved goal, or chooses one
 * loop.setOwnerGoal('collect 3 oak logs', personId);
 */
export class GoalLoop extends EventEmitter<GoalLoopEvents> {
  private readonly deps: GoalLoopDeps;
  /** The loop's log, bound to its avatar once. */
  private readonly log: Logger;
  private readonly goals: GoalPort;
  private readonly turns: Turns;
  private readonly state: LoopStateCell;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private crashes: number[] = [];
  /** The number of the turn that takes in the latest owner goal or direction (the one an owner's message woke). */
  private ownerTurn = 0;
  /** The number of the last turn that ended. */
  private lastEnded = 0;
  /** Who waits for a turn to end (see {@link GoalLoop.wokenTurn}). */
  private readonly turnWaiters = new Set<{ turn: number; done: () => void }>();

  constructor(deps: GoalLoopDeps) {
    super();
    this.deps = deps;
    this.log = forAvatar(deps.log, deps.avatar);
    this.goals = deps.goals;
    this.state = new LoopStateCell(deps.goals);
    const clock = { now: () => this.now(), jitter: () => this.jitter(), backoff: () => this.backoff };
    this.turns = new Turns(deps, this.state, this.log, clock);
  }

  /** The stored avatar record, read-only. */
  private get rec(): DeepReadonly<Avatar> {
    return this.goals.record();
  }

  /** Crashes and turns that changed nothing back off from the base pace up to the cap. */
  private get backoff(): Backoff {
    return { minMs: this.deps.pacing.baseMs, maxMs: this.deps.pacing.maxMs };
  }

  private now(): Date {
    return this.deps.now ? this.deps.now() : new Date();
  }

  private jitter(): number {
    return (this.deps.random ?? Math.random)();
  }

  /** Whether the loop is running (playing). */
  get isActive(): boolean {
    return this.state.value.active;
  }

  /** The state to show: `waiting` while playing but out of the game. */
  get displayState(): DisplayState {
    return shown(this.state.value, this.deps.game.state);
  }

  /** Start (or resume) the loop: the first turn resumes the saved goal, or chooses one. */
  start(): void {
    if (this.state.value.active) return;
    this.state.move(started, this.rec.goal !== null);
    this.turns.begin();
    this.deps.game.on('connected', this.onConnected);
    this.deps.game.on('respawned', this.onRespawned);
    this.deps.game.on('whispered', this.onWhisper);
    this.deps.game.on('ended', this.onEnded);
    this.deps.game.on('failed', this.onFailed);
    if (this.deps.game.state === 'connected') this.measureBaseline();
    this.schedule(0);
  }

  /**
   * Stop the loop: abort the running turn, keep the goal. Resolves once no turn is running.
   * `reason` is only for the log; the caller posts what the owner sees.
   */
  async stop(reason = 'owner stop'): Promise<void> {
    this.halt(reason, stopped);
    await this.running;
  }

  /** Stop prompting without changing the stored `playing` flag (process shutdown: resumed on the next start). */
  async pause(reason = 'shutdown'): Promise<void> {
    this.halt(reason, paused);
    await this.running;
  }

  /** No more turns (`how`: stopped for good, or paused): abort the running one, drop the timer and the game listeners. */
  private halt(reason: string, how: (s: LoopState) => LoopState): void {
    if (this.state.value.active) this.log.info({ reason }, 'loop stopped');
    const s = this.state.move(how);
    this.clearTimer();
    if (s.aborted) this.turns.abort(new Error(reason));
    this.deps.game.off('connected', this.onConnected);
    this.deps.game.off('respawned', this.onRespawned);
    this.deps.game.off('whispered', this.onWhisper);
    this.deps.game.off('ended', this.onEnded);
    this.deps.game.off('failed', this.onFailed);
    // No turn comes after a halt: whoever waits for one waits no more.
    this.release(() => true);
  }

  /**
   * Resolves once the turn that takes in the latest owner goal or direction has ended (or the loop halted):
   * the one turn someone waits on (the chat shows typing meanwhile). Null when there is none to wait for: the
   * loop does not run, or that turn is over already.
   */
  wokenTurn(): Promise<void> | null {
    const turn = this.ownerTurn;
    if (!this.state.value.active || this.lastEnded >= turn) return null;
    return new Promise((done) => this.turnWaiters.add({ turn, done }));
  }

  /** Turn `n` ended: the waits for it and for earlier turns end. */
  private turnEnded(n: number): void {
    this.lastEnded = Math.max(this.lastEnded, n);
    this.release((turn) => turn <= n);
  }

  private release(which: (turn: number) => boolean): void {
    for (const w of [...this.turnWaiters]) {
      if (!which(w.turn)) continue;
      this.turnWaiters.delete(w);
      w.done();
    }
  }

  /**
   * Wake once the owner's change is on disk: the router acknowledges it only then, so the first turn on
   * it (and its `Done:`) never comes before the acknowledgement. A disk that refuses the write wakes the
   * loop all the same (the store logs the failure and keeps retrying; the router says "Could not save").
   */
  private wakeWhenSaved(): void {
    // A turn that started meanwhile (its timer was due) already works on the change: no second wake.
    const begun = this.state.value.turns;
    const wake = (): void => {
      if (this.state.value.turns === begun) this.wake();
    };
    void this.goals.saved().then(wake, wake);
  }

  /** Wake a loop waiting out its delay (owner message, whisper). */
  wake(): void {
    if (!this.state.value.active) return;
    this.turns.ownerSpoke();
    if (wakesNow(this.state.move(woken))) this.schedule(0);
  }

  /**
   * Replace the goal with an owner goal. The running turn is aborted (its reply is stale and ignored);
   * the next turn starts at once. Works while stopped too (kept for /play). Returns a scheduled goal
   * that came after the message and is parked behind it (see `ownerGoalSet` of `src/loop/goal-moves.ts`).
   */
  setOwnerGoal(text: string, setById: string | null, origin: GoalOrigin = {}): ParkedGoal | null {
    const parked = this.goals.setOwnerGoal(text, setById, this.deps.game.snapshot(), origin);
    // The running turn (if any) is aborted: the next one takes the goal in.
    this.ownerTurn = this.state.value.turns + 1;
    this.turns.ownerGoal();
    if (this.state.move(ownerGoalSet).aborted) this.turns.abort(new Error('new owner goal'));
    this.wakeWhenSaved();
    return parked;
  }

  /**
   * Set an owner goal aside without touching the current one (a scheduled goal that comes
   * while an owner goal runs): it is parked, and offered again, with priority, when choosing.
   */
  parkGoal(text: string, setById: string | null, reason: string, setIn?: Destination): void {
    this.goals.parkAside(text, setById, reason, setIn);
    void this.deps.syncTask();
  }

  /** A new owner direction arrived: the next turn carries it (every owner message goes straight to the agent). */
  directionAdded(text: string): void {
    this.ownerTurn = this.state.value.turns + 1;
    this.state.move(directionGiven, text);
    this.wakeWhenSaved();
  }

  /**
   * Answer an owner question in its own short turn. The goal is untouched; the automatic loop goes on.
   * Returns the answer text (protocol lines removed).
   */
  async ask(question: string): Promise<string> {
    try {
      return await this.turns.ask(question);
    } catch (err) {
      if (!(err instanceof ProviderRefusedError)) throw err;
      // Out of credit or a bad key: the avatar stops (its line says why), as after an automatic turn.
      this.selfStop(err.message);
      return "I can't answer: the model provider refused, so I stopped.";
    }
  }

  private readonly onConnected = (): void => {
    this.measureBaseline();
    this.wake();
  };

  /** Back after a death: one line in the chats, and the goal goes on (a server that drops the inventory on death lost its baseline). */
  private readonly onRespawned = (death: Death): void => {
    const { x, y, z } = death.position;
    this.deps.news.post(this.deps.avatar, 'info', `I died (${death.cause}) at ${x} ${y} ${z}; back at spawn.`);
    this.onConnected();
  };

  /** In the game again: the goal's baseline is measured if it has none, or if the inventory lost it. */
  private measureBaseline(): void {
    const snap = this.deps.game.snapshot();
    if (!snap) return;
    const was = this.goals.measureBaseline(snap);
    if (was) this.log.info({ goal: this.rec.goal?.text, was }, 'the inventory the goal was measured against is gone: measuring again');
  }

  private readonly onWhisper = (): void => {
    this.wake();
  };

  private readonly onEnded = (reason: string): void => {
    this.selfStop(`the game server ended the session: ${reason}`);
  };

  /** The game's connection kept failing (its crash loop): stop, saying why. */
  private readonly onFailed = (reason: string): void => {
    this.selfStop(reason);
  };

  private selfStop(reason: string): void {
    if (!this.state.value.active) return;
    this.halt(reason, stopped);
    this.deps.news.post(this.deps.avatar, 'stopped', `Stopped: ${reason}`);
    this.deps.onSelfStop(reason);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    this.clearTimer();
    if (!this.state.value.active) return;
    this.emit('turnScheduled', ms);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.state.move(turnStarted);
      this.running = this.turn().finally(() => {
        this.running = undefined;
      });
    }, ms);
  }

  /** One turn, then the next one scheduled: at once after a wake that came meanwhile. */
  private async turn(): Promise<void> {
    const n = this.state.value.turns;
    const delay = await this.take();
    const wake = this.state.value.wake;
    const s = this.state.move(turnOver);
    this.turnEnded(n);
    if (delay !== null && s.active) this.schedule(wake ? 0 : delay);
  }

  /** Take one turn, with the one catch of this boundary. Returns the delay before the next turn, or null for none. */
  private async take(): Promise<number | null> {
    if (!this.state.value.active) return null;
    if (this.deps.game.state !== 'connected') {
      // While the game is down no prompts are sent; the goal is kept. `connected` wakes us.
      return null;
    }
    let delay = this.deps.pacing.baseMs;
    try {
      delay = await this.turns.run(() => this.state.value.active);
    } catch (err) {
      if (this.state.value.aborted) {
        // Stopped or replaced by the owner mid-turn: not a crash. The requests it finished still cost tokens.
        // The turn on a new owner goal comes with the wake once the goal is saved, never before its acknowledgement.
        if (err instanceof TurnInterruptedError && err.usage.requests !== 0) this.goals.recordUsage(err.usage);
        return delay;
      }
      if (err instanceof ProviderRefusedError) {
        this.selfStop(err.message);
        return null;
      }
      if (!this.state.value.active) return null;
      const limit = this.deps.crashLoop ?? { count: 3, windowMs: 5 * 60_000 };
      const crash = decideCrash(this.crashes, this.now().getTime(), limit, this.backoff, this.jitter(), (err as Error).message ?? String(err));
      this.crashes = crash.crashes;
      this.log.error({ err, avatar: this.deps.avatar, crashes: this.crashes.length }, 'turn crashed');
      if ('stop' in crash) {
        this.selfStop(crash.stop);
        return null;
      }
      delay = crash.delayMs;
    }
    return delay;
  }
}
