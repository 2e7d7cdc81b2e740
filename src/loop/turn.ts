/**
 * One turn of the goal loop (docs/goal-loop.md): which kind
 * is due, its request, the engine call, the report's decision applied (the
 * store, the posts, TASK.md) and the delay before the next turn. It also
 * answers owner questions in their own short turn. What a report leads to is
 * decided by `decide.ts`; when turns happen is `goal-loop.ts`'s job.
 */
import { createHash } from 'node:crypto';
import type { Backoff } from '../backoff.ts';
import { GOAL_MAX, type CompletionCheck, type TurnKind, type TurnReply, type TurnReport } from '../engines/engine.ts';
import type { Logger } from '../logger.ts';
import { worldFingerprint } from '../game/game.ts';
import { cleanLine, cleanText } from '../sanitize.ts';
import { cutOnWord, cutText } from '../text.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar } from '../store/schema.ts';
import { decideStall, decideTurn, freshMemory, paceTurn, sessionDue, type LoopMemory } from './decide.ts';
import type { DonePing, LoopPostKind } from './decide.ts';
import type { GoalLoopDeps } from './loop-deps.ts';
import { dueTurn, sessionRotated, stalled, turnDecided, turnTaken, type LoopStateCell } from './loop-state.ts';
import { buildRequest, LESSON_KINDS, LESSONS_CARRIED } from './request.ts';
import { ownPart } from '../task/task-md.ts';
import { unlessAbandoned } from '../settle.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an aborted turn waits for its engine to stop before it is left behind (a stop never waits longer). */
const ENGINE_STOP_GRACE_MS = 1000;

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** An answer to a question is cut to about this many characters (with `…`). */
export const ANSWER_MAX = 1500;

/**
 * An engine's report as it enters mindlink, whatever the engine: no control character goes on into chat,
 * TASK.md or the lab log, and a new goal is one line of at most {@link GOAL_MAX} characters.
 *
 * @example
 * accepted({ ...report, goal: 'say \u001b[2Jhi\nthere' }).goal // → 'say ␛[2Jhi there'
 */
export function accepted(r: TurnReport): TurnReport {
  const goal = r.goal === null ? null : cutText(cleanLine(r.goal).replace(/\s+/g, ' ').trim(), GOAL_MAX);
  return {
    status: r.status,
    goal: goal || null,
    subtask: r.subtask && { state: r.subtask.state, step: cleanLine(r.subtask.step) },
    directionsDone: r.directionsDone,
    text: cleanText(r.text).trim(),
  };
}

/**
 * What a turn said, for the thought stream: what the engine said between its tool calls (each on one line,
 * control characters made visible), then the first line of its reply.
 *
 * @example
 * turnSays(['Going for the logs.'], accepted(report)) // → 'Going for the logs. … I have them.'
 */
export function turnSays(thoughts: readonly string[], report: TurnReport): string {
  return [...thoughts.map((t) => cleanLine(t).replace(/\s+/g, ' ').trim()), (report.text.split('\n').find((l) => l.trim()) ?? '').trim()].filter((l) => l !== '').join(' … ');
}

/**
 * The completion check of one turn's goal. A `done` claim is judged once: by the last answer the engine was
 * given during its turn when that answer bears the claim out (met, or a goal the game cannot check), else by
 * a check asked now.
 *
 * @example
 * const check = turnCompletion(() => checkGoal(goal.text, goal.baseline, game.snapshot()));
 * const req = buildRequest({ …, completion: check.ask });   // the engine may ask during its turn
 * decideTurn({ …, completion: check.judge }, memory);       // a done claim
 */
export function turnCompletion(ask: () => CompletionCheck): { ask(): CompletionCheck; judge(): CompletionCheck } {
  let last: CompletionCheck | undefined;
  return {
    ask: () => (last = ask()),
    judge: () => (last && (!last.checkable || last.met) ? last : ask()),
  };
}

/** What the turns take from the loop that owns them. */
export interface TurnClock {
  now(): Date;
  /** A number in [0, 1) for the backoff's jitter. */
  jitter(): number;
  /** The base pace and its cap. */
  backoff(): Backoff;
}

/**
 * @example
 * const turns = new Turns(deps, state, log, clock);
 * turns.begin();
 * const delayMs = await turns.run(() => active);   // one turn; throws what the engine threw
 */
export class Turns {
  private memory: LoopMemory = freshMemory();
  /** The run token of the goal whose stall the owner was told about (once per goal). */
  private stallReported: string | undefined;
  private abortController: AbortController | undefined;

  constructor(
    private readonly deps: GoalLoopDeps,
    /** The loop's state: which turn is due; each turn moves it (`loop-state.ts`). */
    private readonly state: LoopStateCell,
    private readonly log: Logger,
    private readonly clock: TurnClock,
  ) {}

  /** The avatar's goals: its record, the moves on it (`goal-port.ts`). */
  private get goals(): GoalLoopDeps['goals'] {
    return this.deps.goals;
  }

  /** Tell the avatar's chats one line (an event the poster subscribes to). */
  private say(kind: LoopPostKind, text: string, ping: DonePing | null = null): void {
    this.deps.news.post(this.deps.avatar, kind, text, ping);
  }

  /** Playing again: no streak is carried over. */
  begin(): void {
    this.memory = { ...this.memory, unchangedStreak: 0, blockedStreak: 0 };
  }

  /** The owner spoke: the next turn is not held back by the turns that changed nothing. */
  ownerSpoke(): void {
    this.memory = { ...this.memory, unchangedStreak: 0 };
  }

  /** The owner set a goal: what the loop learnt of the old one (a refused claim, blocked replies) goes. */
  ownerGoal(): void {
    this.memory = { ...this.memory, checkFailure: undefined, blockedStreak: 0 };
  }

  /** Abort the engine call of the running turn, if any. */
  abort(reason: Error): void {
    this.abortController?.abort(reason);
  }

  /** The stored avatar record, read-only. */
  private get rec(): DeepReadonly<Avatar> {
    return this.goals.record();
  }

  /**
   * Answer an owner question in its own short turn. The goal is untouched; the automatic turns go on.
   * Returns the answer text (protocol lines removed); throws what the engine threw.
   */
  async ask(question: string): Promise<string> {
    // A question's prompt carries no notes: TASK.md is not read for it.
    const req = buildRequest({ ...this.requestFacts('question', '', this.completionNow()), message: question });
    const reply = await this.deps.engine.turn(req, new AbortController().signal);
    this.count(reply);
    const report = accepted(reply.report);
    this.applyDirections(report);
    // An answer is a sentence or two, whatever the engine wrote.
    return report.text ? cutOnWord(report.text, ANSWER_MAX) : 'I have no answer to that right now.';
  }

  /**
   * Run one engine turn and apply its decision. Returns the delay before the next turn;
   * `active()` false once the reply is in (the loop stopped meanwhile) drops the reply.
   */
  async run(active: () => boolean): Promise<number> {
    const rec = this.rec;
    this.rotateSessionIfDue();
    const hasGoal = rec.goal !== null;
    const due = this.state.value;
    const kind = dueTurn(due, hasGoal);
    // Only a direction turn carries the owner's message; one due later waits for its turn.
    const message = kind === 'direction' ? due.message : undefined;
    this.state.move(turnTaken, kind, hasGoal);

    const tokenBefore = rec.goal?.runToken ?? null;
    const completion = turnCompletion(this.completionNow());
    // The turn can be aborted from its first moment: a stop that comes while TASK.md is read ends it too.
    const controller = new AbortController();
    this.abortController = controller;
    let reply;
    let before: string;
    try {
      const task = await this.deps.task.read();
      before = this.progressMark(task);
      const lessons = LESSON_KINDS.has(kind) ? await this.lessons() : [];
      if (controller.signal.aborted) throw abortReason(controller.signal);
      const req = buildRequest({ ...this.requestFacts(kind, task, completion.ask), lessons, ...(message !== undefined ? { message } : {}) });
      reply = await unlessAbandoned(this.deps.engine.turn(req, controller.signal), controller.signal, ENGINE_STOP_GRACE_MS, (late) => {
        this.log.warn({ kind, graceMs: ENGINE_STOP_GRACE_MS }, 'the engine did not stop its turn in time; its reply will be ignored');
        late.catch((err: unknown) => this.log.debug({ err }, 'the abandoned turn failed'));
      });
    } finally {
      this.abortController = undefined;
    }
    if (!active()) return this.clock.backoff().minMs;
    this.count(reply);

    // An engine's words enter mindlink here.
    const report = accepted(reply.report);
    // Every few seconds per avatar: debug, so an interactive console is not drowned (LOG_LEVEL=debug shows them).
    this.log.debug({ kind, status: report.status, goal: report.goal ?? undefined, reply: report.text.slice(0, 200) }, 'turn');
    this.applyDirections(report);
    if (kind === 'wrapup' && report.text) await this.deps.task.appendLab(report.text, this.clock.now());
    // From the stale check to the store update nothing awaits: an owner goal cannot slip in between.
    const current = this.rec;
    const stale = (current.goal?.runToken ?? null) !== tokenBefore;
    // Not stale: the goal is the one the engine was asked about and the turn's check is for.
    const facts = { kind, goal: current.goal, stale, reply: report, completion: completion.judge, next: this.state.value.next, parked: current.parked };
    const decision = decideTurn(facts, this.memory);
    this.memory = decision.memory;
    if (decision.refused) this.log.info({ goal: current.goal?.text, says: decision.refused }, 'done claim refused by the check');
    this.goals.apply(decision.change, this.deps.game.snapshot());
    this.state.move(turnDecided, decision);
    for (const p of decision.posts) this.say(p.kind, p.text, p.ping);
    if (decision.change.kind !== 'keep') void this.deps.syncTask();
    this.deps.news.emit('turnEnded', this.deps.avatar, {
      kind,
      status: report.status,
      actions: reply.actions ?? [],
      says: turnSays(reply.thoughts ?? [], report),
      ...(reply.playedBy ? { playedBy: reply.playedBy } : {}),
    });

    const worldChanged = before !== this.progressMark(await this.deps.task.read());
    const goalChanged = (this.rec.goal?.runToken ?? null) !== tokenBefore;
    const paced = paceTurn({ kind, next: this.state.value.next, worldChanged, goalChanged, pacing: this.clock.backoff(), jitter: this.clock.jitter() }, this.memory);
    this.memory = paced.memory;
    this.reportStall();
    return paced.delayMs;
  }

  /** The last lessons of the lab log; none when it cannot be read (the turn goes on without them). */
  private async lessons(): Promise<string[]> {
    try {
      return await this.deps.task.lessons(LESSONS_CARRIED);
    } catch (err) {
      this.log.warn({ err }, 'the lab log could not be read; the prompt goes without its lessons');
      return [];
    }
  }

  /** A reply's tokens and who played it, counted; its line for the chats (a model that refused), posted. */
  private count(reply: TurnReply): void {
    if (reply.usage) this.goals.recordUsage(reply.usage);
    if (reply.playedBy) this.goals.recordTurn(reply.playedBy);
    const notice = reply.notice ? cleanLine(reply.notice).trim() : '';
    if (notice) this.say('info', cutText(notice, GOAL_MAX * 2));
  }

  /** Many turns in a row changed nothing: the next prompt is the blocked one, and the owner hears it once per goal. */
  private reportStall(): void {
    const goal = this.rec.goal;
    const stall = decideStall({ next: this.state.value.next, goal, unchangedStreak: this.memory.unchangedStreak, reported: this.stallReported });
    if (stall.next === 'blocked' && this.state.value.next !== 'blocked') this.state.move(stalled);
    if (!stall.post || !goal) return;
    this.stallReported = goal.runToken;
    this.log.info({ goal: goal.text, turns: this.memory.unchangedStreak }, 'no progress: the next prompt is the blocked one');
    this.say('info', stall.post);
  }

  private requestFacts(kind: TurnKind, task: string, completion: () => CompletionCheck): Parameters<typeof buildRequest>[0] {
    return {
      kind,
      avatar: this.rec,
      task,
      history: this.goals.history(),
      unchangedStreak: this.memory.unchangedStreak,
      checkFailure: this.memory.checkFailure,
      completion,
    };
  }

  /** The completion check of the goal now (its text and baseline as they are): asked against the game each time it is called. */
  private completionNow(): () => CompletionCheck {
    const goal = this.rec.goal;
    return () => {
      const snap = this.deps.game.snapshot();
      return goal && snap ? this.deps.checkGoal(goal.text, goal.baseline, snap) : { checkable: false };
    };
  }

  /** A report's retired directions (`DIRECTION: done n`): each posts one line, and TASK.md is updated. */
  private applyDirections(r: TurnReport): void {
    if (r.directionsDone.length === 0) return;
    for (const done of this.goals.retireDirections(r.directionsDone)) this.say('direction_done', `Direction #${done.n} done: ${done.text}`);
    void this.deps.syncTask();
  }

  /** A day-old or oversized engine conversation is rotated between turns; the next prompt says it is fresh. */
  private rotateSessionIfDue(): void {
    const s = this.deps.engine.session();
    const now = this.clock.now().getTime();
    if (!sessionDue(s, now, this.deps.session ?? { maxAgeMs: DAY_MS, maxSize: 400_000 })) return;
    this.deps.engine.resetSession();
    this.log.info({ ageMs: now - s.startedAt, size: s.size }, 'fresh engine session');
    this.state.move(sessionRotated);
  }

  /** What a turn can change, to tell a turn that changed nothing: world (position, inventory/XP) and the own notes. */
  private progressMark(task: string): string {
    return `${worldFingerprint(this.deps.game.snapshot())}|${createHash('sha1').update(ownPart(task)).digest('hex')}`;
  }
}
