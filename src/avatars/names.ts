/**
 * What an avatar may be called: its Minecraft name, one no other avatar has.
 */
import { UserError } from '../errors.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar } from '../store/schema.ts';

/**
 * Throw unless `name` is a name Minecraft accepts (3–16 letters, digits or _) that no avatar of
 * `avatars` other than `self` has (case does not count).
 *
 * @example
 * checkName(records.all(), 'steve') // throws UserError 'name_taken' when steve exists
 */
export function checkName(avatars: readonly DeepReadonly<Avatar>[], name: string, self?: DeepReadonly<Avatar>): void {
  if (!/^[A-Za-z0-9_]{3,16}$/.test(name)) {
    throw new UserError('bad_name', 'An avatar name is 3–16 letters, digits or _ (it is its Minecraft name).');
  }
  const n = name.toLowerCase();
  const other = avatars.find((a) => a.name.toLowerCase() === n);
  if (other && other.name !== self?.name) throw new UserError('name_taken', `There is already an avatar called ${other.name}.`);
}
