/**
 * What the scripted engine does for a goal: whether the server and the avatar
 * can do it at all, the skill run that works toward it now, and the whole
 * plan in words (the `## Plan` of its notes in TASK.md).
 */
import type { GameCapabilities, Snapshot } from '../game/game.ts';
import { countItems, itemLabel } from '../game/items.ts';
import type { GoalIntent } from '../goals/goal-language.ts';
import { cutText } from '../text.ts';
import { craftSteps, gatherSteps, planCraft, planGather, situationOf, type CraftStep } from './craft-plan.ts';
import type { GoalView } from './engine.ts';

/** The most a collect or craft run asks for at once (the skills' own limit); bigger goals take several turns. */
const MAX_PER_RUN = 256;

/**
 * Can this server do the goal at all? Returns the reason it cannot, or null.
 *
 * @example
 * serverCannot({ kind: 'craft', item: 'stick', count: 4 }, { crafting: false, … }) // → 'this server has no crafting'
 */
export function serverCannot(intent: GoalIntent, caps: GameCapabilities): string | null {
  if (intent.kind === 'craft' && !caps.crafting) return 'this server has no crafting';
  return null;
}

/**
 * A follow / come-to goal naming the avatar itself: the reason it cannot be done, or null.
 *
 * @example
 * selfTarget({ kind: 'follow', player: 'Demo' }, 'demo') // → "I can't follow myself (demo is me): name another player"
 */
export function selfTarget(intent: GoalIntent, avatar: string): string | null {
  if (intent.kind !== 'follow' && intent.kind !== 'come_to') return null;
  if (intent.player.toLowerCase() !== avatar.toLowerCase()) return null;
  return `I can't ${intent.kind === 'follow' ? 'follow' : 'come to'} myself (${avatar} is me): name another player`;
}

/** How many of a collect or craft goal's item are still to get: all of it for `have`, the gain since the baseline otherwise. */
function stillToGet(intent: Extract<GoalIntent, { kind: 'collect' | 'craft' }>, goal: GoalView, snap: Snapshot): number {
  const held = countItems(snap.inventory, intent.item);
  const base = countItems(goal.baseline ?? {}, intent.item);
  return intent.kind === 'collect' && intent.mode === 'have' ? intent.count - held : intent.count - Math.max(0, held - base);
}

/**
 * The skill and params that work toward a goal now, or null for a goal the language does not know.
 *
 * @example
 * planSkill({ kind: 'go_to', x: 1, y: 64, z: 2 }, goal, snap, caps) // → { id: 'go_to', params: { x: 1, y: 64, z: 2, range: 1 } }
 */
export function planSkill(intent: GoalIntent, goal: GoalView, snap: Snapshot, caps: GameCapabilities): { id: string; params: Record<string, unknown> } | null {
  switch (intent.kind) {
    case 'collect': {
      const count = Math.min(MAX_PER_RUN, Math.max(1, stillToGet(intent, goal, snap)));
      // Where the server crafts, a missing tool (a pickaxe for stone) is made first.
      return caps.crafting ? planGather(intent.item, count, snap) : { id: 'collect', params: { item: intent.item, count } };
    }
    case 'craft': {
      const held = countItems(snap.inventory, intent.item);
      const left = Math.max(1, stillToGet(intent, goal, snap));
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

/** "a crafting table", "an iron ingot", "sticks", "cobblestone": what a step makes, without its count. */
function stepObject(step: CraftStep): string {
  if (step.kind === 'unknown') return itemLabel(step.item, 1);
  const one = itemLabel(step.item, 1);
  if (step.count !== 1) return itemLabel(step.item, 2);
  // A name with no plural of its own (cobblestone, beef) takes no article either.
  if (itemLabel(step.item, 2) === one) return one;
  return `${/^[aeiou]/.test(one) ? 'an' : 'a'} ${one}`;
}

const STEP_VERB: Readonly<Record<CraftStep['kind'], string>> = { gather: 'gather', hunt: 'hunt for', craft: 'craft', smelt: 'smelt', unknown: 'craft' };

/** A plan's steps in words, each item once, where it first comes (its counts summed). */
function stepsInWords(steps: readonly CraftStep[]): string[] {
  const merged: CraftStep[] = [];
  for (const step of steps) {
    const same = merged.find((m) => m.kind === step.kind && m.item === step.item);
    if (same && same.kind !== 'unknown' && step.kind !== 'unknown') same.count += step.count;
    else if (!same) merged.push({ ...step });
  }
  return merged.map((step) => `${STEP_VERB[step.kind]} ${stepObject(step)}`);
}

/**
 * The steps left toward a goal, in words and without counts (they change as the avatar works, the steps do not):
 * the whole craft or gather plan for an item, one step for anything else. Empty when nothing is left to do.
 *
 * @example
 * planInWords({ kind: 'craft', item: 'wooden_pickaxe', count: 1 }, goal, emptySnapshot(), caps)
 * // → ['gather logs', 'craft planks', 'craft sticks', 'craft a crafting table', 'craft a wooden pickaxe']
 */
export function planInWords(intent: GoalIntent, goal: GoalView, snap: Snapshot, caps: GameCapabilities): string[] {
  switch (intent.kind) {
    case 'collect': {
      const left = stillToGet(intent, goal, snap);
      if (left <= 0) return [];
      return stepsInWords(caps.crafting ? gatherSteps(intent.item, left, snap) : [{ kind: 'gather', item: intent.item, count: left }]);
    }
    case 'craft': {
      const left = stillToGet(intent, goal, snap);
      if (left <= 0) return [];
      return stepsInWords(craftSteps(intent.item, countItems(snap.inventory, intent.item) + left, situationOf(snap)));
    }
    case 'go_to':
      return [`walk to ${intent.place ? `${intent.place} (${intent.x} ${intent.y} ${intent.z})` : `${intent.x} ${intent.y} ${intent.z}`}`];
    case 'follow':
      return [`follow ${intent.player}`];
    case 'come_to':
      return [`come to ${intent.player}`];
    case 'say':
      return [`say "${cutText(intent.text, 80)}"`];
    case 'explore':
      return ['explore somewhere new'];
    case 'eat':
      return ['eat something'];
    case 'unknown':
      return [];
  }
}
