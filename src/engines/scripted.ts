/**
 * The `scripted` engine: the default mind, no API key needed.
 *
 * It reads goals in the goal language (`src/goals/goal-language.ts`), runs the
 * matching skill through the skill registry, and answers with a structured
 * report. It says `done` only when the loop's completion check
 * (`TurnRequest.completion`) says the goal is met (for goals that can be
 * checked), `blocked` with a reason for what it cannot do, and chooses self
 * goals from the survival curriculum. It keeps its own part of TASK.md (goal,
 * where it stands, its plan) current as it goes (`scripted-notes.ts`). It reads
 * goals against the places its avatar remembers ("go to base"), and remembers
 * the crafting table and the furnace it sets down (`crafting-table`, `furnace`).
 */
import { emptySnapshot, inventoryKey, type Snapshot } from '../game/game.ts';
import type { Engine, EngineContext, GoalView, SessionInfo, TurnReply, TurnReport, TurnRequest } from './engine.ts';
import { interrupted, report, type Status } from './scripted-report.ts';
import type { SkillResult } from '../game/skill.ts';
import { goalKey, parseGoal } from '../goals/goal-language.ts';
import { keyed, type Keyed } from '../keyed.ts';
import { answerFromSnapshot } from './answers.ts';
import { nextSelfGoal } from './curriculum.ts';
import { surfaceGoal, surfaceRun, underRoofNow, watchForDusk } from './night-goals.ts';
import { ScriptedNotes, type NotesState } from './scripted-notes.ts';
import { planInWords, planSkill, selfTarget, serverCannot } from './scripted-plan.ts';
import { acknowledge, asGoalText, inSentence, seconds } from './scripted-words.ts';

/** Failures that trying again the same way will not fix. */
const HARD_CODES = new Set(['unsupported_by_server', 'missing_tool', 'missing_material', 'bad_params', 'unknown_skill']);
/**
 * Hard failures whose premise is what the avatar holds: when the inventory moved during the run (a table set down,
 * an item used or dropped), the next turn plans again from what is held now instead of giving up.
 */
const HELD_CODES: ReadonlySet<string> = new Set(['missing_tool', 'missing_material']);
/** Failures of the moment: keep working. */
const TRANSIENT_CODES = new Set(['not_connected', 'aborted', 'preempted']);
/** How long a goal this engine reported blocked is passed over when choosing. */
const BLOCK_MEMORY_MS = 10 * 60_000;
/** How many times in a row a soft failure (no_target, unreachable…) may repeat before the goal is blocked. */
const SOFT_LIMIT = 2;
/** How many skill runs in a row may "succeed" without the check moving before the goal is blocked. */
const STALL_LIMIT = 3;
/** Skills whose plan steps follow one another within one turn: they act where the avatar stands. */
const CHAINED_SKILLS: ReadonlySet<string> = new Set(['craft', 'smelt']);
/** The most skill runs one turn chains (the llm engine's default tool steps a turn). */
const CHAIN_MAX = 8;

/** Blocks the engine sets down that it remembers as places, by the name it gives each (the last one set down wins). */
const REMEMBERED_BLOCKS: Readonly<Record<string, string>> = { crafting_table: 'crafting-table', furnace: 'furnace' };

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

/**
 * Create the scripted engine for one avatar.
 *
 * @example
 * const engine = createScriptedEngine({ avatar: 'demo', game, log, skills: createSkillRegistry(game) });
 * const reply = await engine.turn(request, signal); // reply.report → { status: 'working', goal: null, …, text: "…" }
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
  // Goals read against the avatar's places: "go to base" is a place it remembers.
  const places = ctx.places;
  const parse = (text: string) => parseGoal(text, places);
  const keyOf = (text: string): string => goalKey(text, places);
  const notes = new ScriptedNotes(ctx.task, ctx.log);

  /** What the notes say after a turn that reported `done`: the goal it ends with, where it is with it, the steps left. */
  const notesAfter = (req: TurnRequest, done: TurnReport, snap: Snapshot | undefined): NotesState => {
    const goal = done.goal ?? req.goal?.text ?? null;
    if (goal === null) return { goal, state: 'working', steps: [] };
    if (done.status === 'done') return { goal, state: 'done', steps: [] };
    if (!snap || ctx.game.state !== 'connected') return { goal, state: 'away', steps: [] };
    // A goal set this turn is measured from what is held now, as the loop measures it.
    const view: GoalView = req.goal && req.goal.text === goal ? req.goal : { text: goal, setBy: 'self', baseline: { ...snap.inventory } };
    const steps = planInWords(parse(goal), view, snap, ctx.game.capabilities);
    const why = track?.text === goal ? track.blockedWhy : null;
    if (done.status === 'blocked') return { goal, state: 'blocked', ...(why ? { why } : {}), steps };
    return { goal, state: 'working', steps };
  };
  /** The skill runs of the turn in progress (one turn at a time per avatar). */
  let actions: NonNullable<TurnReply['actions']> = [];

  /** The open direction this goal came from, if any (retired when the goal is done). */
  const directionFor = (req: TurnRequest, goalText: string): number | undefined => {
    const key = keyOf(goalText);
    if (key.startsWith('text:')) return undefined;
    // "Stay near the village" stands: the avatar comes back to it now and then, the direction stays open.
    const intent = parse(goalText);
    if (intent.kind === 'go_to' && intent.stay) return undefined;
    return req.directions.find((d) => parse(d.text).kind !== 'unknown' && keyOf(d.text) === key)?.n;
  };

  /** Goal keys this engine reported blocked lately → when; not chosen again for a while. */
  const blockedAt = new Map<string, number>();
  const markBlocked = (goalText: string): void => {
    blockedAt.set(keyOf(goalText), Date.now());
  };
  const blockedLately = (goalText: string): boolean => {
    const at = blockedAt.get(keyOf(goalText));
    return at !== undefined && Date.now() - at < BLOCK_MEMORY_MS;
  };

  const choose = (req: TurnRequest, exclude: string[] = []): { goal: string; why: string } => {
    const snap = snapshotOrEmpty();
    const caps = ctx.game.capabilities;
    const recent = [...(req.recentGoals ?? []), ...exclude];
    const recentKeys = new Set(recent.slice(-5).map(keyOf));
    const excluded = new Set(exclude.map(keyOf));
    for (const d of [...req.directions].reverse()) {
      const intent = parse(d.text);
      if (intent.kind === 'unknown' || serverCannot(intent, caps)) continue;
      const text = asGoalText(d.text);
      if (recentKeys.has(keyOf(text)) || blockedLately(text)) continue;
      return { goal: text, why: `your direction #${d.n}` };
    }
    const parked = (req.parkedGoals ?? []).filter((g) => !excluded.has(keyOf(g)) && !blockedLately(g));
    let goal = nextSelfGoal(snap, caps, recent, parked, places);
    // A goal blocked a moment ago counts as just done: ask again without it (a few times at most).
    for (let i = 0; i < 5 && blockedLately(goal); i += 1) {
      recent.push(goal);
      goal = nextSelfGoal(snap, caps, recent, parked, places);
    }
    const why = parked.some((g) => g === goal) ? 'a goal you set earlier' : 'the next step of my survival plan';
    return { goal, why };
  };

  const switchGoal = (req: TurnRequest, goalText: string, reason: string): TurnReport => {
    markBlocked(goalText);
    const next = choose(req, [goalText]);
    const t = trackFor(goalText);
    t.outcome = 'blocked';
    t.blockedWhy = t.blockedWhy ?? reason;
    return report(`That route is closed (${reason}), so I'll ${inSentence(next.goal)} instead (${next.why}).`, 'working', { goal: next.goal });
  };

  const blocked = (t: GoalTrack, reason: string): TurnReport => {
    t.outcome = 'blocked';
    t.blockedWhy = reason;
    markBlocked(t.text);
    return report(`I'm blocked: ${reason}.`, 'blocked');
  };

  /**
   * One of the avatar's own goals whose next run goes out under the open sky, at night: another goal to work on
   * under a roof meanwhile, or null when there is none (it goes on with this one).
   */
  const nightSwitch = (req: TurnRequest, goalText: string): TurnReport | null => {
    const next = choose(req, [goalText]);
    if (goalKey(next.goal) === goalKey(goalText) || surfaceGoal(next.goal, snapshotOrEmpty(), ctx.game.capabilities)) return null;
    return report(`With night near or here, "${goalText}" waits for the day: I'll ${inSentence(next.goal)} under a roof meanwhile (${next.why}).`, 'working', { goal: next.goal });
  };

  const run = async (id: string, params: Record<string, unknown>, t: GoalTrack, signal: AbortSignal): Promise<SkillResult> => {
    if (!ctx.skills.get(id)) return { ok: false, code: 'unknown_skill', detail: `I don't have a ${id} skill yet` };
    t.runs[id] = (t.runs[id] ?? 0) + 1;
    const result = await ctx.skills.run(id, params, signal);
    actions.push({ skill: id, ok: result.ok, code: result.code });
    ctx.log.debug({ skill: id, code: result.code, ok: result.ok }, result.detail);
    rememberPlaced(result);
    return result;
  };

  /** A crafting table or furnace the run set down (even on a run that failed later) is remembered under its name. */
  const rememberPlaced = (result: SkillResult): void => {
    const block = result.placed;
    const name = block ? REMEMBERED_BLOCKS[block.block] : undefined;
    if (!block || !name || !places) return;
    const r = places.remember(name, { x: block.x, y: block.y, z: block.z, dimension: ctx.game.snapshot()?.dimension ?? 'overworld' });
    if (r.ok) ctx.log.info({ place: name, at: [block.x, block.y, block.z] }, `remembered ${name}`);
    else ctx.log.info({ place: name, why: r.why }, `could not remember ${name}`);
  };

  const work = async (req: TurnRequest, goal: GoalView, signal: AbortSignal): Promise<TurnReport> => {
    const intent = parse(goal.text);
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
    if (!snap || ctx.game.state !== 'connected') return report("I'm not in the game right now; I'll carry on once I'm back.", 'working');

    const before = req.completion();
    if (before.checkable && before.met) return done(req, goal, t, `${before.says}`);

    let prefix = '';
    let planFrom = snap;
    // Looking further (explore) goes out under the open sky: not for the avatar's own goals at night.
    const mayExplore = !!ctx.skills.get('explore') && intent.kind !== 'explore' && !(goal.setBy === 'self' && underRoofNow(snap, caps));
    if (req.kind === 'blocked') {
      const hard = t.lastFailure && HARD_CODES.has(t.lastFailure.code);
      if (hard || t.rerouted) return switchGoal(req, goal.text, t.blockedWhy ?? t.lastFailure?.detail ?? 'no way forward');
      t.rerouted = true;
      t.streak = { code: '', count: 0 };
      if (mayExplore) {
        const ex = await run('explore', {}, t, signal);
        if (signal.aborted) throw interrupted(signal);
        prefix = ex.ok ? 'I explored somewhere new and tried again. ' : `I tried to explore first (${ex.detail}). `;
        planFrom = ctx.game.snapshot() ?? snap;
      }
    }

    // A snapshot costs a scan of nearby blocks: one before the skill, one after.
    let plan = planSkill(intent, goal, planFrom, caps);
    if (!plan) return blocked(t, 'I do not know how to do that');
    // The avatar's own goals keep under a roof at night where monsters spawn: one that would go out waits for the day,
    // and a run out there is cut short when night comes.
    const outside = goal.setBy === 'self' && caps.mobs && surfaceRun(plan);
    if (outside && underRoofNow(planFrom, caps)) {
      const instead = nightSwitch(req, goal.text);
      if (instead) return instead;
    }
    let result: SkillResult;
    let after: Snapshot;
    let check: ReturnType<TurnRequest['completion']>;
    for (let runs = 1; ; runs++) {
      const dusk = outside && !underRoofNow(planFrom, caps) ? watchForDusk(ctx.game, signal) : undefined;
      try {
        result = await run(plan.id, plan.params, t, dusk?.signal ?? signal);
      } finally {
        dusk?.stop();
      }
      if (signal.aborted) throw interrupted(signal);
      if (dusk?.cut) {
        const instead = nightSwitch(req, goal.text);
        if (instead) return instead;
      }
      const now = ctx.game.snapshot();
      after = now ?? snap;
      // Out of the game since the skill ran: nothing new to check; what held before still holds.
      check = now ? req.completion() : before;
      if (check.checkable && check.met) return done(req, goal, t, `${prefix}${check.says}`);
      // Crafting and smelting happen where the avatar stands: a step that went through is followed by the plan's
      // next such step in the same turn (logs gathered, then planks, sticks, a table and the pickaxe), not a turn later.
      const next = result.ok && now && runs < CHAIN_MAX ? planSkill(intent, goal, now, caps) : null;
      if (!next || !CHAINED_SKILLS.has(next.id) || inventoryKey(after.inventory) === inventoryKey(planFrom.inventory)) break;
      prefix = `${prefix}${result.detail}; `;
      planFrom = after;
      plan = next;
    }

    if (result.ok) {
      t.lastFailure = null;
      t.streak = { code: '', count: 0 };
      if (!check.checkable) return done(req, goal, t, `${prefix}${result.detail}`);
      // A skill that "succeeds" while the goal does not move would otherwise be run for ever. A step of a plan
      // (logs gathered, planks crafted for a pickaxe) moves the inventory, not yet the goal: that is progress.
      const moved = inventoryKey(after.inventory) !== inventoryKey(planFrom.inventory);
      t.stalled = before.checkable && before.says === check.says && !moved ? t.stalled + 1 : 0;
      if (t.stalled >= STALL_LIMIT) return blocked(t, `${result.detail}, but the check still says ${check.says} after ${t.stalled} tries`);
      return report(`${prefix}${result.detail}; the check says ${check.says}. I'll keep going.`, 'working');
    }

    t.lastFailure = result;
    const progress = check.checkable ? ` (${check.says})` : '';
    if (TRANSIENT_CODES.has(result.code)) return report(`${prefix}${result.detail}${progress}; I'll keep at it.`, 'working');
    const heldMoved = HELD_CODES.has(result.code) && inventoryKey(after.inventory) !== inventoryKey(planFrom.inventory);
    if (HARD_CODES.has(result.code) && !heldMoved) return blocked(t, `${result.detail} (${result.code})`);
    t.streak = t.streak.code === result.code ? { code: result.code, count: t.streak.count + 1 } : { code: result.code, count: 1 };
    if (t.streak.count >= SOFT_LIMIT) return blocked(t, `${result.detail} (${result.code}, ${t.streak.count} times in a row)`);
    if (result.code === 'no_target' && mayExplore) {
      const ex = await run('explore', {}, t, signal);
      if (signal.aborted) throw interrupted(signal);
      return report(`${prefix}${result.detail}${progress}; I explored to look further and will try again.${ex.ok ? '' : ` (Exploring: ${ex.detail}.)`}`, 'working');
    }
    return report(`${prefix}${result.detail}${progress}; I'll try again.`, 'working');
  };

  const done = (req: TurnRequest, goal: GoalView, t: GoalTrack, says: string): TurnReport => {
    t.outcome = 'done';
    const n = directionFor(req, goal.text);
    return report(`Done: ${says}.`, 'done', n === undefined ? {} : { directionDone: n });
  };

  const wrapup = (req: TurnRequest): TurnReport => {
    const goalText = req.goal?.text ?? track?.text;
    const t = track;
    if (!goalText) return report('Lesson: nothing to note yet.', 'working');
    if (!t || t.text !== goalText) return report(`Lesson: "${goalText}" ended without my working on it; nothing new learned.`, 'working');
    const runs = Object.entries(t.runs)
      .map(([id, n]) => `${n} ${id} run${n === 1 ? '' : 's'}`)
      .join(', ');
    const how = runs === '' ? 'no skill runs' : runs;
    const took = seconds(Date.now() - t.startedAt);
    if (t.outcome === 'done') return report(`Lesson: "${goalText}" done in ${took} with ${how}; that works here.`, 'working');
    const why = t.blockedWhy ?? t.lastFailure?.detail ?? 'no progress';
    const avoid = why.includes('crafting') || t.lastFailure?.code === 'unsupported_by_server' ? ' Pick goals that need no crafting on this server.' : '';
    return report(`Lesson: "${goalText}" blocked after ${took} and ${how}: ${why}.${avoid}`, 'working');
  };

  const direction = (req: TurnRequest): TurnReport => {
    const message = req.message ?? req.directions[req.directions.length - 1]?.text ?? '';
    const intent = parse(message);
    const known = intent.kind !== 'unknown' && !/^(?:don'?t|do not|never|always)\b/i.test(message.trim());
    if (known) {
      const cannot = serverCannot(intent, ctx.game.capabilities);
      if (cannot) return report(`Understood, but ${cannot}, so I'll keep it in mind for later.`, 'working');
      const goal = asGoalText(message);
      return report(`Understood: I'll ${inSentence(goal)} now.`, 'working', { goal });
    }
    return report(acknowledge(message), 'working');
  };

  const take = async (req: TurnRequest, signal: AbortSignal): Promise<TurnReport> => {
    if (signal.aborted) throw interrupted(signal);
    switch (req.kind) {
      case 'question': {
        // A question the snapshot cannot answer is reported blocked (the loop reads only the words of a question turn).
        const answer = answerFromSnapshot(req.message ?? '', ctx.game.snapshot(), req.goal);
        return report(answer.text, answer.answered ? 'working' : 'blocked');
      }
      case 'direction':
        return direction(req);
      case 'wrapup':
        return wrapup(req);
      case 'choose': {
        const next = choose(req);
        return report(`I'll ${inSentence(next.goal)} next (${next.why}).`, 'working', { goal: next.goal });
      }
      case 'continue':
      case 'resume':
      case 'fresh':
      case 'blocked': {
        if (!req.goal) {
          const next = choose(req);
          return report(`I have no goal, so I'll ${inSentence(next.goal)} (${next.why}).`, 'working', { goal: next.goal });
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
        const answer = await take(request, signal);
        size += request.prompt.length + answer.text.length;
        return { report: answer };
      }
      const mine: NonNullable<TurnReply['actions']> = [];
      actions = mine;
      const done = await take(request, signal);
      if (signal.aborted) throw interrupted(signal);
      // A wrap-up only writes a lesson: the notes stay as the turn before it left them.
      if (request.kind !== 'wrapup') {
        const snap = ctx.game.snapshot();
        await notes.keep(notesAfter(request, done, snap), snap);
      }
      size += request.prompt.length + done.text.length;
      return { report: done, actions: mine };
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
