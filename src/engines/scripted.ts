/**
 * The `scripted` engine: the default mind, no API key needed.
 *
 * It reads goals in the goal language (`src/goals/goal-language.ts`), runs the
 * matching skill through the skill registry, and reports with the protocol.
 * It says `done` only when the checked completion (`src/goals/check.ts`) says
 * the goal is met (for goals that can be checked), `blocked` with a reason
 * for what it cannot do, and chooses self goals from the survival curriculum.
 */
import { emptySnapshot, inventoryKey, type GameCapabilities, type Snapshot } from '../game/game.ts';
import type { Engine, EngineContext, GoalView, SessionInfo, TurnReply, TurnRequest } from './engine.ts';
import type { SkillResult } from '../game/skill.ts';
import { checkGoal } from '../goals/check.ts';
import { goalKey, parseGoal, type GoalIntent } from '../goals/goal-language.ts';
import { countItems } from '../game/items.ts';
import { oneLine } from '../text.ts';
import { keyed, type Keyed } from '../keyed.ts';
import { answerQuestion } from './answers.ts';
import { planCraft, planGather } from './craft-plan.ts';
import { nextSelfGoal } from './curriculum.ts';

type Status = 'working' | 'done' | 'blocked';

/** Failures that trying again the same way will not fix. */
const HARD_CODES = new Set(['unsupported_by_server', 'missing_tool', 'missing_material', 'bad_params', 'unknown_skill']);
/** Failures of the moment: keep working. */
const TRANSIENT_CODES = new Set(['not_connected', 'aborted', 'preempted']);
/** How long a goal this engine reported blocked is passed over when choosing. */
const BLOCK_MEMORY_MS = 10 * 60_000;
/** The most a collect or craft run asks for at once (the skills' own limit); bigger goals take several turns. */
const MAX_PER_RUN = 256;
/** How many times in a row a soft failure (no_target, unreachable…) may repeat before the goal is blocked. */
const SOFT_LIMIT = 2;
/** How many skill runs in a row may "succeed" without the check moving before the goal is blocked. */
const STALL_LIMIT = 3;

/** What the engine remembers about the goal it is working on (for retries and the wrap-up lesson). */
interface GoalTrack {
  text: string;
  startedAt: number;
  runs: Keyed<number>;
  lastFailure: SkillResult | null;
  streak: { code: string; count: number };
  rerouted: boolean;
  /** Successful runs in a row after which the check said the same as before. */
  stalled: number;
  outcome: Status;
  blockedWhy: string | null;
}

/** One reply with the reporting protocol lines at the end. */
function protocol(text: string, status: Status, extra: { goal?: string; directionDone?: number } = {}): string {
  const lines = [text.trim(), `STATUS: ${status}`];
  if (extra.goal) lines.push(`GOAL: ${oneLine(extra.goal)}`);
  if (extra.directionDone !== undefined) lines.push(`DIRECTION: done ${extra.directionDone}`);
  return lines.join('\n');
}

/** A direction or message as a goal line: one line, wrapping punctuation removed. */
function asGoalText(s: string): string {
  return oneLine(s).replace(/^(?:(?:your\s+)?new\s+goal(?:\s+is)?|your\s+goal\s+is|goal)\s*:\s*/i, '').replace(/[.!]+$/, '');
}

/** "Collect 10 sand" → "collect 10 sand", for use inside a sentence. */
function inSentence(goal: string): string {
  return goal.charAt(0).toLowerCase() + goal.slice(1);
}

function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  return `${Math.round(s / 60)} min`;
}

/** Can this server do the goal at all? Returns the reason it cannot, or null. */
function serverCannot(intent: GoalIntent, caps: GameCapabilities): string | null {
  if (intent.kind === 'craft' && !caps.crafting) return 'this server has no crafting';
  return null;
}

/** A follow / come-to goal naming the avatar itself: the reason it cannot be done, or null. */
function selfTarget(intent: GoalIntent, avatar: string): string | null {
  if (intent.kind !== 'follow' && intent.kind !== 'come_to') return null;
  if (intent.player.toLowerCase() !== avatar.toLowerCase()) return null;
  return `I can't ${intent.kind === 'follow' ? 'follow' : 'come to'} myself (${avatar} is me): name another player`;
}

/** The skill and params that work toward a goal now. */
function planSkill(intent: GoalIntent, goal: GoalView, snap: Snapshot, caps: GameCapabilities): { id: string; params: Record<string, unknown> } | null {
  switch (intent.kind) {
    case 'collect': {
      const held = countItems(snap.inventory, intent.item);
      const base = countItems(goal.baseline ?? {}, intent.item);
      const left = intent.mode === 'more' ? intent.count - Math.max(0, held - base) : intent.count - held;
      const count = Math.min(MAX_PER_RUN, Math.max(1, left));
      // Where the server crafts, a missing tool (a pickaxe for stone) is made first.
      return caps.crafting ? planGather(intent.item, count, snap) : { id: 'collect', params: { item: intent.item, count } };
    }
    case 'craft': {
      const held = countItems(snap.inventory, intent.item);
      const base = countItems(goal.baseline ?? {}, intent.item);
      const left = Math.max(1, intent.count - Math.max(0, held - base));
      // The whole chain from what is held: gather what is missing, craft the parts and a table, then the item.
      return planCraft(intent.item, held + Math.min(MAX_PER_RUN, left), snap);
    }
    case 'go_to':
      return { id: 'go_to', params: { x: intent.x, y: intent.y, z: intent.z, range: 1 } };
    case 'follow':
      return { id: 'follow', params: { player: intent.player } };
    case 'come_to':
      return { id: 'come_to', params: { player: intent.player } };
    case 'say':
      return { id: 'say', params: { text: intent.text } };
    case 'explore':
      return { id: 'explore', params: {} };
    case 'eat':
      return { id: 'eat', params: {} };
    case 'unknown':
      return null;
  }
}

/** Turn a direction into a first-person acknowledgement. */
function acknowledge(message: string): string {
  const m = oneLine(message).replace(/[.!]+$/, '');
  const short = m.length > 160 ? `${m.slice(0, 157)}…` : m;
  const body = short.replace(/^(?:please|pls|ok|okay)\s*,?\s+/i, '').replace(/^(?:you\s+(?:should|must|need\s+to|have\s+to)|i\s+want\s+you\s+to)\s+/i, '');
  const lower = body.charAt(0).toLowerCase() + body.slice(1);
  if (/^(?:don'?t|do\s+not)\s+/i.test(body)) return `Understood: I won't ${lower.replace(/^(?:don'?t|do\s+not)\s+/i, '')}.`;
  if (/^(?:never|always)\s+/i.test(body)) return `Understood: I'll ${lower}.`;
  if (/^(?:stay|keep|avoid|be|try|use|stop|go|come|look|build|help|find|bring|protect|guard|wait|sleep|return|head|focus|prefer|leave|remember|watch|check|save|store|put|give|take|fight|kill|defend)\b/i.test(body)) {
    return `Understood: I'll ${lower}.`;
  }
  return `Understood, noted: ${short}.`;
}

/**
 * Create the scripted engine for one avatar.
 *
 * @example
 * const engine = createScriptedEngine({ avatar: 'demo', game, log, skills: createSkillRegistry(game) });
 * const reply = await engine.turn(request, signal); // "… STATUS: working"
 */
export function createScriptedEngine(ctx: EngineContext): Engine {
  let startedAt = Date.now();
  let size = 0;
  let track: GoalTrack | null = null;

  const trackFor = (text: string): GoalTrack => {
    if (!track || track.text !== text) {
      track = { text, startedAt: Date.now(), runs: keyed(), lastFailure: null, streak: { code: '', count: 0 }, rerouted: false, stalled: 0, outcome: 'working', blockedWhy: null };
    }
    return track;
  };

  const snapshotOrEmpty = (): Snapshot => ctx.game.snapshot() ?? emptySnapshot();
  /** The skill runs of the turn in progress (one turn at a time per avatar). */
  let actions: NonNullable<TurnReply['actions']> = [];

  /** The open direction this goal came from, if any (retired when the goal is done). */
  const directionFor = (req: TurnRequest, goalText: string): number | undefined => {
    const key = goalKey(goalText);
    if (key.startsWith('text:')) return undefined;
    return req.directions.find((d) => parseGoal(d.text).kind !== 'unknown' && goalKey(d.text) === key)?.n;
  };

  /** Goal keys this engine reported blocked lately → when; not chosen again for a while. */
  const blockedAt = new Map<string, number>();
  const markBlocked = (goalText: string): void => {
    blockedAt.set(goalKey(goalText), Date.now());
  };
  const blockedLately = (goalText: string): boolean => {
    const at = blockedAt.get(goalKey(goalText));
    return at !== undefined && Date.now() - at < BLOCK_MEMORY_MS;
  };

  const choose = (req: TurnRequest, exclude: string[] = []): { goal: string; why: string } => {
    const snap = snapshotOrEmpty();
    const caps = ctx.game.capabilities;
    const recent = [...(req.recentGoals ?? []), ...exclude];
    const recentKeys = new Set(recent.slice(-5).map(goalKey));
    const excluded = new Set(exclude.map(goalKey));
    for (const d of [...req.directions].reverse()) {
      const intent = parseGoal(d.text);
      if (intent.kind === 'unknown' || serverCannot(intent, caps)) continue;
      const text = asGoalText(d.text);
      if (recentKeys.has(goalKey(text)) || blockedLately(text)) continue;
      return { goal: text, why: `your direction #${d.n}` };
    }
    const parked = (req.parkedGoals ?? []).filter((g) => !excluded.has(goalKey(g)) && !blockedLately(g));
    let goal = nextSelfGoal(snap, caps, recent, parked);
    // A goal blocked a moment ago counts as just done: ask again without it (a few times at most).
    for (let i = 0; i < 5 && blockedLately(goal); i += 1) {
      recent.push(goal);
      goal = nextSelfGoal(snap, caps, recent, parked);
    }
    const why = parked.some((g) => g === goal) ? 'a goal you set earlier' : 'the next step of my survival plan';
    return { goal, why };
  };

  const switchGoal = (req: TurnRequest, goalText: string, reason: string): string => {
    markBlocked(goalText);
    const next = choose(req, [goalText]);
    const t = trackFor(goalText);
    t.outcome = 'blocked';
    t.blockedWhy = t.blockedWhy ?? reason;
    return protocol(`That route is closed (${reason}), so I'll ${inSentence(next.goal)} instead (${next.why}).`, 'working', { goal: next.goal });
  };

  const blocked = (t: GoalTrack, reason: string): string => {
    t.outcome = 'blocked';
    t.blockedWhy = reason;
    markBlocked(t.text);
    return protocol(`I'm blocked: ${reason}.`, 'blocked');
  };

  const run = async (id: string, params: Record<string, unknown>, t: GoalTrack, signal: AbortSignal): Promise<SkillResult> => {
    if (!ctx.skills.get(id)) return { ok: false, code: 'unknown_skill', detail: `I don't have a ${id} skill yet` };
    t.runs[id] = (t.runs[id] ?? 0) + 1;
    const result = await ctx.skills.run(id, params, signal);
    actions.push({ skill: id, ok: result.ok, code: result.code });
    ctx.log.debug({ skill: id, code: result.code, ok: result.ok }, result.detail);
    return result;
  };

  const work = async (req: TurnRequest, goal: GoalView, signal: AbortSignal): Promise<string> => {
    const intent = parseGoal(goal.text);
    const t = trackFor(goal.text);
    if (intent.kind === 'unknown') {
      if (req.kind === 'blocked') return switchGoal(req, goal.text, intent.reason);
      return blocked(t, intent.reason);
    }
    const caps = ctx.game.capabilities;
    const cannot = serverCannot(intent, caps) ?? selfTarget(intent, ctx.avatar);
    if (cannot) {
      if (req.kind === 'blocked') return switchGoal(req, goal.text, cannot);
      return blocked(t, cannot);
    }
    const snap = ctx.game.snapshot();
    if (!snap || ctx.game.state !== 'connected') return protocol("I'm not in the game right now; I'll carry on once I'm back.", 'working');

    const before = checkGoal(goal.text, goal.baseline, snap);
    if (before.checkable && before.met) return done(req, goal, t, `${before.says}`);

    let prefix = '';
    let planFrom = snap;
    if (req.kind === 'blocked') {
      const hard = t.lastFailure && HARD_CODES.has(t.lastFailure.code);
      if (hard || t.rerouted) return switchGoal(req, goal.text, t.blockedWhy ?? t.lastFailure?.detail ?? 'no way forward');
      t.rerouted = true;
      t.streak = { code: '', count: 0 };
      if (intent.kind !== 'explore' && ctx.skills.get('explore')) {
        const ex = await run('explore', {}, t, signal);
        if (signal.aborted) return protocol('Stopped.', 'working');
        prefix = ex.ok ? 'I explored somewhere new and tried again. ' : `I tried to explore first (${ex.detail}). `;
        planFrom = ctx.game.snapshot() ?? snap;
      }
    }

    // A snapshot costs a scan of nearby blocks: one before the skill, one after.
    const plan = planSkill(intent, goal, planFrom, caps);
    if (!plan) return blocked(t, 'I do not know how to do that');
    const result = await run(plan.id, plan.params, t, signal);
    if (signal.aborted) return protocol('Stopped.', 'working');
    const after = ctx.game.snapshot() ?? snap;
    const check = checkGoal(goal.text, goal.baseline, after);

    if (check.checkable && check.met) return done(req, goal, t, `${prefix}${check.says}`);
    if (result.ok) {
      t.lastFailure = null;
      t.streak = { code: '', count: 0 };
      if (!check.checkable) return done(req, goal, t, `${prefix}${result.detail}`);
      // A skill that "succeeds" while the goal does not move would otherwise be run for ever. A step of a plan
      // (logs gathered, planks crafted for a pickaxe) moves the inventory, not yet the goal: that is progress.
      const moved = inventoryKey(after.inventory) !== inventoryKey(planFrom.inventory);
      t.stalled = before.checkable && before.says === check.says && !moved ? t.stalled + 1 : 0;
      if (t.stalled >= STALL_LIMIT) return blocked(t, `${result.detail}, but the check still says ${check.says} after ${t.stalled} tries`);
      return protocol(`${prefix}${result.detail}; the check says ${check.says}. I'll keep going.`, 'working');
    }

    t.lastFailure = result;
    const progress = check.checkable ? ` (${check.says})` : '';
    if (TRANSIENT_CODES.has(result.code)) return protocol(`${prefix}${result.detail}${progress}; I'll keep at it.`, 'working');
    if (HARD_CODES.has(result.code)) return blocked(t, `${result.detail} (${result.code})`);
    t.streak = t.streak.code === result.code ? { code: result.code, count: t.streak.count + 1 } : { code: result.code, count: 1 };
    if (t.streak.count >= SOFT_LIMIT) return blocked(t, `${result.detail} (${result.code}, ${t.streak.count} times in a row)`);
    if (result.code === 'no_target' && intent.kind !== 'explore' && ctx.skills.get('explore')) {
      const ex = await run('explore', {}, t, signal);
      if (signal.aborted) return protocol('Stopped.', 'working');
      return protocol(`${prefix}${result.detail}${progress}; I explored to look further and will try again.${ex.ok ? '' : ` (Exploring: ${ex.detail}.)`}`, 'working');
    }
    return protocol(`${prefix}${result.detail}${progress}; I'll try again.`, 'working');
  };

  const done = (req: TurnRequest, goal: GoalView, t: GoalTrack, says: string): string => {
    t.outcome = 'done';
    const n = directionFor(req, goal.text);
    return protocol(`Done: ${says}.`, 'done', n === undefined ? {} : { directionDone: n });
  };

  const wrapup = (req: TurnRequest): string => {
    const goalText = req.goal?.text ?? track?.text;
    const t = track;
    if (!goalText) return protocol('Lesson: nothing to note yet.', 'working');
    if (!t || t.text !== goalText) return protocol(`Lesson: "${goalText}" ended without my working on it; nothing new learned.`, 'working');
    const runs = Object.entries(t.runs)
      .map(([id, n]) => `${n} ${id} run${n === 1 ? '' : 's'}`)
      .join(', ');
    const how = runs === '' ? 'no skill runs' : runs;
    const took = seconds(Date.now() - t.startedAt);
    if (t.outcome === 'done') return protocol(`Lesson: "${goalText}" done in ${took} with ${how}; that works here.`, 'working');
    const why = t.blockedWhy ?? t.lastFailure?.detail ?? 'no progress';
    const avoid = why.includes('crafting') || t.lastFailure?.code === 'unsupported_by_server' ? ' Pick goals that need no crafting on this server.' : '';
    return protocol(`Lesson: "${goalText}" blocked after ${took} and ${how}: ${why}.${avoid}`, 'working');
  };

  const direction = (req: TurnRequest): string => {
    const message = req.message ?? req.directions[req.directions.length - 1]?.text ?? '';
    const intent = parseGoal(message);
    const known = intent.kind !== 'unknown' && !/^(?:don'?t|do not|never|always)\b/i.test(message.trim());
    if (known) {
      const cannot = serverCannot(intent, ctx.game.capabilities);
      if (cannot) return protocol(`Understood, but ${cannot}, so I'll keep it in mind for later.`, 'working');
      const goal = asGoalText(message);
      return protocol(`Understood: I'll ${inSentence(goal)} now.`, 'working', { goal });
    }
    return protocol(acknowledge(message), 'working');
  };

  const take = async (req: TurnRequest, signal: AbortSignal): Promise<string> => {
    if (signal.aborted) return protocol('Stopped.', 'working');
    switch (req.kind) {
      case 'question':
        return protocol(answerQuestion(req.message ?? '', ctx.game.snapshot(), req.goal), 'working');
      case 'direction':
        return direction(req);
      case 'wrapup':
        return wrapup(req);
      case 'choose': {
        const next = choose(req);
        return protocol(`I'll ${inSentence(next.goal)} next (${next.why}).`, 'working', { goal: next.goal });
      }
      case 'continue':
      case 'resume':
      case 'fresh':
      case 'blocked': {
        if (!req.goal) {
          const next = choose(req);
          return protocol(`I have no goal, so I'll ${inSentence(next.goal)} (${next.why}).`, 'working', { goal: next.goal });
        }
        return work(req, req.goal, signal);
      }
    }
  };

  return {
    name: 'scripted',
    async turn(request: TurnRequest, signal: AbortSignal): Promise<TurnReply> {
      // A question may come while an automatic turn runs: it runs no skill and leaves that turn's list alone.
      if (request.kind === 'question') {
        const text = await take(request, signal);
        size += request.prompt.length + text.length;
        return { text };
      }
      const mine: NonNullable<TurnReply['actions']> = [];
      actions = mine;
      const text = await take(request, signal);
      size += request.prompt.length + text.length;
      return { text, actions: mine };
    },
    session(): SessionInfo {
      return { startedAt, size };
    },
    resetSession(): void {
      startedAt = Date.now();
      size = 0;
    },
  };
}
