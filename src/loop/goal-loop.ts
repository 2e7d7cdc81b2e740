/**
 * The goal loop of one avatar (seed 000 "Goals", "The reporting protocol", "Pacing").
 *
 * States: `stopped` → `choosing` ⇄ `working` → `wrapup` → `choosing`; an
 * owner goal from any running state → `working`. What a reply leads to is
 * decided by the pure functions of `decide.ts`; this class keeps the
 * timers, the I/O (engine, store, TASK.md, posts) and the aborts.
 * It knows nothing of Minecraft beyond a {@link Snapshot} and an {@link Engine}.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Backoff } from '../backoff.ts';
import { TurnInterruptedError, type Engine, type TurnKind } from '../engines/engine.ts';
import { ProviderRefusedError } from '../errors.ts';
import { forAvatar, type Logger } from '../logger.ts';
import { worldFingerprint, type Snapshot } from '../game/game.ts';
import { baselineGone } from '../goals/check.ts';
import type { Avatar } from '../store/store.ts';
import { decideCrash, decideStall, decideTurn, freshMemory, paceTurn, pickTurn, sessionDue, type CompletionCheck, type LoopMemory } from './decide.ts';
import { GoalStore } from './goal-store.ts';
import type { DisplayState, GoalLoopDeps, GoalLoopEvents } from './loop-deps.ts';
import { cleanText } from '../sanitize.ts';
import { parseProtocol, type Protocol } from './protocol.ts';
import { buildRequest } from './request.ts';
import { ownPart } from './task-md.ts';

export type { LoopPostKind } from './decide.ts';
export type { DisplayState, GoalChecker, GoalLoopDeps, GoalLoopEvents, TurnSummary } from './loop-deps.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * @example
 * const loop = new GoalLoop(deps);
 * loop.start();                       // resumes the saved goal, or chooses one
 * loop.setOwnerGoal('collect 3 oak logs', personId);
 */
export class GoalLoop extends EventEmitter<GoalLoopEvents> {
  private readonly d: GoalLoopDeps;
  /** The loop's log, bound to its avatar once. */
  private readonly log: Logger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private turnAbort: AbortController | undefined;
  private active = false;
  /** The kind of the next turn when it is not plain choose/continue. */
  private nextKind: TurnKind | undefined;
  /** The run token of the goal whose stall the owner was told about (once per goal). */
  private stallReported: string | undefined;
  /** Turns begun so far (their timers fired). */
  private turnsStarted = 0;
  private nextMessage: string | undefined;
  private memory: LoopMemory = freshMemory();
  private readonly goals: GoalStore;
  private crashes: number[] = [];
  private wakeRequested = false;
  private turnWasAborted = false;

  constructor(deps: GoalLoopDeps) {
    super();
    this.d = deps;
    this.log = forAvatar(deps.log, deps.avatar);
    this.goals = new GoalStore(deps.store, deps.avatar, () => this.now());
  }

  /** The stored avatar record (live object inside the store). */
  private get rec(): Avatar {
    const a = this.d.store.state.data.avatars.find((x) => x.name === this.d.avatar);
    if (!a) throw new Error(`avatar ${this.d.avatar} is not in the store`);
    return a;
  }

  /** Crashes and turns that changed nothing back off from the base pace up to the cap. */
  private get backoff(): Backoff {
    return { minMs: this.d.pacing.baseMs, maxMs: this.d.pacing.maxMs };
  }

  private now(): Date {
    return this.d.now ? this.d.now() : new Date();
  }

  private jitter(): number {
    return (this.d.random ?? Math.random)();
  }

  /** Whether the loop is running (playing). */
  get isActive(): boolean {
    return this.active;
  }

  /** The state to show: `waiting` while playing but out of the game. */
  get displayState(): DisplayState {
    const rec = this.rec;
    if (!this.active || !rec.playing) return 'stopped';
    if (this.d.game.state !== 'connected') return 'waiting';
    return rec.state;
  }

  /** Start (or resume) the loop: the first turn resumes the saved goal, or chooses one. */
  start(): void {
    if (this.active) return;
    this.active = true;
    const rec = this.rec;
    this.d.store.state.update(() => {
      rec.playing = true;
      rec.state = rec.goal ? 'working' : 'choosing';
    });
    this.nextKind = rec.goal ? 'resume' : 'choose';
    this.memory = { ...this.memory, unchangedStreak: 0, blockedStreak: 0 };
    this.d.game.on('connected', this.onConnected);
    this.d.game.on('whispered', this.onWhisper);
    this.d.game.on('ended', this.onEnded);
    this.d.game.on('failed', this.onFailed);
    if (this.d.game.state === 'connected') this.measureBaseline();
    this.schedule(0);
  }

  /**
   * Stop the loop: abort the running turn, keep the goal. Resolves once no turn is running.
   * `reason` is only for the log; the caller posts what the owner sees.
   */
  async stop(reason = 'owner stop'): Promise<void> {
    const rec = this.rec;
    this.d.store.state.update(() => {
      rec.playing = false;
      rec.state = 'stopped';
    });
    await this.pause(reason);
  }

  /** Stop prompting without changing the stored `playing` flag (process shutdown: resumed on the next start). */
  async pause(reason = 'shutdown'): Promise<void> {
    this.halt(reason);
    await this.running;
  }

  /** No more turns: abort the running one, drop the timer and the game listeners. */
  private halt(reason: string): void {
    if (this.active) this.log.info({ reason }, 'loop stopped');
    this.active = false;
    this.clearTimer();
    this.turnAbort?.abort(new Error(reason));
    this.d.game.off('connected', this.onConnected);
    this.d.game.off('whispered', this.onWhisper);
    this.d.game.off('ended', this.onEnded);
    this.d.game.off('failed', this.onFailed);
  }

  /**
   * Wake once the owner's change is on disk: the router acknowledges it only then, so the first turn on
   * it (and its `Done:`) never comes before the acknowledgement. A disk that refuses the write wakes the
   * loop all the same (the store logs the failure and keeps retrying; the router says "Could not save").
   */
  private wakeWhenSaved(): void {
    // A turn that started meanwhile (its timer was due) already works on the change: no second wake.
    const started = this.turnsStarted;
    const wake = (): void => {
      if (this.turnsStarted === started) this.wake();
    };
    void this.d.store.state.flush().then(wake, wake);
  }

  /** Wake a loop waiting out its delay (owner message, whisper). */
  wake(): void {
    if (!this.active) return;
    this.memory = { ...this.memory, unchangedStreak: 0 };
    if (this.running) {
      this.wakeRequested = true;
      return;
    }
    this.schedule(0);
  }

  /**
   * Replace the goal with an owner goal. The running turn is aborted (its reply is stale and ignored);
   * the next turn starts at once. Works while stopped too (kept for /play).
   */
  setOwnerGoal(text: string, setById: string | null): void {
    this.goals.setOwnerGoal(this.rec, text, setById, this.d.game.snapshot());
    this.memory = { ...this.memory, checkFailure: undefined, blockedStreak: 0 };
    this.nextKind = 'continue';
    this.turnAbort?.abort(new Error('new owner goal'));
    this.wakeWhenSaved();
  }

  /**
   * Set an owner goal aside without touching the current one (a scheduled goal that comes
   * while an owner goal runs): it is parked, and offered again, with priority, when choosing.
   */
  parkGoal(text: string, setById: string | null, reason: string): void {
    this.goals.parkAside(this.rec, text, setById, reason);
    void this.d.syncTask();
  }

  /** A new owner direction arrived: the next turn carries it (seed: "every message goes straight to the agent"). */
  directionAdded(text: string): void {
    this.nextKind = 'direction';
    this.nextMessage = text;
    this.wakeWhenSaved();
  }

  /**
   * Answer an owner question in its own short turn. The goal is untouched; the automatic loop goes on.
   * Returns the answer text (protocol lines removed).
   */
  async ask(question: string): Promise<string> {
    // A question's prompt carries no notes: TASK.md is not read for it.
    const req = buildRequest({ ...this.requestFacts('question', ''), message: question });
    const controller = new AbortController();
    let reply;
    try {
      reply = await this.d.engine.turn(req, controller.signal);
    } catch (err) {
      if (!(err instanceof ProviderRefusedError)) throw err;
      // Out of credit or a bad key: the avatar stops (its line says why), as after an automatic turn.
      this.selfStop(err.message);
      return "I can't answer: the model provider refused, so I stopped.";
    }
    if (reply.usage) this.goals.recordUsage(this.rec, reply.usage);
    const parsed = parseProtocol(cleanText(reply.text));
    this.applyDirections(parsed);
    return parsed.body || 'I have no answer to that right now.';
  }

  private requestFacts(kind: TurnKind, task: string): Parameters<typeof buildRequest>[0] {
    return {
      kind,
      avatar: this.rec,
      task,
      history: this.d.store.record.data.goals,
      unchangedStreak: this.memory.unchangedStreak,
      checkFailure: this.memory.checkFailure,
    };
  }

  private readonly onConnected = (): void => {
    this.measureBaseline();
    this.wake();
  };

  /**
   * In the game again: a goal set while out of the game gets its baseline now, and a baseline the
   * inventory no longer holds (it was lost while the avatar was away) is measured again, so
   * "collect N more" still means N more than the avatar holds, never the items it lost plus N.
   */
  private measureBaseline(): void {
    const goal = this.rec.goal;
    const snap = this.d.game.snapshot();
    if (!goal || !snap) return;
    if (goal.baseline && !baselineGone(goal.text, goal.baseline, snap)) return;
    if (goal.baseline) this.log.info({ goal: goal.text, was: goal.baseline }, 'the inventory the goal was measured against is gone: measuring again');
    this.d.store.state.update(() => {
      goal.baseline = { ...snap.inventory };
    });
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
    if (!this.active) return;
    const rec = this.rec;
    this.d.store.state.update(() => {
      rec.playing = false;
      rec.state = 'stopped';
    });
    this.halt(reason);
    this.d.post('stopped', `Stopped: ${reason}`);
    this.d.onSelfStop(reason);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    this.clearTimer();
    if (!this.active) return;
    this.emit('turnScheduled', ms);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.turnsStarted++;
      this.running = this.turn().finally(() => {
        this.running = undefined;
      });
    }, ms);
  }

  /** One turn, with the one catch of this boundary. */
  private async turn(): Promise<void> {
    if (!this.active) return;
    if (this.d.game.state !== 'connected') {
      // While the game is down no prompts are sent; the goal is kept. `connected` wakes us.
      return;
    }
    let delay = this.d.pacing.baseMs;
    try {
      delay = await this.turnInner();
    } catch (err) {
      if (this.turnWasAborted) {
        // Stopped or replaced by the owner mid-turn: not a crash. The requests it finished still cost tokens.
        this.turnWasAborted = false;
        if (err instanceof TurnInterruptedError && err.usage.requests !== 0) this.goals.recordUsage(this.rec, err.usage);
        if (!this.active) return;
        this.schedule(0);
        return;
      }
      if (err instanceof ProviderRefusedError) {
        this.selfStop(err.message);
        return;
      }
      if (!this.active) return;
      const limit = this.d.crashLoop ?? { count: 3, windowMs: 5 * 60_000 };
      const crash = decideCrash(this.crashes, this.now().getTime(), limit, this.backoff, this.jitter(), (err as Error).message ?? String(err));
      this.crashes = crash.crashes;
      this.log.error({ err, avatar: this.d.avatar, crashes: this.crashes.length }, 'turn crashed');
      if ('stop' in crash) {
        this.selfStop(crash.stop);
        return;
      }
      delay = crash.delayMs;
    }
    if (!this.active) return;
    if (this.wakeRequested) {
      this.wakeRequested = false;
      delay = 0;
    }
    this.schedule(delay);
  }

  /** Runs one engine turn and applies its decision. Returns the delay before the next turn. */
  private async turnInner(): Promise<number> {
    const rec = this.rec;
    this.rotateSessionIfDue();
    const picked = pickTurn(this.nextKind, rec.goal !== null, this.memory);
    const kind = picked.kind;
    const message = this.nextMessage;
    this.nextKind = picked.next;
    this.nextMessage = undefined;
    this.memory = picked.memory;

    const stateForKind = kind === 'wrapup' ? 'wrapup' : rec.goal ? 'working' : 'choosing';
    if (rec.state !== stateForKind) this.d.store.state.update(() => (rec.state = stateForKind));

    const tokenBefore = rec.goal?.runToken ?? null;
    const task = await this.d.task.read();
    const before = `${worldFingerprint(this.d.game.snapshot())}|${hash(ownPart(task))}`;

    const req = buildRequest({ ...this.requestFacts(kind, task), ...(message !== undefined ? { message } : {}) });
    const controller = new AbortController();
    this.turnAbort = controller;
    this.turnWasAborted = false;
    let reply;
    try {
      reply = await this.d.engine.turn(req, controller.signal);
    } finally {
      this.turnWasAborted = controller.signal.aborted;
      this.turnAbort = undefined;
    }
    this.turnWasAborted = false;
    if (!this.active) return this.d.pacing.baseMs;
    if (reply.usage) this.goals.recordUsage(this.rec, reply.usage);

    // An engine's words enter mindlink here: no control character goes on into chat, TASK.md or the lab log.
    const parsed = parseProtocol(cleanText(reply.text));
    // Every few seconds per avatar: debug, so an interactive console is not drowned (LOG_LEVEL=debug shows them).
    this.log.debug(
      { kind, status: parsed.status, goal: parsed.goal ?? undefined, reply: parsed.body.slice(0, 200) },
      'turn',
    );
    this.applyDirections(parsed);
    if (kind === 'wrapup' && parsed.body) await this.d.task.appendLab(parsed.body, this.now());
    // From the stale check to the store update nothing awaits: an owner goal cannot slip in between.
    const current = this.rec;
    const stale = (current.goal?.runToken ?? null) !== tokenBefore;
    const completion = (goal: { text: string; baseline: Record<string, number> | null }): CompletionCheck => {
      const snap = this.d.game.snapshot();
      return snap ? this.d.checkGoal(goal.text, goal.baseline, snap) : { checkable: false };
    };
    const facts = { kind, goal: current.goal, stale, reply: parsed, completion, next: this.nextKind, parked: current.parked, owner: current.owner };
    const decision = decideTurn(facts, this.memory);
    this.memory = decision.memory;
    this.nextKind = decision.next;
    if (decision.refused) this.log.info({ goal: current.goal?.text, says: decision.refused }, 'done claim refused by the check');
    this.goals.apply(current, decision.change, decision.state, this.d.game.snapshot());
    for (const p of decision.posts) this.d.post(p.kind, p.text, p.ping);
    if (decision.change.kind !== 'keep') void this.d.syncTask();
    this.emit('turnEnded', kind, {
      kind,
      status: parsed.status,
      actions: reply.actions ?? [],
      says: (parsed.body.split('\n').find((l) => l.trim()) ?? '').trim(),
    });

    const worldChanged = before !== (await this.fingerprint());
    const goalChanged = (this.rec.goal?.runToken ?? null) !== tokenBefore;
    const paced = paceTurn({ kind, next: this.nextKind, worldChanged, goalChanged, pacing: this.backoff, jitter: this.jitter() }, this.memory);
    this.memory = paced.memory;
    const goal = this.rec.goal;
    const stall = decideStall({ next: this.nextKind, goal, unchangedStreak: this.memory.unchangedStreak, reported: this.stallReported });
    this.nextKind = stall.next;
    if (stall.post && goal) {
      this.stallReported = goal.runToken;
      this.log.info({ goal: goal.text, turns: this.memory.unchangedStreak }, 'no progress: the next prompt is the blocked one');
      this.d.post('info', stall.post);
    }
    return paced.delayMs;
  }

  /** `DIRECTION: done n` retires #n, posts one line, and updates TASK.md. */
  private applyDirections(p: Protocol): void {
    if (p.directionsDone.length === 0) return;
    for (const post of this.goals.retireDirections(this.rec, p.directionsDone)) this.d.post(post.kind, post.text);
    void this.d.syncTask();
  }

  /** A day-old or oversized engine conversation is rotated between turns; the next prompt says it is fresh. */
  private rotateSessionIfDue(): void {
    const s = this.d.engine.session();
    if (!sessionDue(s, this.now().getTime(), this.d.session ?? { maxAgeMs: DAY_MS, maxSize: 400_000 })) return;
    this.d.engine.resetSession();
    this.log.info({ ageMs: this.now().getTime() - s.startedAt, size: s.size }, 'fresh engine session');
    // A pending owner direction comes first; its turn is fresh all the same.
    if (this.nextKind !== 'direction') this.nextKind = 'fresh';
  }

  /** What a turn can change, to tell a turn that changed nothing: world (position, inventory/XP) and the own notes. */
  private async fingerprint(): Promise<string> {
    return `${worldFingerprint(this.d.game.snapshot())}|${hash(ownPart(await this.d.task.read()))}`;
  }
}

function hash(s: string): string {
  return createHash('sha1').update(s).digest('hex');
}
