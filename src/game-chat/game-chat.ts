/**
 * The game's chat, bridged (docs/commands.md "The game's chat"): which linked
 * chats relay the public chat an avatar hears (`state.json` `relays`, `/relay`),
 * and which avatars' owners let `/say` send server commands (`sayCommands`,
 * `/say commands on`). Both are written here only. The lines heard come as
 * events on {@link AvatarNews}; only an avatar some chat relays has its game
 * listen ({@link ChatHearing}), so a hundred avatars relayed nowhere send nothing.
 */
import type { HeardLine } from '../game/game.ts';
import type { AvatarNews } from '../loop/news.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Destination, Relay } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { gameChatWriter } from '../store/writers/game-chat.ts';
import { RelayPace, type RelayPaceOptions } from './relay-pace.ts';

/** The avatars' side: whether an avatar's game reports what it hears (`AvatarManager.hearChat`). */
export interface ChatHearing {
  hearChat(avatar: string, on: boolean): void;
}

/** What {@link GameChat} is built from. */
export interface GameChatOptions extends Omit<RelayPaceOptions, 'now'> {
  store: Store;
  /** The lines heard, as events. */
  news: AvatarNews;
  avatars: ChatHearing;
  now?: () => Date;
}

/**
 * How a heard line is posted: a player's as Minecraft shows it, `<alice> hi`; the server's as it is.
 *
 * @example
 * relayedLine({ from: 'alice', text: 'hi' }) // → '<alice> hi'
 */
export function relayedLine(line: HeardLine): string {
  return line.from === null ? line.text : `<${line.from}> ${line.text}`;
}

/**
 * @example
 * const gameChat = new GameChat({ store, news, avatars, post: (dest, avatar, text) => poster.to(dest, avatar, text) });
 * gameChat.relayOn('demo', 'discord:42', personId); // demo's game now reports what it hears; each line reaches discord:42, paced
 */
export class GameChat {
  /** `state.json` `relays` and `sayCommands`: written here only. */
  private readonly records;
  private readonly pace: RelayPace;

  constructor(private readonly opts: GameChatOptions) {
    this.records = gameChatWriter(opts.store);
    const { post, gatherMs, intervalMs, maxLength } = opts;
    this.pace = new RelayPace({ post, ...(gatherMs !== undefined ? { gatherMs } : {}), ...(intervalMs !== undefined ? { intervalMs } : {}), ...(maxLength !== undefined ? { maxLength } : {}) });
    opts.news.on('heard', (avatar, line) => this.heard(avatar, line));
    for (const avatar of new Set(this.records.value.relays.map((r) => r.avatar))) opts.avatars.hearChat(avatar, true);
  }

  private createdAt(): string {
    return (this.opts.now?.() ?? new Date()).toISOString();
  }

  /** Relay `avatar`'s public chat into `dest` (a chat linked to it; the caller checked). False when it is relayed there already. */
  relayOn(avatar: string, dest: Destination, by: string): boolean {
    if (this.relays(avatar, dest)) return false;
    this.records.update((d) => {
      d.relays.push({ avatar, dest, by, createdAt: this.createdAt() });
    });
    this.opts.avatars.hearChat(avatar, true);
    return true;
  }

  /** End the relay of `avatar` into `dest`; false when there was none. */
  relayOff(avatar: string, dest: Destination): boolean {
    return this.drop((r) => r.avatar === avatar && r.dest === dest) > 0;
  }

  /** Whether `avatar`'s public chat is relayed into `dest`. */
  relays(avatar: string, dest: Destination): boolean {
    return this.records.value.relays.some((r) => r.avatar === avatar && r.dest === dest);
  }

  /** Whether `/say` may send lines starting with `/` (server commands) through `avatar`. */
  takesCommands(avatar: string): boolean {
    return this.records.value.sayCommands.some((s) => s.avatar === avatar);
  }

  /** Let `/say` send server commands through `avatar`, or not (its owner decided; the caller checked). False when it was so already. */
  setTakesCommands(avatar: string, on: boolean, by: string): boolean {
    if (this.takesCommands(avatar) === on) return false;
    this.records.update((d) => {
      if (on) d.sayCommands.push({ avatar, by, createdAt: this.createdAt() });
      else d.sayCommands = d.sayCommands.filter((s) => s.avatar !== avatar);
    });
    return true;
  }

  /** A chat was unlinked or is gone: the relays into it end. */
  dropDest(dest: Destination): void {
    this.drop((r) => r.dest === dest);
  }

  /** A chat moved (a Telegram group became a supergroup): the relays into it follow. */
  moveDest(from: Destination, to: Destination): void {
    if (!this.records.value.relays.some((r) => r.dest === from)) return;
    this.pace.drop((dest) => dest === from);
    this.records.update((d) => {
      for (const r of d.relays) if (r.dest === from) r.dest = to;
      // A relay of the same avatar there already stays the one.
      d.relays = d.relays.filter((r, i) => d.relays.findIndex((x) => x.avatar === r.avatar && x.dest === r.dest) === i);
    });
  }

  /** A removed avatar: its relays and its `/say` setting go. Returns how many relays. */
  removeAllFor(avatar: string): number {
    if (this.takesCommands(avatar)) this.setTakesCommands(avatar, false, '');
    return this.drop((r) => r.avatar === avatar);
  }

  /** A renamed avatar: its relays and its `/say` setting follow it. */
  renameAvatar(from: string, to: string): void {
    const { relays, sayCommands } = this.records.value;
    if (!relays.some((r) => r.avatar === from) && !sayCommands.some((s) => s.avatar === from)) return;
    this.pace.drop((_dest, avatar) => avatar === from);
    this.records.update((d) => {
      for (const r of d.relays) if (r.avatar === from) r.avatar = to;
      for (const s of d.sayCommands) if (s.avatar === from) s.avatar = to;
    });
    this.hearingOf(from);
    this.hearingOf(to);
  }

  /** Drop every timer (shutdown); lines waiting are not posted. */
  stop(): void {
    this.pace.stop();
  }

  /** A line `avatar` heard: to each chat relaying it, paced. A relay whose chat is no longer linked to the avatar ends. */
  private heard(avatar: string, line: HeardLine): void {
    const relays = this.records.value.relays.filter((r) => r.avatar === avatar);
    if (relays.length === 0) return;
    const links = this.opts.store.state.data.links;
    for (const relay of relays) {
      if (links.some((l) => l.avatar === avatar && l.dest === relay.dest)) this.pace.add(relay.dest, avatar, relayedLine(line));
      else this.relayOff(avatar, relay.dest);
    }
  }

  /** End the relays that match (and what they had waiting); how many. */
  private drop(match: (r: DeepReadonly<Relay>) => boolean): number {
    const gone = this.records.value.relays.filter(match);
    if (gone.length === 0) return 0;
    this.records.update((d) => {
      d.relays = d.relays.filter((r) => !match(r));
    });
    this.pace.drop((dest, avatar) => gone.some((r) => r.dest === dest && r.avatar === avatar));
    for (const avatar of new Set(gone.map((r) => r.avatar))) this.hearingOf(avatar);
    return gone.length;
  }

  /** Tell the avatars whether `avatar`'s game should hear: while some chat relays it. */
  private hearingOf(avatar: string): void {
    this.opts.avatars.hearChat(avatar, this.records.value.relays.some((r) => r.avatar === avatar));
  }
}
