/**
 * Links between avatars and chats (docs/commands.md, `/link`): which chats get an
 * avatar's news, and in which mode. A chat that is gone loses its links; a
 * chat that moved (a Telegram group upgraded to a supergroup) takes them along.
 */
import type { Logger } from 'pino';
import { platformOf, type Outbox } from '../outbox/outbox.ts';
import type { Destination, Identity, Store } from '../store/store.ts';

/**
 * @example
 * links.link('steve', 'telegram:-100123', 'watch');
 * links.unlinkDest('telegram:42', 'bot blocked'); // every avatar, and the chat's pending posts
 */
export class Links {
  constructor(
    private readonly store: Store,
    private readonly outbox: Outbox,
    private readonly log: Logger,
    private readonly now: () => Date,
  ) {}

  /** Link an avatar to a chat (replacing the mode of an existing link); `dmWith`: the identity at the other end of a DM. */
  link(avatar: string, dest: Destination, mode: 'control' | 'watch', guild?: string, dmWith?: Identity): void {
    this.store.state.update((s) => {
      s.links = s.links.filter((l) => !(l.avatar === avatar && l.dest === dest));
      s.links.push({ avatar, dest, mode, createdAt: this.now().toISOString(), ...(guild ? { guild } : {}), ...(dmWith ? { dmWith } : {}) });
    });
  }

  /** Unlink an avatar from a chat. Returns whether a link existed. */
  unlink(avatar: string, dest: Destination): boolean {
    return this.store.state.update((s) => {
      const before = s.links.length;
      s.links = s.links.filter((l) => !(l.avatar === avatar && l.dest === dest));
      return s.links.length < before;
    });
  }

  /** Whether the avatar is linked to the chat. */
  isLinkedTo(avatar: string, dest: Destination): boolean {
    return this.store.state.data.links.some((l) => l.avatar === avatar && l.dest === dest);
  }

  /** Whether any avatar is linked to the chat. */
  isLinked(dest: Destination): boolean {
    return this.store.state.data.links.some((l) => l.dest === dest);
  }

  /** A chat blocked the bot or is gone: unlink it everywhere and drop its posts. */
  unlinkDest(dest: Destination, reason: string): void {
    const removed = this.store.state.update((s) => {
      const before = s.links.length;
      s.links = s.links.filter((l) => l.dest !== dest);
      return before - s.links.length;
    });
    this.outbox.dropDest(dest);
    this.log.warn({ dest, reason, links: removed }, 'chat unreachable: unlinked');
  }

  /**
   * A chat got a new address: every link of `from` points at `to` instead (an avatar already linked
   * to `to` keeps that link, so none is doubled) and its pending posts go there. Calling it again
   * for the same move changes nothing.
   */
  moveDest(from: Destination, to: Destination): void {
    if (from === to) return;
    if (platformOf(from) !== platformOf(to)) throw new Error(`a chat cannot move from ${from} to another platform (${to})`);
    const links = this.store.state.update((s) => {
      const moving = s.links.filter((l) => l.dest === from);
      if (moving.length === 0) return 0;
      const linkedThere = new Set(s.links.filter((l) => l.dest === to).map((l) => l.avatar));
      s.links = s.links.flatMap((l) => (l.dest !== from ? [l] : linkedThere.has(l.avatar) ? [] : [{ ...l, dest: to }]));
      return moving.length;
    });
    const posts = this.outbox.moveDest(from, to).length;
    if (links > 0 || posts > 0) this.log.info({ from, to, links, posts }, 'chat moved: its links and pending posts follow it');
    else this.log.debug({ from, to }, 'chat moved: nothing was linked there');
  }
}
