/**
 * Who may do what (SPEC "Who may do what"), decided in one place for every bridge.
 */
import type { ChatContext } from './chat.ts';
import type { Avatar, Person, StateFile } from './store/schema.ts';

/** A person's role towards one avatar, from strongest to weakest. */
export type Role = 'admin' | 'owner' | 'pilot' | 'watcher' | 'stranger';

/** The person behind a chat identity, if known. */
export function personOf(state: StateFile, identity: string): Person | undefined {
  return state.persons.find((p) => p.identities.includes(identity));
}

/** Whether the sender is an admin: the local console always, identities in ADMINS, or a paired person. */
export function isAdmin(state: StateFile, chat: ChatContext, admins: readonly string[]): boolean {
  if (chat.from === 'console:local') return true;
  if (admins.includes(chat.from)) return true;
  return personOf(state, chat.from)?.admin === true;
}

/**
 * The sender's role towards `avatar`, seen from this chat.
 *
 * - admin: everything;
 * - owner: the avatar's owner, from any chat;
 * - pilot: a Discord member with the role the guild shares the avatar's server to, in a channel of that guild linked to the avatar;
 * - watcher: anyone else in a chat linked to the avatar;
 * - stranger: anyone else.
 */
export function roleFor(state: StateFile, chat: ChatContext, avatar: Avatar, admins: readonly string[]): Role {
  if (isAdmin(state, chat, admins)) return 'admin';
  const person = personOf(state, chat.from);
  if (person && person.id === avatar.owner) return 'owner';
  const link = state.links.find((l) => l.avatar === avatar.name && l.dest === chat.dest);
  if (!link) return 'stranger';
  if (chat.platform === 'discord' && chat.guild && chat.roles) {
    const shared = state.shares.some(
      (s) => s.guild === chat.guild && s.server === avatar.server && chat.roles?.includes(s.role),
    );
    if (shared && link.mode === 'control') return 'pilot';
  }
  return 'watcher';
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
export function isOwnerOrAdmin(state: StateFile, personId: string, avatar: Avatar, admins: readonly string[]): boolean {
  const person = state.persons.find((p) => p.id === personId);
  if (!person) return false;
  if (person.admin || person.identities.some((i) => i === 'console:local' || admins.includes(i))) return true;
  return avatar.owner === person.id;
}
