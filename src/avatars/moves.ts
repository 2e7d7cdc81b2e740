/**
 * Avatars and the servers they are on: which are on a server, a stopped
 * avatar moved to another one, and the avatars of a server whose entry
 * changed built anew. Rights are checked by the caller (the server desk).
 */
import { UserError } from '../errors.ts';
import type { AvatarOnServer } from '../servers/registry.ts';
import type { Store } from '../store/store.ts';
import type { AvatarManager } from './manager.ts';

/** The avatars on a server, and whether each plays. */
export function avatarsOn(avatars: AvatarManager, serverId: string): AvatarOnServer[] {
  return avatars
    .all()
    .filter((a) => a.server === serverId)
    .map((a) => ({ name: a.name, playing: avatars.isPlaying(a.name) }));
}

/**
 * Put a stopped avatar on another server: its game there is built at once, and when it cannot be the
 * avatar stays where it was. Throws UserError for a playing avatar.
 *
 * @example
 * await moveAvatar(avatars, store, 'bob', 'survival');
 */
export async function moveAvatar(avatars: AvatarManager, store: Store, name: string, serverId: string): Promise<void> {
  const avatar = avatars.get(name);
  if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
  if (avatars.isPlaying(avatar.name)) throw new UserError('still_playing', `${avatar.name} is playing: /stop ${avatar.name} first, then move it.`, avatar.name);
  const from = avatar.server;
  store.state.update(() => {
    avatar.server = serverId;
  });
  try {
    await avatars.rebuild(avatar.name);
  } catch (err) {
    store.state.update(() => {
      avatar.server = from;
    });
    await avatars.rebuild(avatar.name);
    throw err;
  }
}

/**
 * A server's entry changed (its address, version or auth): its stopped avatars are built anew for it.
 * Returns those that play on, with the game they had, until they are stopped and played again.
 */
export async function serverChanged(avatars: AvatarManager, serverId: string): Promise<string[]> {
  const playing: string[] = [];
  for (const a of avatarsOn(avatars, serverId)) {
    if (a.playing) playing.push(a.name);
    else await avatars.rebuild(a.name);
  }
  return playing;
}
