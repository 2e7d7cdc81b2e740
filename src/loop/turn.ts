/**
 * One turn of the goal loop (README "The goal loop"): which kind
 * is due, its request, the engine call, the reply's decision applied (the
 * store, the posts, TASK.md) and the delay before the next turn. It also
 * answers owner questions in their own short turn. What a reply leads to is
 * decided by `decide.ts`; when turns happen is `goal-loop.ts`'s job.
 */
import { createHash } from 'node:crypto';
import type { Backoff } from '../backoff.ts';
import type { TurnKind } from '../engines/engine.ts';
import type { Logger } from '../logger.ts';
import { worldFingerprint } from '../game/game.ts';
import { cleanText } from '../sanitize.ts';
import { cutOnWord } from '../text.ts';
import type { Avatar } from '../store/store.ts';
import { decideStall, decideTurn, freshMemory, paceTurn, pickTurn, sessionDue, type CompletionCheck, type LoopMemory } from './decide.ts';
import type { GoalStore } from './goal-store.ts';
import type { GoalLoopDeps, TurnSummary } from './loop-deps.ts';
import { parseProtocol, type Protocol } from './protocol.ts';
import { buildRequest } from './request.ts';
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
 * const turns = new Turns(deps, goals, log, clock, (kind, summary) => loop.emit('turnEnded', kind, summary));
 * turns.begin(rec.goal !== null);
 * const delayMs = await turns.run();   // one turn; throws what the engine threw
 */
export class Turns {
  /** The kind of the next turn when it is not plain choose/continue. */
  private nextKind: TurnKind | undefined;
  /** The owner's direction the next `direction` turn carries. */
  private nextMessage: string | undefined;
  private memory: LoopMemory = freshMemory();
  /** The run token of the goal whose stall the owner was told about (once per goal). */
  private stallReported: string | undefined;
  private abortController: AbortController | undefined;
  private lastAborted = false;

  constructor(
    private readonly d: GoalLoopDeps,
    private readonly goals: GoalStore,
    private readonly log: Logger,
    private readonly clock: TurnClock,
    private readonly ended: (kind: TurnKind, summary: TurnSummary) => void,
  ) {}

  /** Playing again: the first turn resumes the saved goal, or chooses one; no streak is carried over. */
  begin(hasGoal: boolean): void {
    this.nextKind = hasGoal ? 'resume' : 'choose';
    this.memory = { ...this.memory, unchangedStreak: 0, blockedStreak: 0 };
  }

  /** The owner spoke: the next turn is not held back by the turns that changed nothing. */
  ownerSpoke(): void {
    this.memory = { ...this.memory, unchangedStreak: 0 };
  }

  /** The owner set a goal: the running turn's reply is stale (aborted), the next one continues the new goal. */
  ownerGoal(): void {
    this.memory = { ...this.memory, checkFailure: undefined, blockedStreak: 0 };
    this.nextKind = 'continue';
    this.abort(new Error('new owner goal'));
  }

  /** The owner gave a direction: the next turn carries it. */
  direction(text: string): void {
    this.nextKind = 'direction';
    this.nextMessage = text;
  }

  /** Abort the running turn, if any. */
  abort(reason: Error): void {
    this.abortController?.abort(reason);
  }

  /** Whether the turn that just threw had been aborted (by a stop or an owner goal); asking clears it. */
  takeAborted(): boolean {
    const was = this.lastAborted;
    this.lastAborted = false;
    return was;
  }

  /** The stored avatar record (live object inside the store). */
  private get rec(): Avatar {
    return this.goals.record();
  }

  /**
   * Answer an owner question in its own short turn. The goal is untouched; the automatic turns go on.
   * Returns the answer text (protocol lines removed); throws what the engine threw.
   */
  async ask(question: string): Promise<string> {
    // A question's prompt carries no notes: TASK.md is not read for it.
    const req = buildRequest({ ...this.requestFacts('question', ''), message: question });
    const reply = await this.d.engine.turn(req, new AbortController().signal);
    if (reply.usage) this.goals.recordUsage(this.rec, reply.usage);
    const parsed = parseProtocol(cleanText(reply.text));
    this.applyDirections(parsed);
    // An answer is a sentence or two, whatever the engine wrote.
    return parsed.body ? cutOnWord(parsed.body, ANSWER_MAX) : 'I have no answer to that right now.';
  }

  /**
   * Run one engine turn and apply its decision. Returns the delay before the next turn;
   * `active()` false once the reply is in (the loop stopped meanwhile) drops the reply.
   */
  async run(active: () => boolean): Promise<number> {
    const rec = this.rec;
    this.rotateSessionIfDue();
    const picked = pickTurn(this.nextKind, rec.goal !== null, this.memory);
    const kind = picked.kind;
    // Only a direction turn carries the owner's message; one due later waits for its turn.
    const message = kind === 'direction' ? this.nextMessage : undefined;
    if (kind === 'direction') this.nextMessage = undefined;
    this.nextKind = picked.next;
    this.memory = picked.memory;

    const stateForKind = kind === 'wrapup' ? 'wrapup' : rec.goal ? 'working' : 'choosing';
    if (rec.state !== stateForKind) this.d.store.state.update(() => (rec.state = stateForKind));

    const tokenBefore = rec.goal?.runToken ?? null;
    // The turn can be aborted from its first moment: a stop that comes while TASK.md is read ends it too.
    const controller = new AbortController();
    this.abortController = controller;
    this.lastAborted = false;
    let reply;
    let before: string;
    try {
      const task = await this.d.task.read();
      before = this.progressMark(task);
      if (controller.signal.aborted) throw abortReason(controller.signal);
      const req = buildRequest({ ...this.requestFacts(kind, task), ...(message !== undefined ? { message } : {}) });
      reply = await unlessAbandoned(this.d.engine.turn(req, controller.signal), controller.signal, ENGINE_STOP_GRACE_MS, (late) => {
        this.log.warn({ kind, graceMs: ENGINE_STOP_GRACE_MS }, 'the engine did not stop its turn in time; its reply will be ignored');
        late.catch((err: unknown) => this.log.debug({ err }, 'the abandoned turn failed'));
      });
    } finally {
      this.lastAborted = controller.signal.aborted;
      this.abortController = undefined;
    }
    this.lastAborted = false;
    if (!active()) return this.clock.backoff().minMs;
    if (reply.usage) this.goals.recordUsage(this.rec, reply.usage);

    // An engine's words enter mindlink here: no control character goes on into chat, TASK.md or the lab log.
    const parsed = parseProtocol(cleanText(reply.text));
    // Every few seconds per avatar: debug, so an interactive console is not drowned (LOG_LEVEL=debug shows them).
    this.log.debug({ kind, status: parsed.status, goal: parsed.goal ?? undefined, reply: parsed.body.slice(0, 200) }, 'turn');
    this.applyDirections(parsed);
    if (kind === 'wrapup' && parsed.body) await this.d.task.appendLab(parsed.body, this.clock.now());
    // From the stale check to the store update nothing awaits: an owner goal cannot slip in between.
    const current = this.rec;
    const stale = (current.goal?.runToken ?? null) !== tokenBefore;
    const completion = (goal: { text: string; baseline: Record<string, number> | null }): CompletionCheck => {
      const snap = this.d.game.snapshot();
      return snap ? this.d.checkGoal(goal.text, goal.baseline, snap) : { checkable: false };
    };
    const facts = { kind, goal: current.goal, stale, reply: parsed, completion, next: this.nextKind, parked: current.parked };
    const decision = decideTurn(facts, this.memory);
    this.memory = decision.memory;
    this.nextKind = decision.next;
    if (decision.refused) this.log.info({ goal: current.goal?.text, says: decision.refused }, 'done claim refused by the check');
    this.goals.apply(current, decision.change, decision.state, this.d.game.snapshot());
    for (const p of decision.posts) this.d.post(p.kind, p.text, p.ping);
    if (decision.change.kind !== 'keep') void this.d.syncTask();
    this.ended(kind, {
      kind,
      status: parsed.status,
      actions: reply.actions ?? [],
      says: (parsed.body.split('\n').find((l) => l.trim()) ?? '').trim(),
    });

    const worldChanged = before !== this.progressMark(await this.d.task.read());
    const goalChanged = (this.rec.goal?.runToken ?? null) !== tokenBefore;
    const paced = paceTurn({ kind, next: this.nextKind, worldChanged, goalChanged, pacing: this.clock.backoff(), jitter: this.clock.jitter() }, this.memory);
    this.memory = paced.memory;
    this.reportStall();
    return paced.delayMs;
  }

  /** Many turns in a row changed nothing: the next prompt is the blocked one, and the owner hears it once per goal. */
  private reportStall(): void {
    const goal = this.rec.goal;
    const stall = decideStall({ next: this.nextKind, goal, unchangedStreak: this.memory.unchangedStreak, reported: this.stallReported });
    this.nextKind = stall.next;
    if (!stall.post || !goal) return;
    this.stallReported = goal.runToken;
    this.log.info({ goal: goal.text, turns: this.memory.unchangedStreak }, 'no progress: the next prompt is the blocked one');
    this.d.post('info', stall.post);
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

  /** `DIRECTION: done n` retires #n, posts one line, and updates TASK.md. */
  private applyDirections(p: Protocol): void {
    if (p.directionsDone.length === 0) return;
    for (const post of this.goals.retireDirections(this.rec, p.directionsDone)) this.d.post(post.kind, post.text);
    void this.d.syncTask();
  }

  /** A day-old or oversized engine conversation is rotated between turns; the next prompt says it is fresh. */
  private rotateSessionIfDue(): void {
    const s = this.d.engine.session();
    const now = this.clock.now().getTime();
    if (!sessionDue(s, now, this.d.session ?? { maxAgeMs: DAY_MS, maxSize: 400_000 })) return;
    this.d.engine.resetSession();
    this.log.info({ ageMs: now - s.startedAt, size: s.size }, 'fresh engine session');
    // A pending owner direction comes first; its turn is fresh all the same.
    if (this.nextKind !== 'direction') this.nextKind = 'fresh';
  }

  /** What a turn can change, to tell a turn that changed nothing: world (position, inventory/XP) and the own notes. */
  private progressMark(task: string): string {
    return `${worldFingerprint(this.d.game.snapshot())}|${createHash('sha1').update(ownPart(task)).digest('hex')}`;
  }
}
