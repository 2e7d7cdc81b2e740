/**
 * Who may do what (docs/commands.md "Who may do what"), decided in one place for every bridge.
 */
import type { ChatContext } from './chat.ts';
import type { Avatar, Person, Share, StateFile } from './store/schema.ts';
import type { DeepReadonly } from './store/readonly.ts';

/** A person's role towards one avatar, from strongest to weakest. */
export type Role = 'admin' | 'owner' | 'pilot' | 'watcher' | 'stranger';

/** The person behind a chat identity, if known. */
export function personOf(state: DeepReadonly<StateFile>, identity: string): DeepReadonly<Person> | undefined {
  return state.persons.find((p) => p.identities.includes(identity));
}

/** Whether the sender is an admin: the local console always, identities in ADMINS, or a paired person. */
export function isAdmin(state: DeepReadonly<StateFile>, chat: ChatContext, admins: readonly string[]): boolean {
  if (chat.from === 'console:local') return true;
  if (admins.includes(chat.from)) return true;
  return personOf(state, chat.from)?.admin === true;
}

/**
 * Whether a share covers an avatar: the avatar's server, narrowed to one
 * avatar or to one owner's avatars when the share says so.
 */
export function shareCovers(share: DeepReadonly<Share>, avatar: DeepReadonly<Avatar>): boolean {
  if (share.server !== avatar.server) return false;
  if (share.avatar !== undefined && share.avatar.toLowerCase() !== avatar.name.toLowerCase()) return false;
  if (share.owner !== undefined && share.owner !== avatar.owner) return false;
  return true;
}

/** The shares of the chat's Discord guild that cover `avatar` (none outside a guild). */
export function guildSharesOf(state: DeepReadonly<StateFile>, chat: ChatContext, avatar: DeepReadonly<Avatar>): DeepReadonly<Share>[] {
  if (chat.platform !== 'discord' || !chat.guild) return [];
  return state.shares.filter((s) => s.guild === chat.guild && shareCovers(s, avatar));
}

/**
 * The sender's role towards `avatar`, seen from this chat.
 *
 * - admin: everything;
 * - owner: the avatar's owner, from any chat;
 * - pilot: a Discord member with a role the guild shares the avatar to, in any
 *   channel of that guild (so they may link it there) except one that links it in `watch` mode;
 * - watcher: anyone else in a chat linked to the avatar (a share gives the members without
 *   its role nothing more: they see it only where it is linked);
 * - stranger: anyone else (they learn nothing about the avatar).
 *
 * A dashboard page (`chat.openedFrom`) is seen from the chat its sign-in link was asked for in.
 */
export function roleFor(state: DeepReadonly<StateFile>, chat: ChatContext, avatar: DeepReadonly<Avatar>, admins: readonly string[]): Role {
  if (isAdmin(state, chat, admins)) return 'admin';
  const person = personOf(state, chat.from);
  if (person && person.id === avatar.owner) return 'owner';
  // A dashboard page has the rights its sender has in the chat it was opened from.
  const at = chat.openedFrom ? { ...chat.openedFrom, from: chat.from } : chat;
  const link = state.links.find((l) => l.avatar === avatar.name && l.dest === at.dest);
  const roles = at.roles ?? [];
  if (link?.mode !== 'watch' && guildSharesOf(state, at, avatar).some((s) => roles.includes(s.role))) return 'pilot';
  return link ? 'watcher' : 'stranger';
}

/**
 * What the sender may see of an avatar from a chat, one rule for every place that shows it
 * (commands, bridges, the dashboard). An avatar's details go to the chats linked to it and to
 * its owner, pilots and admins; the full text of its direction and its owner's chat identities
 * only to its owner and admins, and to a linked chat (which gets the avatar's news anyway).
 */
export interface Sight {
  /** Its state, goal, position and inventory (`/status`, `/avatars`), and answers to questions. */
  details: boolean;
  /** Its open direction in full (`/direction`); otherwise each line cut short. */
  fullDirection: boolean;
  /** Its owner's chat identities (`discord:<id>` …); otherwise the owner only by name. */
  ownerIdentities: boolean;
}

/**
 * @example
 * sightOf('pilot', false) // → { details: true, fullDirection: false, ownerIdentities: false }
 */
export function sightOf(role: Role, linkedHere: boolean): Sight {
  if (role === 'admin' || role === 'owner') return { details: true, fullDirection: true, ownerIdentities: true };
  if (role === 'stranger') return { details: false, fullDirection: false, ownerIdentities: false };
  return { details: true, fullDirection: linkedHere, ownerIdentities: false };
}

/** What the sender may see of `avatar` from this chat (see {@link sightOf}). */
export function sightFor(state: DeepReadonly<StateFile>, chat: ChatContext, avatar: DeepReadonly<Avatar>, admins: readonly string[]): Sight {
  const here = (chat.openedFrom ?? chat).dest;
  const linkedHere = state.links.some((l) => l.avatar === avatar.name && l.dest === here);
  return sightOf(roleFor(state, chat, avatar, admins), linkedHere);
}

/** What a share is about: one avatar, or a server's avatars. */
export type ShareTarget = { avatar: DeepReadonly<Avatar> } | { server: string };

/**
 * Whether the sender may share (or unshare) `target` with a role of this
 * Discord guild: an admin may share anything, an owner their own avatars (for
 * a server, only theirs: the result's `owner`); on Discord the member must
 * also have Manage Server.
 */
export function mayShare(
  state: DeepReadonly<StateFile>,
  chat: ChatContext,
  admins: readonly string[],
  target: ShareTarget,
): { ok: true; owner: string | undefined } | { ok: false; reason: string } {
  if (chat.platform !== 'discord' || !chat.guild) return { ok: false, reason: 'Sharing is for Discord servers: use it in a channel of the server that should share.' };
  if (chat.canManageGuild !== true) return { ok: false, reason: 'Only a member with the Manage Server permission can share avatars with a role.' };
  if (isAdmin(state, chat, admins)) return { ok: true, owner: undefined };
  const person = personOf(state, chat.from);
  if ('avatar' in target) {
    if (person && target.avatar.owner === person.id) return { ok: true, owner: undefined };
    return { ok: false, reason: `Only ${target.avatar.name}'s owner or an admin can share it.` };
  }
  if (person && state.avatars.some((a) => a.server === target.server && a.owner === person.id)) return { ok: true, owner: person.id };
  return { ok: false, reason: `You own no avatar on server ${target.server}: only an admin or an owner can share.` };
}

/** Roles that may control an avatar (play, stop, goal, direction, link, engine). */
export function canControl(role: Role): boolean {
  return role === 'admin' || role === 'owner' || role === 'pilot';
}

/** Roles that may see an avatar's status and ask it questions. */
export function canWatch(role: Role): boolean {
  return role !== 'stranger';
}

/** Roles that may schedule goals for an avatar and change its schedules: the owner and admins only (not pilots). */
export function canSchedule(role: Role): boolean {
  return role === 'admin' || role === 'owner';
}

/**
 * Whether a person (by id, with no chat at hand: a schedule firing) is an admin
 * or the avatar's owner.
 */
export function isOwnerOrAdmin(state: DeepReadonly<StateFile>, personId: string, avatar: DeepReadonly<Avatar>, admins: readonly string[]): boolean {
  const person = state.persons.find((p) => p.id === personId);
  if (!person) return false;
  if (person.admin || person.identities.some((i) => i === 'console:local' || admins.includes(i))) return true;
  return avatar.owner === person.id;
}
