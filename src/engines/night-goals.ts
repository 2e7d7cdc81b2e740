/**
 * The night, for the goals an avatar picks itself where monsters spawn: from a minute before dusk until daylight
 * has burnt them (src/game/night.ts) those goals keep under a roof. A goal whose next skill run goes out under
 * the open sky (logs, sand, dirt, hunting, exploring) waits for the day; mining and crafting go on under ground
 * (the collect skill digs in first at night, docs/world.md).
 */
import type { GameCapabilities, Snapshot } from '../game/game.ts';
import { keepUnderRoof, minedUnderground } from '../game/night.ts';
import { parseGoal } from '../goals/goal-language.ts';
import { planSkill } from './scripted-plan.ts';

/**
 * Whether the avatar's own goals keep under a roof now: monsters spawn on this server, and it is night or nearly.
 *
 * @example
 * underRoofNow(makeSnapshot({ timeOfDay: 14_000 }), EMBEDDED_CAPABILITIES) // → true
 */
export function underRoofNow(snap: Pick<Snapshot, 'timeOfDay'>, caps: GameCapabilities): boolean {
  return caps.mobs && keepUnderRoof(snap.timeOfDay);
}

/**
 * Whether a skill run takes the avatar out under the open sky: gathering what does not lie under ground, hunting,
 * exploring, walking somewhere.
 *
 * @example
 * surfaceRun({ id: 'collect', params: { item: 'log', count: 3 } }) // → true
 * surfaceRun({ id: 'collect', params: { item: 'raw_iron', count: 3 } }) // → false
 */
export function surfaceRun(plan: { id: string; params: Record<string, unknown> }): boolean {
  switch (plan.id) {
    case 'collect':
      return !minedUnderground(String(plan.params['item'] ?? ''));
    case 'fight':
    case 'explore':
    case 'go_to':
    case 'follow':
    case 'come_to':
      return true;
    default:
      return false;
  }
}

/**
 * Whether working on `goal` now starts with a run under the open sky (its plan's next step, from what is held).
 *
 * @example
 * surfaceGoal('collect 16 logs', snap, caps) // → true
 * surfaceGoal('craft an iron pickaxe', { …, inventory: { stone_pickaxe: 1, oak_log: 2 } }, caps) // → false (the iron first)
 */
export function surfaceGoal(goal: string, snap: Snapshot, caps: GameCapabilities): boolean {
  const intent = parseGoal(goal);
  if (intent.kind === 'unknown') return false;
  const plan = planSkill(intent, { text: goal, setBy: 'self', baseline: { ...snap.inventory } }, snap, caps);
  return plan !== null && surfaceRun(plan);
}

/** How often a run under the open sky looks at the clock. */
const DUSK_POLL_MS = 2000;

/** A skill run's signal that also aborts once the avatar's own goals should keep under a roof. */
export interface DuskWatch {
  readonly signal: AbortSignal;
  /** Whether it aborted because night came. */
  readonly cut: boolean;
  /** Stop watching (always, once the run is over). */
  stop(): void;
}

/**
 * Watch the clock while a run under the open sky goes on: its signal aborts with `signal`, or when the game's
 * snapshot says night is near (where monsters spawn).
 *
 * @example
 * const watch = watchForDusk(game, signal);
 * try { await skills.run('collect', params, watch.signal); } finally { watch.stop(); }
 * if (watch.cut) … // the goal waits for the day
 */
export function watchForDusk(game: { snapshot(): Snapshot | undefined; readonly capabilities: GameCapabilities }, signal: AbortSignal): DuskWatch {
  const ctl = new AbortController();
  const passOn = (): void => ctl.abort(signal.reason);
  signal.addEventListener('abort', passOn, { once: true });
  let cut = false;
  const timer = setInterval(() => {
    const snap = game.snapshot();
    if (!snap || !underRoofNow(snap, game.capabilities)) return;
    cut = true;
    ctl.abort(new Error('night is falling'));
  }, DUSK_POLL_MS);
  timer.unref();
  return {
    signal: ctl.signal,
    get cut() {
      return cut;
    },
    stop() {
      clearInterval(timer);
      signal.removeEventListener('abort', passOn);
    },
  };
}
