/**
 * Where a `Done:` pings the person who set the goal: once, in one of the
 * avatar's linked chats. A goal set in a chat pings there; a scheduled goal
 * (and one whose chat is not linked, or unknown) pings in its setter's DM
 * when that DM is linked, else in the first control link on that platform.
 * The console never pings.
 */
import type { Platform } from '../chat.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import { platformOf } from '../store/destination.ts';
import type { Destination, Identity, Link, StateFile } from '../store/schema.ts';

/** state.json, read-only. */
type State = DeepReadonly<StateFile>;

/** Whether `link` is a direct-message chat with `identity` (a Telegram DM's chat id is the user's id). */
function isDmWith(link: DeepReadonly<Link>, identity: Identity): boolean {
  return link.dmWith === identity || (identity.startsWith('telegram:') && link.dest === identity);
}

/** The person's DM with the avatar, else the avatar's first control link, among its linked chats where the person can be pinged. */
function dmOrFirstControl(state: State, avatar: string, personId: string, platform: Platform | null): Destination | null {
  const person = state.persons.find((p) => p.id === personId);
  const identityOn = (dest: Destination): Identity | undefined => person?.identities.find((i) => i.startsWith(`${platformOf(dest)}:`));
  const links = state.links.filter((l) => {
    const on = platformOf(l.dest);
    return l.avatar === avatar && on !== 'console' && (platform === null || on === platform) && identityOn(l.dest) !== undefined;
  });
  const dm = links.find((l) => isDmWith(l, identityOn(l.dest) as Identity));
  return (dm ?? links.find((l) => l.mode === 'control'))?.dest ?? null;
}

/**
 * The linked chat of `avatar` where a goal's setter is pinged: `setIn` when it is linked and the person can be pinged
 * there; else their DM, else the first control link, on the platform of `setIn` (any platform when it is null).
 * Null when none fits (then nobody is pinged).
 *
 * @example
 * pingPlace(state, 'steve', 'p-alice', 'discord:123'); // 'discord:123' when steve is linked there
 */
export function pingPlace(state: State, avatar: string, personId: string, setIn: Destination | null): Destination | null {
  const person = state.persons.find((p) => p.id === personId);
  const platform = setIn ? platformOf(setIn) : null;
  const linkedThere = setIn !== null && state.links.some((l) => l.avatar === avatar && l.dest === setIn);
  if (linkedThere && platform !== 'console' && person?.identities.some((i) => i.startsWith(`${platform}:`))) return setIn;
  return dmOrFirstControl(state, avatar, personId, platform);
}

/**
 * Where a scheduled goal's Done pings its creator: their DM if linked, else the first control link, on the platform
 * of the chat the schedule was made in (not that chat for being the one it was made in).
 *
 * @example
 * host.setGoal(avatar, s.goal, s.createdBy, schedulePingPlace(state, avatar, s.createdBy, s.dest));
 */
export function schedulePingPlace(state: State, avatar: string, personId: string, madeIn: Destination): Destination | undefined {
  return dmOrFirstControl(state, avatar, personId, platformOf(madeIn)) ?? undefined;
}
