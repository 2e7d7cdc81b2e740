/**
 * The checked completion of a goal (README "Goals the avatar understands"):
 * the goal loop's one completion check, which it hands to the engine with
 * each turn (`TurnRequest.completion`: the scripted engine asks it before it
 * says `done`) and by which it judges every `done` before it posts "Done:".
 *
 * - collect / gather / mine / chop / dig N X: N more than held when the goal was set;
 * - have / get / obtain N X: holding at least N;
 * - craft N X: N more than held when the goal was set;
 * - go to x y z, go to / stay near a place the avatar remembers: within {@link REACH_DISTANCE} blocks (in the place's dimension);
 * - come to <player>: within {@link COME_DISTANCE} blocks, when the player is in sight;
 * - build a pillar of N X (a column, a tower; optionally `at x y z`): a free-standing column of N X stands near
 *   (`structures.ts`; the scripted engine does not build it, but the check sees it).
 *
 * Everything else (follow, say, explore, eat, unknown goals) cannot be checked.
 */
import type { Snapshot } from '../game/game.ts';
import { parseGoal } from './goal-language.ts';
import { countItems, itemLabel } from '../game/items.ts';
import { checkColumnGoal } from './structures.ts';
import { dimensionWords, type KnownPlaces } from './places.ts';

export { countItems } from '../game/items.ts';

/** The result of checking a goal against the game. `says` is one clause for chat or a "continue" prompt. */
export type GoalCheck = { checkable: false } | { checkable: true; met: boolean; says: string };

/** A place counts as reached within this many blocks. */
export const REACH_DISTANCE = 2;

/** "come to <player>" counts as done within this many blocks of the player. */
export const COME_DISTANCE = 3;

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1).replace(/\.0$/, '');
}

/**
 * Whether the inventory a "collect N more" goal was measured against is gone: the avatar holds
 * fewer of the goal's items than when the goal was set (its inventory was lost while it was out
 * of the game). The goal loop then measures the baseline again when the avatar is back.
 *
 * @example
 * baselineGone('collect 3 dirt', { dirt: 3 }, snapWithEmptyInventory); // true
 * baselineGone('get 3 dirt', { dirt: 3 }, snapWithEmptyInventory);     // false: "get" counts what is held
 */
export function baselineGone(goalText: string, baseline: Record<string, number>, snap: Snapshot): boolean {
  const intent = parseGoal(goalText);
  if (intent.kind !== 'craft' && !(intent.kind === 'collect' && intent.mode === 'more')) return false;
  return countItems(snap.inventory, intent.item) < countItems(baseline, intent.item);
}

/**
 * Check a goal against a snapshot.
 *
 * @param goalText the goal as set ("collect 3 oak logs")
 * @param baseline the inventory when the goal was set; null is treated as an empty inventory
 * @param snap the current snapshot
 * @param places the places the avatar remembers on its server ("go to base"); without them a place is not checkable
 * @example
 * checkGoal('collect 3 oak logs', { oak_log: 3 }, snap);
 * // { checkable: true, met: false, says: 'you hold 2 of the 3 more oak logs needed (5 now, 3 when the goal was set)' }
 */
export function checkGoal(goalText: string, baseline: Record<string, number> | null, snap: Snapshot, places?: KnownPlaces): GoalCheck {
  const intent = parseGoal(goalText, places);
  switch (intent.kind) {
    case 'collect':
    case 'craft': {
      const held = countItems(snap.inventory, intent.item);
      const mode = intent.kind === 'craft' ? 'more' : intent.mode;
      if (mode === 'have') {
        const label = itemLabel(intent.item, intent.count);
        return {
          checkable: true,
          met: held >= intent.count,
          says: held >= intent.count ? `you hold ${held} ${itemLabel(intent.item, held)} (${intent.count} needed)` : `you hold ${held} of the ${intent.count} ${label} needed`,
        };
      }
      const base = countItems(baseline ?? {}, intent.item);
      const gained = held - base;
      const label = itemLabel(intent.item, intent.count);
      const tail = `(${held} now, ${base} when the goal was set)`;
      if (gained >= intent.count) {
        return { checkable: true, met: true, says: `you hold ${gained} more ${itemLabel(intent.item, gained)}, ${intent.count} needed ${tail}` };
      }
      return { checkable: true, met: false, says: `you hold ${Math.max(0, gained)} of the ${intent.count} more ${label} needed ${tail}` };
    }
    case 'go_to': {
      const coords = `${fmt(intent.x)} ${fmt(intent.y)} ${fmt(intent.z)}`;
      const where = intent.place ? `${intent.place} (${coords})` : coords;
      const dimension = intent.place ? places?.get(intent.place)?.dimension : undefined;
      if (dimension && dimension !== snap.dimension) {
        return { checkable: true, met: false, says: `you are in ${dimensionWords(snap.dimension)}; ${intent.place} is in ${dimensionWords(dimension)}` };
      }
      const d = Math.hypot(snap.position.x - intent.x, snap.position.y - intent.y, snap.position.z - intent.z);
      const met = d <= REACH_DISTANCE;
      return { checkable: true, met, says: met ? `you are at ${where} (${fmt(Math.round(d * 10) / 10)} blocks away)` : `you are ${Math.round(d)} blocks from ${where}` };
    }
    case 'come_to': {
      const name = intent.player.toLowerCase();
      const seen = snap.nearbyEntities.find((e) => e.kind === 'player' && e.name.toLowerCase() === name);
      if (!seen) return { checkable: false };
      const met = seen.distance <= COME_DISTANCE;
      return { checkable: true, met, says: met ? `you are next to ${seen.name}` : `you are ${Math.round(seen.distance)} blocks from ${seen.name}` };
    }
    case 'unknown':
      return checkColumnGoal(goalText, snap);
    default:
      return { checkable: false };
  }
}
