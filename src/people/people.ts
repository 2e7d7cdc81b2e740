/**
 * People: the persons behind chat identities, and what a sender may do with
 * an avatar from the chat they write in — the one place rights are checked
 * (through `src/rights.ts`), for the message router and the command host alike.
 * It also resolves which avatar a message or command means.
 */
import { randomBytes } from 'node:crypto';
import type { ChatContext } from '../chat.ts';
import { UserError } from '../errors.ts';
import { canControl, canWatch, isAdmin, personOf, roleFor, sightFor, type Role, type Sight } from '../rights.ts';
import type { Avatar, Person, Store } from '../store/store.ts';

/** A name that is a chat identity (`discord:80351110224678912`): a person known only by id, not yet by name. */
const IDENTITY_NAME = /^(telegram|discord|console):/;

/** How each platform's people are called before mindlink has seen their name. */
const UNNAMED: Record<string, string> = { telegram: 'a Telegram user', discord: 'a Discord user', console: 'console' };

/**
 * How a person is shown in chat: their platform display name, never a raw id. Someone mindlink
 * knows only by an identity (given an avatar with `/owner … discord:<id>` before they ever wrote)
 * is "a Discord user" until they write.
 *
 * @example
 * displayName({ id: 'p1', name: 'discord:80351110224678912', identities: ['discord:80351110224678912'], admin: false }) // → 'a Discord user'
 */
export function displayName(person: Person | undefined): string {
  if (!person) return 'someone';
  const platform = IDENTITY_NAME.exec(person.name)?.[1];
  if (platform === undefined && person.name.trim() !== '') return person.name;
  return UNNAMED[platform ?? person.identities[0]?.split(':')[0] ?? ''] ?? 'someone';
}

/** The one refusal a stranger gets: it names no avatar. */
export const STRANGER_REFUSAL = "I don't know you yet. Ask an admin of this mindlink to give you access; /help lists what you can do.";

/** What someone mindlink knows (a pilot writing in a DM, say) hears where none of their avatars is: it names no avatar either. */
export const NOTHING_HERE_REFUSAL =
  "No avatar of yours answers here. An avatar shared with you on a Discord server answers in that server's channels; /help lists what you can do here.";

/**
 * @example
 * const people = new People(store, config.ADMINS);
 * const avatar = people.controlledAvatar(chat, 'steve'); // throws UserError unless the sender may control steve
 */
export class People {
  constructor(
    private readonly store: Store,
    private readonly admins: readonly string[],
  ) {}

  /** The person behind an identity, if known. */
  personOf(identity: string): Person | undefined {
    return personOf(this.store.state.data, identity);
  }

  /**
   * Someone wrote under `name`: a person mindlink knew only by id (given an avatar with `/owner`
   * before they ever wrote) takes it as their name. Returns the person, if known.
   */
  noteName(identity: string, name: string): Person | undefined {
    const person = this.personOf(identity);
    if (person && IDENTITY_NAME.test(person.name) && name.trim() !== '' && !IDENTITY_NAME.test(name)) {
      this.store.state.update(() => {
        person.name = name;
      });
    }
    return person;
  }

  /**
   * Someone wrote: their name is noted (see {@link People.noteName}), and a pilot becomes a known
   * person, so that where they pilot nothing (a DM) they are told where they do, not that mindlink
   * does not know them.
   */
  seen(chat: ChatContext): void {
    if (this.noteName(chat.from, chat.fromName)) return;
    if (this.controlsAny(chat)) this.ensurePerson(chat.from, chat.fromName);
  }

  /** A person by id. */
  byId(id: string): Person | undefined {
    return this.store.state.data.persons.find((p) => p.id === id);
  }

  /** The person behind an identity, created on first need (see {@link People.noteName}). */
  ensurePerson(identity: string, name: string): Person {
    const existing = this.noteName(identity, name);
    if (existing) return existing;
    const person: Person = { id: `p${Date.now().toString(36)}${randomBytes(2).toString('hex')}`, name, identities: [identity], admin: false };
    this.store.state.update((s) => s.persons.push(person));
    return person;
  }

  /** Display name of a person id (see {@link displayName}): never a raw id. */
  personName(id: string | null): string {
    return displayName(id ? this.byId(id) : undefined);
  }

  /** Whether the chat's sender is an admin. */
  isAdmin(chat: ChatContext): boolean {
    return isAdmin(this.store.state.data, chat, this.admins);
  }

  /** Throw `message` as a UserError unless the sender is an admin. */
  requireAdmin(chat: ChatContext, message: string): void {
    if (!this.isAdmin(chat)) throw new UserError('not_admin', message);
  }

  /** The sender's role towards an avatar. */
  roleFor(chat: ChatContext, avatar: Avatar): Role {
    return roleFor(this.store.state.data, chat, avatar, this.admins);
  }

  /** What the sender may see of an avatar from this chat (see `sightOf` in `rights.ts`). */
  sight(chat: ChatContext, avatar: Avatar): Sight {
    return sightFor(this.store.state.data, chat, avatar, this.admins);
  }

  /** Whether mindlink knows the sender at all: an admin, a known person, or someone who may see an avatar from here. */
  knows(chat: ChatContext): boolean {
    return this.isAdmin(chat) || this.visible(chat).length > 0 || this.personOf(chat.from) !== undefined;
  }

  /** Throw the stranger refusal unless {@link People.knows} the sender. */
  requireKnown(chat: ChatContext): void {
    if (!this.knows(chat)) throw new UserError('stranger', STRANGER_REFUSAL);
  }

  /** Avatars the sender may know about from this chat (names usable in addressing and commands). */
  visible(chat: ChatContext): Avatar[] {
    return this.store.state.data.avatars.filter((a) => canWatch(this.roleFor(chat, a)));
  }

  /** Whether the sender may control at least one avatar from this chat. */
  controlsAny(chat: ChatContext): boolean {
    return this.store.state.data.avatars.some((a) => canControl(this.roleFor(chat, a)));
  }

  /** Whether the sender owns at least one avatar. */
  ownsAny(chat: ChatContext): boolean {
    const person = this.personOf(chat.from);
    return person !== undefined && this.store.state.data.avatars.some((a) => a.owner === person.id);
  }

  /** Avatars this chat addresses without a name: those linked here; in a DM or the console, else those the sender owns. */
  private candidates(chat: ChatContext): Avatar[] {
    const s = this.store.state.data;
    const linked = s.links.filter((l) => l.dest === chat.dest).map((l) => l.avatar);
    const list = s.avatars.filter((a) => linked.includes(a.name));
    if (list.length > 0 || chat.chatKind === 'group') return list;
    const person = this.personOf(chat.from);
    return person ? s.avatars.filter((a) => a.owner === person.id) : [];
  }

  /**
   * The avatar a command or message means — the named one, or the only candidate — once the sender may see it.
   * Throws a UserError that reveals nothing to someone who may not see the avatar.
   */
  resolveAvatar(chat: ChatContext, name?: string | null): Avatar {
    if (name) {
      const n = name.toLowerCase();
      const a = this.store.state.data.avatars.find((x) => x.name.toLowerCase() === n);
      if (!a || !canWatch(this.roleFor(chat, a))) {
        if (this.visible(chat).length === 0 && !this.isAdmin(chat)) throw this.nothingHere(chat);
        throw new UserError('unknown_avatar', `You have no avatar called "${name}" here. /avatars lists yours.`);
      }
      return a;
    }
    const list = this.candidates(chat);
    if (list.length === 1 && list[0]) return list[0];
    if (list.length > 1) {
      throw new UserError('which_avatar', `Several avatars here: ${list.map((a) => a.name).join(', ')}. Name one, e.g. "${list[0]?.name}: …" or add the name to the command.`);
    }
    if (this.visible(chat).length === 0 && !this.isAdmin(chat)) throw this.nothingHere(chat);
    throw new UserError('no_avatar', 'No avatar is linked to this chat. /avatars lists yours; /link <avatar> links one here.');
  }

  /** The refusal for someone who sees no avatar from here: a stranger's, or, for a person mindlink knows, where theirs are. */
  private nothingHere(chat: ChatContext): UserError {
    return this.personOf(chat.from) ? new UserError('nothing_here', NOTHING_HERE_REFUSAL) : new UserError('stranger', STRANGER_REFUSAL);
  }

  /** The avatar a control command or message means (named, or the only one here), once the sender's right to control it is checked. */
  controlledAvatar(chat: ChatContext, name?: string | null): Avatar {
    const avatar = this.resolveAvatar(chat, name);
    this.requireControl(chat, avatar);
    return avatar;
  }

  /** Throw unless the sender may control the avatar. */
  requireControl(chat: ChatContext, avatar: Avatar): void {
    const role = this.roleFor(chat, avatar);
    if (canControl(role)) return;
    if (role === 'stranger') throw this.nothingHere(chat);
    throw new UserError('not_allowed', `You can't control ${avatar.name}: ask its owner.`, avatar.name);
  }

  /**
   * The person to record as the author of a goal or direction: a known person, or — for someone who
   * may control (an ADMINS identity, a pilot) — a new one, so goals they set can ping them.
   */
  author(chat: ChatContext, avatar: Avatar): Person | undefined {
    const known = this.personOf(chat.from);
    if (known) return known;
    if (canControl(this.roleFor(chat, avatar))) return this.ensurePerson(chat.from, chat.fromName);
    return undefined;
  }
}
