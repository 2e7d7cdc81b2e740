/**
 * Who is speaking from a chat and what they may do there, decided once for a
 * message: the sender's person, whether they are an admin, their role towards
 * each avatar (through `src/rights.ts`), which avatar a message or command
 * means, and the refusals. {@link People.rightsOf} hands out one per message;
 * the router, the command host and its desks read it instead of asking again.
 */
import type { ChatContext } from '../chat.ts';
import { UserError } from '../errors.ts';
import { canControl, canWatch, isAdmin, personOf, roleFor, sightFor, type Role, type Sight } from '../rights.ts';
import type { Avatar, Person, StateFile } from '../store/schema.ts';
import type { DeepReadonly } from '../store/readonly.ts';

/** The one refusal a stranger gets: it names no avatar. */
export const STRANGER_REFUSAL = "I don't know you yet. Ask an admin of this mindlink to give you access; /help lists what you can do.";

/** What someone mindlink knows (a pilot writing in a DM, say) hears where none of their avatars is: it names no avatar either. */
export const NOTHING_HERE_REFUSAL =
  "No avatar of yours answers here. An avatar shared with you on a Discord server answers in that server's channels; /help lists what you can do here.";

/**
 * The sender's rights from one chat, over the state as it was when they were decided (a change to the
 * state makes {@link People.rightsOf} decide them again).
 *
 * @example
 * const rights = people.rightsOf(msg);
 * const avatar = rights.control('steve'); // throws UserError unless the sender may control steve
 */
export class SenderRights {
  /** The person behind the sender's identity, if mindlink knows them. */
  readonly person: DeepReadonly<Person> | undefined;
  /** Whether the sender is an admin (the console, an ADMINS identity, a paired person). */
  readonly admin: boolean;
  private readonly roles = new Map<DeepReadonly<Avatar>, Role>();

  constructor(
    private readonly state: DeepReadonly<StateFile>,
    readonly chat: ChatContext,
    private readonly admins: readonly string[],
    /** Creates the person behind the sender on first need (see {@link SenderRights.author}). */
    private readonly ensurePerson: () => DeepReadonly<Person>,
  ) {
    this.person = personOf(state, chat.from);
    this.admin = isAdmin(state, chat, admins);
  }

  /** The sender's role towards an avatar. */
  role(avatar: DeepReadonly<Avatar>): Role {
    let role = this.roles.get(avatar);
    if (role === undefined) {
      role = this.admin ? 'admin' : roleFor(this.state, this.chat, avatar, this.admins);
      this.roles.set(avatar, role);
    }
    return role;
  }

  /** Whether the sender may control the avatar from here. */
  mayControl(avatar: DeepReadonly<Avatar>): boolean {
    return canControl(this.role(avatar));
  }

  /** What the sender may see of an avatar from this chat (see `sightOf` in `rights.ts`). */
  sight(avatar: DeepReadonly<Avatar>): Sight {
    return sightFor(this.state, this.chat, avatar, this.admins);
  }

  /** Avatars the sender may know about from this chat (names usable in addressing and commands). */
  visible(): DeepReadonly<Avatar>[] {
    return this.state.avatars.filter((a) => canWatch(this.role(a)));
  }

  /** Whether the sender may control at least one avatar from this chat. */
  controlsAny(): boolean {
    return this.state.avatars.some((a) => this.mayControl(a));
  }

  /** Whether the sender owns at least one avatar. */
  ownsAny(): boolean {
    const person = this.person;
    return person !== undefined && this.state.avatars.some((a) => a.owner === person.id);
  }

  /** Whether mindlink knows the sender at all: an admin, a known person, or someone who may see an avatar from here. */
  knows(): boolean {
    return this.admin || this.person !== undefined || this.visible().length > 0;
  }

  /** Throw the stranger refusal unless mindlink {@link SenderRights.knows} the sender. */
  requireKnown(): void {
    if (!this.knows()) throw new UserError('stranger', STRANGER_REFUSAL);
  }

  /** Throw `message` as a UserError unless the sender is an admin. */
  requireAdmin(message: string): void {
    if (!this.admin) throw new UserError('not_admin', message);
  }

  /**
   * The avatar a command or message means — the named one, or the only candidate — once the sender may see it.
   * Throws a UserError that reveals nothing to someone who may not see the avatar.
   */
  resolve(name?: string | null): DeepReadonly<Avatar> {
    if (name) {
      const n = name.toLowerCase();
      const a = this.state.avatars.find((x) => x.name.toLowerCase() === n);
      if (!a || !canWatch(this.role(a))) {
        if (this.visible().length === 0 && !this.admin) throw this.nothingHere();
        throw new UserError('unknown_avatar', `You have no avatar called "${name}" here. /avatars lists yours.`);
      }
      return a;
    }
    const list = this.candidates();
    if (list.length === 1 && list[0]) return list[0];
    if (list.length > 1) {
      throw new UserError('which_avatar', `Several avatars here: ${list.map((a) => a.name).join(', ')}. Name one, e.g. "${list[0]?.name}: …" or add the name to the command.`);
    }
    if (this.visible().length === 0 && !this.admin) throw this.nothingHere();
    throw new UserError('no_avatar', 'No avatar is linked to this chat. /avatars lists yours; /link <avatar> links one here.');
  }

  /** The avatar a control command or message means (named, or the only one here), once the sender's right to control it is checked. */
  control(name?: string | null): DeepReadonly<Avatar> {
    const avatar = this.resolve(name);
    this.requireControl(avatar);
    return avatar;
  }

  /** Throw unless the sender may control the avatar. */
  requireControl(avatar: DeepReadonly<Avatar>): void {
    const role = this.role(avatar);
    if (canControl(role)) return;
    if (role === 'stranger') throw this.nothingHere();
    throw new UserError('not_allowed', `You can't control ${avatar.name}: ask its owner.`, avatar.name);
  }

  /**
   * The person to record as the author of a goal or direction: a known person, or — for someone who
   * may control (an ADMINS identity, a pilot) — a new one, so goals they set can ping them.
   */
  author(avatar: DeepReadonly<Avatar>): DeepReadonly<Person> | undefined {
    if (this.person) return this.person;
    return this.mayControl(avatar) ? this.ensurePerson() : undefined;
  }

  /** Avatars this chat addresses without a name: those linked here; in a DM or the console, else those the sender owns. */
  private candidates(): DeepReadonly<Avatar>[] {
    const linked = this.state.links.filter((l) => l.dest === this.chat.dest).map((l) => l.avatar);
    const list = this.state.avatars.filter((a) => linked.includes(a.name));
    if (list.length > 0 || this.chat.chatKind === 'group') return list;
    const person = this.person;
    return person ? this.state.avatars.filter((a) => a.owner === person.id) : [];
  }

  /** The refusal for someone who sees no avatar from here: a stranger's, or, for a person mindlink knows, where theirs are. */
  private nothingHere(): UserError {
    return this.person ? new UserError('nothing_here', NOTHING_HERE_REFUSAL) : new UserError('stranger', STRANGER_REFUSAL);
  }
}
