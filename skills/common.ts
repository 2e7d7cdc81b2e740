/**
 * Shared plumbing for skills: the skill gate, prompt stopping on abort,
 * pathfinding with stable failure codes, and result helpers.
 */
import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type pf from 'mineflayer-pathfinder';
import type { Vec3 } from 'vec3';
import type { AvatarGame } from '../src/game/game.ts';
import { PreemptedError } from '../src/game/skill-gate.ts';
import type { SkillResult } from '../src/game/skill.ts';

const requireHere = createRequire(import.meta.url);

/**
 * mineflayer-pathfinder's goals (GoalNear, GoalFollow, …), re-exported for skills. The pathfinder is loaded
 * when a skill first uses one: a core whose avatars all play on hosts lists the skills but never runs one.
 */
export const goals: typeof pf.goals = new Proxy({} as typeof pf.goals, {
  get: (_, name) => (requireHere('mineflayer-pathfinder') as typeof pf).goals[name as keyof typeof pf.goals],
});

/** A failed path: the target cannot be reached from here. */
export class UnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreachableError';
  }
}

/** A successful result. */
export function done(detail: string): SkillResult {
  return { ok: true, code: 'done', detail };
}

/** A failed result with a stable code. */
export function fail(code: string, detail: string): SkillResult {
  return { ok: false, code, detail };
}

/**
 * Refuse a player target that is the avatar itself: following or coming to oneself "succeeds" at once
 * and would be reported as done. `verb` goes into the sentence ("follow", "come to").
 */
export function notMyself(game: { username: string }, player: string, verb: string): SkillResult | null {
  if (player.toLowerCase() !== game.username.toLowerCase()) return null;
  return fail('bad_params', `I can't ${verb} myself (${game.username} is me): name another player`);
}

/** The result of a skill whose signal aborted: `preempted` when a reflex interrupted it, else `aborted`. */
export function stoppedResult(id: string, signal: AbortSignal): SkillResult {
  const reason: unknown = signal.reason;
  if (reason instanceof PreemptedError) return fail('preempted', `${id} was interrupted (${reason.by})`);
  return fail('aborted', `${id} was stopped`);
}

/** Stop everything the bot is doing with its body: pathing, digging, held keys. */
export function stopBody(bot: Bot): void {
  try {
    bot.pathfinder?.stop();
    bot.pathfinder?.setGoal(null);
  } catch (err) {
    bot.emit('error', err as Error);
  }
  bot.stopDigging();
  bot.clearControlStates();
}

/** Throw the signal's reason if it has aborted. */
export function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/** A promise that rejects when `signal` aborts. */
export function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_, reject) => {
    const fire = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}

/** Sleep, or reject early when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Get ready to click on a block to open it: close a window still open (a player leaves one screen before opening
 * another) and turn to the block's middle at once. mineflayer's click turns the bot first and waits until that
 * turn has gone out with a physics tick, and physics does not tick while the chunk the bot stands in is missing:
 * the click would never be sent. Turned here, mineflayer's own turn has nothing left to wait for.
 */
export async function readyToOpen(bot: Bot, block: Block): Promise<void> {
  if (bot.currentWindow) bot.closeWindow(bot.currentWindow);
  await bot.lookAt(block.position.offset(0.5, 0.5, 0.5), true);
}

/** Whether `err` is mineflayer's "no window came" after a click (it waits 20 s for one). */
export function noWindow(err: unknown): boolean {
  return /windowOpen did not fire/.test((err as Error)?.message ?? '');
}

/** How many times a skill that a reflex pre-empted takes its work up again, once the reflex is done. */
export const RESUMES = 5;

/**
 * Run a skill's body on the live bot, through the game's skill gate: on abort the bot stops at once
 * (pathfinder, digging, controls) and the result is `aborted`; a thrown {@link UnreachableError} becomes
 * `unreachable`. Anything else thrown reaches the runner (`threw`).
 *
 * A reflex that pre-empts the skill hands it back: the body runs again from where the avatar stands once the
 * reflex is done (up to {@link RESUMES} times; then the result is `preempted`). A body whose work is counted
 * (collect N more) keeps its baseline outside itself, so taking up again does not start the count over.
 */
export async function onBot(
  game: AvatarGame,
  id: string,
  outer: AbortSignal,
  body: (bot: Bot, signal: AbortSignal) => Promise<SkillResult>,
): Promise<SkillResult> {
  const attempt = async (signal: AbortSignal): Promise<SkillResult> => {
    const bot = game.bot;
    if (!bot) return fail('not_connected', 'not in the game right now');
    if (signal.aborted) return stoppedResult(id, signal);
    const onAbort = (): void => stopBody(bot);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([body(bot, signal), whenAborted(signal)]);
    } catch (err) {
      if (signal.aborted) return stoppedResult(id, signal);
      if (err instanceof UnreachableError) return fail('unreachable', err.message);
      throw err;
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (!signal.aborted && bot.pathfinder?.isMoving()) stopBody(bot);
    }
  };
  const gate = game.gate;
  if (!gate) return attempt(outer);
  for (let resumed = 0; ; resumed++) {
    let result: SkillResult;
    try {
      result = await gate.run(id, outer, attempt);
    } catch (err) {
      // The gate rejects when the signal aborts (or a reflex pre-empts) while the skill still waits for its turn.
      if (outer.aborted) return stoppedResult(id, outer);
      if (!(err instanceof PreemptedError)) throw err;
      result = fail('preempted', `${id} was interrupted (${err.by})`);
    }
    if (result.code !== 'preempted' || outer.aborted || resumed >= RESUMES) return result;
  }
}

/**
 * How long digging `block` takes with the best tool carried, standing on dry ground (mineflayer's `digTime` reads
 * the held item and counts five times as long in the air: a bot knocked back or falling would find stone too hard).
 */
export function toolDigMs(bot: Bot, block: Block): number {
  const tool = bot.pathfinder.bestHarvestTool(block);
  return block.digTime(tool ? tool.type : null, false, false, false, [], bot.entity.effects);
}

/** A standing player's eyes above its feet. */
export const EYE_HEIGHT = 1.62;

/** Vanilla's reach for using a block (1.20.5 and later): from the eyes to the nearest point of the block. */
export const BLOCK_REACH = 4.5;

/**
 * Whether `block` is within `reach` of the bot's eyes, to its nearest point: a crafting table at the rim of a shaft
 * is used from the bottom, three blocks down, without climbing out.
 */
export function withinReach(bot: Bot, block: Block, reach = BLOCK_REACH): boolean {
  const eyes = bot.entity.position.offset(0, EYE_HEIGHT, 0);
  const p = block.position;
  const near = (v: number, lo: number): number => Math.min(Math.max(v, lo), lo + 1);
  return eyes.distanceTo(p.offset(0, 0, 0).set(near(eyes.x, p.x), near(eyes.y, p.y), near(eyes.z, p.z))) <= reach;
}

/** Hold the best tool carried for digging `block` (nothing changes when the hand is best). */
export async function equipToDig(bot: Bot, block: Block): Promise<void> {
  const tool = bot.pathfinder.bestHarvestTool(block);
  if (tool && bot.heldItem?.type !== tool.type) await bot.equip(tool, 'hand');
}

/** How long after a dig the server may still send the block back, when no drop or other sign says it went through. */
const DIG_REFUSAL_MS = 2000;
/** How many times a block the server sends back is dug. */
const DIG_TRIES = 3;

/**
 * How a dig ended: `dug` (the block is gone), `sent_back` (the server sent the block back after every try) or
 * `failed` (the dig itself failed: the block changed, it was out of reach, it took longer than allowed).
 */
export type DigOutcome = 'dug' | 'sent_back' | 'failed';

/** What {@link digSurely} may be told. */
export interface DigOptions {
  /** A try that takes longer than this is stopped and the dig has `failed`. */
  withinMs?: number;
  /** Another sign than a drop that the server took the dig (the bot landed below it): the watch ends. */
  taken?: () => boolean;
  /** How long after each try to watch for the block coming back, when no sign comes first. */
  watchMs?: number;
}

/** The ids of the item entities the bot sees now. */
export function itemIds(bot: Bot): Set<number> {
  return new Set(Object.values(bot.entities).filter((e) => e.name === 'item').map((e) => e.id));
}

/** Whether an item entity not among `earlier` lies within 2 blocks of `at` (a block's middle): a dig's drop. */
export function newDropNear(bot: Bot, at: Vec3, earlier: Set<number>): boolean {
  return Object.values(bot.entities).some((e) => e.name === 'item' && !earlier.has(e.id) && e.position.distanceTo(at) < 2);
}

/** Dig once; false when the dig failed (the block changed, out of reach) or took longer than `ms`, the dig then stopped. */
async function digOnce(bot: Bot, block: Block, ms: number | undefined): Promise<boolean> {
  const dig = bot.dig(block, true).then(() => true, () => false);
  if (ms === undefined) return dig;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => {
      bot.stopDigging();
      resolve(false);
    }, ms);
  });
  try {
    return await Promise.race([dig, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Dig `block`, and dig it again when the server sends it back (three tries at most). mineflayer takes a dig as
 * done once it has sent its end; a server whose loop stalled gets the start and the end at once and may refuse the
 * dig as too fast (the embedded world does, as vanilla does): the block comes back a moment later and nothing drops.
 * After each try the block is watched until its drop appears (or `taken` says the dig went through), it comes
 * back, or two seconds pass.
 *
 * @example
 * if ((await digSurely(bot, block, signal)) === 'dug') placeHere(block.position);
 */
export async function digSurely(bot: Bot, block: Block, signal: AbortSignal, opts: DigOptions = {}): Promise<DigOutcome> {
  const at = block.position;
  const middle = at.offset(0.5, 0.5, 0.5);
  const back = (): boolean => bot.blockAt(at)?.type === block.type;
  for (let attempt = 0; attempt < DIG_TRIES; attempt++) {
    const earlier = itemIds(bot);
    if (!(await digOnce(bot, block, opts.withinMs))) return 'failed';
    const went = (): boolean => newDropNear(bot, middle, earlier) || (opts.taken?.() ?? false);
    const deadline = Date.now() + (opts.watchMs ?? DIG_REFUSAL_MS);
    while (!back() && !went() && Date.now() < deadline) await sleep(50, signal);
    if (!back()) return 'dug';
  }
  return 'sent_back';
}

/** What a walk may not do. */
export interface WalkLimits {
  /** No block of the walker's body above this height: a walk under ground stays under its roof. */
  below?: number;
  /**
   * Items not to build with on the way (the pathfinder towers and bridges with dirt, then cobblestone): a skill
   * walking to place a block keeps the blocks its caller counted on.
   */
  spare?: readonly number[];
}

/**
 * Walk to a pathfinder goal. Rejects with {@link UnreachableError} when no path exists or the walk
 * takes longer than `timeoutMs` (the pathfinder can keep retrying forever when the bot is stuck),
 * or with the abort reason when `signal` aborts.
 */
export async function walk(
  bot: Bot,
  goal: InstanceType<typeof goals.Goal>,
  signal: AbortSignal,
  what = 'there',
  timeoutMs = 60_000,
  limits: WalkLimits = {},
): Promise<void> {
  checkAborted(signal);
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const below = limits.below;
  const steps = below === undefined ? undefined : bot.pathfinder.movements?.exclusionAreasStep;
  // A move that puts the body (feet or head) above the limit costs more than any path may (the pathfinder's cap is 100).
  const overhead = (b: { position: { y: number } }): number => (b.position.y > (below as number) ? 1000 : 0);
  steps?.push(overhead);
  const movements = bot.pathfinder.movements;
  const scaffolding = movements?.scafoldingBlocks;
  if (movements && scaffolding && limits.spare?.length) movements.scafoldingBlocks = scaffolding.filter((id) => !limits.spare?.includes(id));
  try {
    await Promise.race([
      bot.pathfinder.goto(goal),
      new Promise<void>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          stopBody(bot);
          reject(new UnreachableError(`could not get ${what} in ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
      }),
    ]);
  } catch (err) {
    checkAborted(signal);
    if (err instanceof UnreachableError) throw err;
    const name = (err as Error)?.name ?? '';
    if (timedOut || name === 'NoPath' || name === 'Timeout' || /no path|took to long|timeout/i.test((err as Error)?.message ?? '')) {
      throw new UnreachableError(`cannot find a way ${what}`);
    }
    throw err;
  } finally {
    clearTimeout(timer);
    if (steps) steps.splice(steps.indexOf(overhead), 1);
    if (movements && scaffolding) movements.scafoldingBlocks = scaffolding;
  }
  checkAborted(signal);
}
