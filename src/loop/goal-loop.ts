/**
 * The goal loop of one avatar (seed 000 "Goals", "The reporting protocol", "Pacing").
 *
 * States: `stopped` → `choosing` ⇄ `working` → `wrapup` → `choosing`; an
 * owner goal from any running state → `working`. The loop decides what to
 * prompt the engine with next, reads the reporting protocol from the reply,
 * checks "done" against the game where it can, and reports through `post`.
 * It knows nothing of Minecraft beyond a {@link Snapshot} and an {@link Engine}.
 */
import { createHash, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { backoffMs, type Backoff } from '../backoff.ts';
import type { Engine, TurnKind, TurnRequest } from '../engines/engine.ts';
import { ProviderRefusedError } from '../errors.ts';
import { worldFingerprint, type AvatarGame, type Snapshot } from '../game/game.ts';
import type { Avatar, Goal, GoalRecordEntry, Store } from '../store/store.ts';
import { completeDirection, summarizeDirections } from './directions.ts';
import { parseProtocol, type Protocol } from './protocol.ts';
import { NUDGES, renderPrompt } from './prompts.ts';
import { needsRewrite, ownPart, ownPartForPrompt, type TaskFile } from './task-md.ts';

/** What the loop shows as its state: the stored state, or `waiting` while the game is down. */
export type DisplayState = 'stopped' | 'choosing' | 'working' | 'wrapup' | 'waiting';

/** The kinds of post the loop makes. */
export type LoopPostKind = 'done' | 'new_goal' | 'direction_done' | 'stopped' | 'info';

/** A completion check: is the goal met in this snapshot? (`src/goals/check.ts`). */
export type GoalChecker = (
  goalText: string,
  baseline: Record<string, number> | null,
  snap: Snapshot,
) => { checkable: false } | { checkable: true; met: boolean; says: string };

/** Everything a loop needs, handed in by the avatar manager. */
export interface GoalLoopDeps {
  avatar: string;
  store: Store;
  engine: Engine;
  game: AvatarGame;
  task: TaskFile;
  log: Logger;
  checkGoal: GoalChecker;
  /** Post one line about this avatar to its chats. `ping` is the person id to ping (Done only). */
  post(kind: LoopPostKind, text: string, ping?: string | null): void;
  /** The loop stopped itself (provider refused, crash loop, kicked): the manager takes the avatar out of the game. */
  onSelfStop(reason: string): void;
  /** Keep TASK.md's mindlink sections in step with the store. */
  syncTask(): Promise<void>;
  pacing: { baseMs: number; maxMs: number };
  /** Fresh-session limits. */
  session?: { maxAgeMs: number; maxSize: number };
  /** Crash loop: this many crashes within `windowMs` stop the avatar. */
  crashLoop?: { count: number; windowMs: number };
  now?: () => Date;
  /** The jitter source of the backoff (`Math.random` when absent). */
  random?: () => number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Consecutive `blocked` replies on an owner goal after which the loop parks it itself. */
const PARK_AFTER_BLOCKED = 3;

/**
 * @example
 * const loop = new GoalLoop(deps);
 * loop.start();                       // resumes the saved goal, or chooses one
 * loop.setOwnerGoal('collect 3 oak logs', personId);
 */
/** Events of a {@link GoalLoop}, for observers and tests. */
export interface GoalLoopEvents {
  /** The next automatic turn is due in `delayMs`. */
  turnScheduled: [delayMs: number];
  /** A turn of this kind finished (its reply applied). */
  turnEnded: [kind: TurnKind];
}

export class GoalLoop extends EventEmitter<GoalLoopEvents> {
  private readonly d: GoalLoopDeps;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private turnAbort: AbortController | undefined;
  private active = false;
  /** The kind of the next turn when it is not plain choose/continue. */
  private nextKind: TurnKind | undefined;
  private nextMessage: string | undefined;
  private checkFailure: string | undefined;
  private unchangedStreak = 0;
  private blockedStreak = 0;
  /** What the engine said when it last reported `blocked` (first line), for the owner's "parked" line. */
  private blockedReason = '';
  private crashes: number[] = [];
  private wakeRequested = false;
  private turnWasAborted = false;

  constructor(deps: GoalLoopDeps) {
    super();
    this.d = deps;
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
    this.unchangedStreak = 0;
    this.blockedStreak = 0;
    this.d.game.on('connected', this.onConnected);
    this.d.game.on('whispered', this.onWhisper);
    this.d.game.on('ended', this.onEnded);
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
    if (this.active) this.d.log.info({ avatar: this.d.avatar, reason }, 'loop stopped');
    this.active = false;
    this.clearTimer();
    this.turnAbort?.abort(new Error(reason));
    this.d.game.off('connected', this.onConnected);
    this.d.game.off('whispered', this.onWhisper);
    this.d.game.off('ended', this.onEnded);
  }

  /** Wake a loop waiting out its delay (owner message, whisper). */
  wake(): void {
    if (!this.active) return;
    this.unchangedStreak = 0;
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
    const rec = this.rec;
    const snap = this.d.game.snapshot();
    this.d.store.state.update(() => {
      if (rec.goal) this.recordGoal(rec.goal, 'replaced');
      rec.goal = {
        text,
        setBy: 'owner',
        setById,
        startedAt: this.now().toISOString(),
        baseline: snap ? { ...snap.inventory } : null,
        runToken: randomUUID(),
      };
      rec.parked = rec.parked.filter((p) => p.text !== text);
      if (rec.playing) rec.state = 'working';
    });
    this.checkFailure = undefined;
    this.blockedStreak = 0;
    this.nextKind = 'continue';
    this.turnAbort?.abort(new Error('new owner goal'));
    this.wake();
  }

  /** A new owner direction arrived: the next turn carries it (seed: "every message goes straight to the agent"). */
  directionAdded(text: string): void {
    this.nextKind = 'direction';
    this.nextMessage = text;
    this.wake();
  }

  /**
   * Answer an owner question in its own short turn. The goal is untouched; the automatic loop goes on.
   * Returns the answer text (protocol lines removed).
   */
  async ask(question: string): Promise<string> {
    const req = this.buildRequest('question', question);
    const controller = new AbortController();
    const reply = await this.d.engine.turn(req, controller.signal);
    const parsed = parseProtocol(reply.text);
    this.applyDirections(parsed);
    return parsed.body || 'I have no answer to that right now.';
  }

  private readonly onConnected = (): void => {
    const rec = this.rec;
    const snap = this.d.game.snapshot();
    if (rec.goal && !rec.goal.baseline && snap) {
      const goal = rec.goal;
      this.d.store.state.update(() => {
        goal.baseline = { ...snap.inventory };
      });
    }
    this.wake();
  };

  private readonly onWhisper = (): void => {
    this.wake();
  };

  private readonly onEnded = (reason: string): void => {
    this.selfStop(`the game server ended the session: ${reason}`);
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
        // Stopped or replaced by the owner mid-turn: not a crash.
        this.turnWasAborted = false;
        if (!this.active) return;
        this.schedule(0);
        return;
      }
      if (err instanceof ProviderRefusedError) {
        this.selfStop(err.message);
        return;
      }
      if (!this.active) return;
      const now = this.now().getTime();
      const { count, windowMs } = this.d.crashLoop ?? { count: 3, windowMs: 5 * 60_000 };
      this.crashes = [...this.crashes.filter((t) => now - t < windowMs), now];
      this.d.log.error({ err, avatar: this.d.avatar, crashes: this.crashes.length }, 'turn crashed');
      if (this.crashes.length >= count) {
        this.selfStop(
          `crash loop (${this.crashes.length} crashes in ${Math.round(windowMs / 60_000)} minutes; last: ${(err as Error).message ?? String(err)})`,
        );
        return;
      }
      delay = backoffMs(this.crashes.length, this.backoff, this.d.random);
    }
    if (!this.active) return;
    if (this.wakeRequested) {
      this.wakeRequested = false;
      delay = 0;
    }
    this.schedule(delay);
  }

  /** Runs one engine turn and applies its reply. Returns the delay before the next turn. */
  private async turnInner(): Promise<number> {
    const rec = this.rec;
    this.rotateSessionIfDue();
    let kind: TurnKind = this.nextKind ?? (rec.goal ? 'continue' : 'choose');
    const message = this.nextMessage;
    this.nextKind = undefined;
    this.nextMessage = undefined;
    if (kind === 'continue' && !rec.goal) kind = 'choose';

    const stateForKind = kind === 'wrapup' ? 'wrapup' : rec.goal ? 'working' : 'choosing';
    if (rec.state !== stateForKind) this.d.store.state.update(() => (rec.state = stateForKind));

    const goalBefore = rec.goal;
    const tokenBefore = goalBefore?.runToken ?? null;
    const before = worldFingerprint(this.d.game.snapshot());
    const task = await this.d.task.read();
    const notesBefore = hash(ownPart(task));

    const req = this.buildRequest(kind, message, task);
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
    if (reply.usage) this.recordUsage(reply.usage);

    const parsed = parseProtocol(reply.text);
    // Every few seconds per avatar: debug, so an interactive console is not drowned (LOG_LEVEL=debug shows them).
    this.d.log.debug(
      { avatar: this.d.avatar, kind, status: parsed.status, goal: parsed.goal ?? undefined, reply: parsed.body.slice(0, 200) },
      'turn',
    );
    this.applyDirections(parsed);

    const current = this.rec.goal;
    const stale = (current?.runToken ?? null) !== tokenBefore;
    if (kind === 'wrapup') {
      if (parsed.body) await this.d.task.appendLab(parsed.body, this.now());
      this.d.store.state.update(() => (this.rec.state = this.rec.goal ? 'working' : 'choosing'));
    } else if (!stale) {
      this.applyReply(parsed);
    }
    this.emit('turnEnded', kind);

    // Pacing: a turn that changed nothing (position, inventory/XP, notes, goal) doubles the delay, up to the cap.
    const after = worldFingerprint(this.d.game.snapshot());
    const notesAfter = hash(ownPart(await this.d.task.read()));
    const goalChanged = stale || (this.rec.goal?.runToken ?? null) !== tokenBefore;
    if (before !== after || notesBefore !== notesAfter || goalChanged) {
      this.unchangedStreak = 0;
      return this.d.pacing.baseMs;
    }
    // A wrap-up (or the turn that leads to one) is bookkeeping, not a failed attempt.
    if (kind === 'wrapup' || this.nextKind === 'wrapup') return this.d.pacing.baseMs;
    this.unchangedStreak++;
    return backoffMs(this.unchangedStreak, this.backoff, this.d.random);
  }

  /** Apply STATUS / GOAL / SUBTASK of a (fresh, not stale) reply. */
  private applyReply(p: Protocol): void {
    const rec = this.rec;
    const goal = rec.goal;
    const newGoalText = p.goal && (!goal || normalise(p.goal) !== normalise(goal.text)) ? p.goal : null;

    if (newGoalText) {
      this.switchToGoal(newGoalText);
      this.blockedStreak = 0;
      this.checkFailure = undefined;
      return;
    }
    if (!goal) {
      // Choosing and no goal picked: ask again.
      this.nextKind = 'choose';
      return;
    }
    if (p.status === 'done') {
      const snap = this.d.game.snapshot();
      const check = snap ? this.d.checkGoal(goal.text, goal.baseline, snap) : ({ checkable: false } as const);
      if (check.checkable && !check.met) {
        this.checkFailure = check.says;
        this.nextKind = 'continue';
        this.d.log.info({ avatar: this.d.avatar, goal: goal.text, says: check.says }, 'done claim refused by the check');
        return;
      }
      this.finishGoal(goal, 'done');
      return;
    }
    this.checkFailure = undefined;
    if (p.status === 'blocked') {
      this.blockedStreak++;
      this.blockedReason = (p.body.split('\n').find((l) => l.trim()) ?? '').trim().slice(0, 200);
      if (goal.setBy === 'owner' && this.blockedStreak >= PARK_AFTER_BLOCKED) {
        this.parkOwnerGoal(goal, 'blocked repeatedly');
        this.nextKind = 'wrapup';
        return;
      }
      // One wrap-up per blocked streak, then "take another route, or pick another goal".
      this.nextKind = this.blockedStreak === 1 ? 'wrapup' : 'blocked';
      if (this.blockedStreak === 1) this.pendingAfterWrapup = 'blocked';
      return;
    }
    this.blockedStreak = 0;
    if (p.subtask) {
      this.nextKind = 'wrapup';
    }
  }

  /** After a wrap-up that followed `blocked`, the next prompt is the blocked one. */
  private pendingAfterWrapup: TurnKind | undefined;

  private switchToGoal(text: string): void {
    const rec = this.rec;
    const old = rec.goal;
    const parked = rec.parked.find((g) => normalise(g.text) === normalise(text));
    const snap = this.d.game.snapshot();
    const parkReason = this.blockedStreak > 0 && this.blockedReason ? this.blockedReason : 'I took another goal for now';
    this.d.store.state.update(() => {
      if (old) {
        if (old.setBy === 'owner') this.parkOwnerGoalInPlace(old, parkReason);
        else this.recordGoal(old, this.blockedStreak > 0 ? 'blocked' : 'replaced');
      }
      rec.goal = {
        text,
        setBy: parked ? 'owner' : 'self',
        setById: parked ? parked.setById : null,
        startedAt: this.now().toISOString(),
        baseline: snap ? { ...snap.inventory } : null,
        runToken: randomUUID(),
      };
      if (parked) rec.parked = rec.parked.filter((g) => g !== parked);
      rec.state = 'working';
    });
    if (old?.setBy === 'owner') this.d.post('info', `Parked your goal for later: ${old.text} (${parkReason})`);
    this.d.post('new_goal', parked ? `Back to your goal: ${text}` : `New goal (my choice): ${text}`);
    void this.d.syncTask();
  }

  private finishGoal(goal: Goal, outcome: 'done'): void {
    const rec = this.rec;
    this.d.store.state.update(() => {
      this.recordGoal(goal, outcome);
      rec.goal = null;
      rec.state = 'wrapup';
    });
    this.d.post('done', `Done: ${goal.text}`, goal.setBy === 'owner' ? goal.setById : rec.owner);
    this.nextKind = 'wrapup';
    this.blockedStreak = 0;
    void this.d.syncTask();
  }

  private parkOwnerGoal(goal: Goal, reason: string): void {
    const rec = this.rec;
    this.d.store.state.update(() => {
      this.parkOwnerGoalInPlace(goal, reason);
      rec.goal = null;
      rec.state = 'choosing';
    });
    this.blockedStreak = 0;
    this.d.post('info', `Parked your goal for later: ${goal.text} (${reason})`);
    void this.d.syncTask();
  }

  private parkOwnerGoalInPlace(goal: Goal, reason: string): void {
    const rec = this.rec;
    this.recordGoal(goal, 'parked', reason);
    if (!rec.parked.some((p) => normalise(p.text) === normalise(goal.text))) {
      rec.parked.push({ text: goal.text, setById: goal.setById, parkedAt: this.now().toISOString(), reason });
    }
  }

  private recordGoal(goal: Goal, outcome: GoalRecordEntry['outcome'], note?: string): void {
    const entry: GoalRecordEntry = {
      avatar: this.d.avatar,
      text: goal.text,
      setBy: goal.setBy,
      setById: goal.setById,
      started: goal.startedAt,
      ended: this.now().toISOString(),
      outcome,
      ...(note ? { note } : {}),
    };
    this.d.store.record.update((r) => {
      r.goals.push(entry);
    });
  }

  private recordUsage(usage: { promptTokens: number; completionTokens: number }): void {
    this.d.store.record.update((r) => {
      const u = (r.usage[this.d.avatar] ??= { promptTokens: 0, completionTokens: 0, requests: 0 });
      u.promptTokens += usage.promptTokens;
      u.completionTokens += usage.completionTokens;
      u.requests += 1;
    });
  }

  /** `DIRECTION: done n` retires #n, posts one line, and updates TASK.md. */
  private applyDirections(p: Protocol): void {
    if (p.directionsDone.length === 0) return;
    const rec = this.rec;
    for (const n of p.directionsDone) {
      const done = this.d.store.state.update(() => completeDirection(rec.directions, n, this.now()));
      if (done) this.d.post('direction_done', `Direction #${n} done: ${done.text}`);
    }
    void this.d.syncTask();
  }

  private rotateSessionIfDue(): void {
    const { maxAgeMs, maxSize } = this.d.session ?? { maxAgeMs: DAY_MS, maxSize: 400_000 };
    const s = this.d.engine.session();
    const age = this.now().getTime() - s.startedAt;
    if (age >= maxAgeMs || s.size > maxSize) {
      this.d.engine.resetSession();
      this.d.log.info({ avatar: this.d.avatar, ageMs: age, size: s.size }, 'fresh engine session');
      // The first prompt of the new session says it is fresh (a pending owner direction comes after).
      if (this.nextKind !== 'direction') this.nextKind = 'fresh';
    }
  }

  /** Build the structured request and render its prompt. */
  private buildRequest(kind: TurnKind, message?: string, taskText?: string): TurnRequest {
    const rec = this.rec;
    if (kind === 'wrapup' && this.pendingAfterWrapup) {
      this.nextKind = this.pendingAfterWrapup;
      this.pendingAfterWrapup = undefined;
    }
    const task = taskText ?? '';
    const nudges: string[] = [];
    if (kind === 'blocked') nudges.push(NUDGES.anotherRoute);
    if (this.unchangedStreak > 0 && kind !== 'question') nudges.push(NUDGES.tryDifferent);
    if (task && needsRewrite(task) && kind !== 'question') nudges.push(NUDGES.rewriteTask);
    const recent = this.d.store.record.data.goals
      .filter((g) => g.avatar === this.d.avatar && g.outcome === 'done')
      .slice(-5)
      .map((g) => g.text);
    const base = {
      kind,
      avatar: this.d.avatar,
      goal: rec.goal ? { text: rec.goal.text, setBy: rec.goal.setBy, baseline: rec.goal.baseline } : null,
      directionSummary: summarizeDirections(rec.directions),
      directions: rec.directions.open.map((d) => ({ n: d.n, text: d.text, at: d.at })),
      task: kind === 'resume' || kind === 'fresh' || kind === 'choose' ? ownPartForPrompt(task) : '',
      nudges,
      ...(message !== undefined ? { message } : {}),
      ...(kind === 'choose' ? { recentGoals: recent, parkedGoals: rec.parked.map((p) => p.text) } : {}),
      ...(kind === 'continue' && this.checkFailure ? { checkFailure: this.checkFailure } : {}),
    } satisfies Omit<TurnRequest, 'prompt'>;
    return { ...base, prompt: renderPrompt(base) };
  }
}

function normalise(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, ' ').replace(/[.!]+$/, '');
}

function hash(s: string): string {
  return createHash('sha1').update(s).digest('hex');
}
