/**
 * What the goal loops tell the rest of mindlink, as events: every line about
 * an avatar for its chats (`Done:`, `New goal (my choice): …`, `Direction #n
 * done: …`, a death, why it stopped …), each turn's end, a Microsoft
 * sign-in code its owner must type, and the public chat lines an avatar's game
 * heard. One {@link AvatarNews} is shared by every loop and avatar; the
 * poster, the thought streams, the recent lines, the sign-in relay and the
 * chat relay subscribe to it themselves, so nothing in between passes a post on.
 */
import { EventEmitter } from 'node:events';
import type { PlayedBy, TurnKind, TurnReply } from '../engines/engine.ts';
import type { HeardLine } from '../game/game.ts';
import type { SignInCode } from '../game/sign-in.ts';
import type { DonePing, LoopPostKind } from './decide.ts';

/** What one turn did, for observers (the thought stream's one line per turn). */
export interface TurnSummary {
  kind: TurnKind;
  status: 'working' | 'done' | 'blocked';
  /** The skills run during the turn, in order (empty when the engine reports none). */
  actions: NonNullable<TurnReply['actions']>;
  /** The first line of the reply's text, after what the engine said between its tool calls (an agent's commentary). */
  says: string;
  /** Which engine played it, when the avatar's engine is made of others (the hybrid engine). */
  playedBy?: PlayedBy;
}

/** One line about an avatar, for every chat linked to it. */
export interface AvatarPost {
  avatar: string;
  kind: LoopPostKind;
  text: string;
  /** An owner goal's Done: whom it pings, and where it was set; null for anyone else. */
  ping: DonePing | null;
}

/** The events of {@link AvatarNews}. */
export interface AvatarNewsEvents {
  /** A line about an avatar for its chats. */
  post: [post: AvatarPost];
  /** A turn of an avatar ended, with what it did. */
  turnEnded: [avatar: string, summary: TurnSummary];
  /** An avatar's Microsoft sign-in needs a code typed by its owner (it goes to the owner's DMs only). */
  signInCode: [avatar: string, server: string, code: SignInCode];
  /** An avatar whose game hears the chat (some chat relays it) heard a public line. */
  heard: [avatar: string, line: HeardLine];
}

/**
 * @example
 * const news = new AvatarNews();
 * news.on('post', (p) => poster.about(p));
 * news.post('steve', 'done', 'Done: collect 3 oak logs', { person: setterId });
 */
export class AvatarNews extends EventEmitter<AvatarNewsEvents> {
  /** Tell every chat of `avatar` one line. */
  post(avatar: string, kind: LoopPostKind, text: string, ping: DonePing | null = null): void {
    this.emit('post', { avatar, kind, text, ping });
  }
}
