/**
 * Links between avatars and chats (docs/commands.md, `/link`): which chats get an
 * avatar's news, and in which mode. The one writer of `state.json` `links`. A
 * chat that is gone loses its links; a chat that moved (a Telegram group
 * upgraded to a supergroup) takes them along; a removed avatar's links go, a
 * renamed one's follow it.
 */
import type { Logger } from 'pino';
import type { DeepReadonly } from '../store/readonly.ts';
import { platformOf } from '../store/destination.ts';
import type { Destination, Identity, Link } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { linksWriter } from '../store/writers/links.ts';

/**
 * @example
 * links.link('steve', 'telegram:-100123', 'watch');
 * links.unlinkDest('telegram:42', 'bot blocked'); // every avatar
 */
export class Links {
  private readonly links;

  constructor(
    store: Store,
    private readonly log: Logger,
    private readonly now: () => Date,
  ) {
    this.links = linksWriter(store);
  }

  /** Every link, read-only. */
  all(): readonly DeepReadonly<Link>[] {
    return this.links.value.links;
  }

  /** The links of one avatar. */
  of(avatar: string): readonly DeepReadonly<Link>[] {
    return this.all().filter((l) => l.avatar === avatar);
  }

  /** Link an avatar to a chat (replacing the mode of an existing link); `dmWith`: the identity at the other end of a DM. */
  link(avatar: string, dest: Destination, mode: 'control' | 'watch', guild?: string, dmWith?: Identity): void {
    this.links.update((d) => {
      d.links = d.links.filter((l) => !(l.avatar === avatar && l.dest === dest));
      d.links.push({ avatar, dest, mode, createdAt: this.now().toISOString(), ...(guild ? { guild } : {}), ...(dmWith ? { dmWith } : {}) });
    });
  }

  /** Unlink an avatar from a chat. Returns whether a link existed. */
  unlink(avatar: string, dest: Destination): boolean {
    return this.remove((l) => l.avatar === avatar && l.dest === dest) > 0;
  }

  /** Whether the avatar is linked to the chat. */
  isLinkedTo(avatar: string, dest: Destination): boolean {
    return this.all().some((l) => l.avatar === avatar && l.dest === dest);
  }

  /** Whether any avatar is linked to the chat. */
  isLinked(dest: Destination): boolean {
    return this.all().some((l) => l.dest === dest);
  }

  /** A chat blocked the bot or is gone: unlink it everywhere. */
  unlinkDest(dest: Destination, reason: string): void {
    const removed = this.remove((l) => l.dest === dest);
    this.log.warn({ dest, reason, links: removed }, 'chat unreachable: unlinked');
  }

  /** A removed avatar: every link of it goes. Returns how many. */
  removeAllFor(avatar: string): number {
    return this.remove((l) => l.avatar === avatar);
  }

  /** A renamed avatar: its links follow it. */
  renameAvatar(from: string, to: string): void {
    if (!this.all().some((l) => l.avatar === from)) return;
    this.links.update((d) => {
      for (const l of d.links) if (l.avatar === from) l.avatar = to;
    });
  }

  /**
   * A chat got a new address: every link of `from` points at `to` instead (an avatar already linked
   * to `to` keeps that link, so none is doubled). Calling it again for the same move changes nothing.
   * (Its pending posts follow through the outbox.)
   */
  moveDest(from: Destination, to: Destination): void {
    if (from === to) return;
    if (platformOf(from) !== platformOf(to)) throw new Error(`a chat cannot move from ${from} to another platform (${to})`);
    if (!this.all().some((l) => l.dest === from)) {
      this.log.debug({ from, to }, 'chat moved: nothing was linked there');
      return;
    }
    const links = this.links.update((d) => {
      const moving = d.links.filter((l) => l.dest === from);
      const linkedThere = new Set(d.links.filter((l) => l.dest === to).map((l) => l.avatar));
      d.links = d.links.flatMap((l) => (l.dest !== from ? [l] : linkedThere.has(l.avatar) ? [] : [{ ...l, dest: to }]));
      return moving.length;
    });
    this.log.info({ from, to, links }, 'chat moved: its links follow it');
  }

  /** Remove the links that match; how many went. */
  private remove(match: (l: DeepReadonly<Link>) => boolean): number {
    if (!this.all().some(match)) return 0;
    return this.links.update((d) => {
      const before = d.links.length;
      d.links = d.links.filter((l) => !match(l));
      return before - d.links.length;
    });
  }
}
