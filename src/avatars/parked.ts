/**
 * Dropping an avatar's parked goals by their places in the list (`/unpark`).
 */
import { UserError } from '../errors.ts';
import type { Avatar, ParkedGoal, Store } from '../store/store.ts';

/**
 * Drop parked goals: `which` holds their positions in the list (1 is the oldest), or is `all`.
 * Throws UserError, dropping nothing, when a position is not in the list. Returns the goals dropped.
 *
 * @example
 * dropParked(store, avatar, [1, 3]) // → the oldest and the third parked goal, gone from the list
 */
export function dropParked(store: Store, avatar: Avatar, which: readonly number[] | 'all'): ParkedGoal[] {
  const count = avatar.parked.length;
  const missing = which === 'all' ? [] : which.filter((n) => !Number.isInteger(n) || n < 1 || n > count);
  if (missing.length > 0) {
    const have = count === 0 ? 'I have no parked goal' : `I have ${count} (1–${count}; /parked lists them)`;
    throw new UserError('no_such_parked', `There is no parked goal ${missing.join(', ')}: ${have}. Nothing was dropped.`, avatar.name);
  }
  return store.state.update(() => {
    const drop = which === 'all' ? avatar.parked.map((_, i) => i) : [...new Set(which)].map((n) => n - 1);
    const dropped = avatar.parked.filter((_, i) => drop.includes(i));
    avatar.parked = avatar.parked.filter((_, i) => !drop.includes(i));
    return dropped;
  });
}
