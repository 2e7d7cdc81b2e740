/**
 * A goal no engine can ever do as written (a count out of range, air, an item
 * Minecraft has not) is refused where it enters, before anything is stored: one
 * check for the goals set in chat (the command host) and those scheduled (the
 * scheduler), each saying in its own words what was left as it was.
 */
import { UserError } from '../errors.ts';
import { impossibleGoal } from './goal-language.ts';
import type { KnownPlaces } from './places.ts';

/**
 * Throw UserError `impossible_goal` (its text: `refusal` of the reason) when `goal` can never be done; given the
 * avatar's `places`, a place it does not remember ("go to bse") is refused naming those it does.
 *
 * @example
 * requirePossibleGoal('collect 3 unobtanium', (why) => `I can't take that goal: ${why}.`, 'steve');
 * // throws "I can't take that goal: Minecraft has no item called "unobtanium"; …"
 */
export function requirePossibleGoal(goal: string, refusal: (why: string) => string, avatar?: string, places?: KnownPlaces): void {
  const never = impossibleGoal(goal, places);
  if (never) throw new UserError('impossible_goal', refusal(never), avatar);
}
