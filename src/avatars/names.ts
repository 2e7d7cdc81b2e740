/**
 * What an avatar may be called: its Minecraft name, one no other avatar has.
 */
import { UserError } from '../errors.ts';
import type { Avatar } from '../store/store.ts';

/**
 * Throw unless `name` is a name Minecraft accepts (3–16 letters, digits or _) that no avatar of
 * `avatars` other than `self` has (case does not count).
 *
 * @example
 * checkName(store.state.data.avatars, 'steve') // throws UserError 'name_taken' when steve exists
 */
export function checkName(avatars: readonly Avatar[], name: string, self?: Avatar): void {
  if (!/^[A-Za-z0-9_]{3,16}$/.test(name)) {
    throw new UserError('bad_name', 'An avatar name is 3–16 letters, digits or _ (it is its Minecraft name).');
  }
  const n = name.toLowerCase();
  const other = avatars.find((a) => a.name.toLowerCase() === n);
  if (other && other !== self) throw new UserError('name_taken', `There is already an avatar called ${other.name}.`);
}
