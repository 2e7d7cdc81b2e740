/**
 * The chat contracts: a chat platform on one side, the mindlink core on the other.
 *
 * A bridge (`bridges/`) implements {@link Bridge}: it turns platform events
 * into {@link InboundMessage}s / command invocations handed to the
 * {@link BridgeHost} (the message router, `src/router.ts`), and delivers the
 * core's posts. It decides nothing about rights or goals: the core does
 * (`src/people/people.ts`, `src/rights.ts`).
 */
import type { Card, Destination, Identity, Post, SentParts } from './store/schema.ts';

export type { Card, CardAction, SentParts } from './store/schema.ts';

/** The platforms mindlink speaks. */
export type Platform = 'console' | 'telegram' | 'discord' | 'web';

/** Where a message came from and where its replies go. */
export interface ChatContext {
  platform: Platform;
  /** The sender. */
  from: Identity;
  /** The sender's display name (for mentions and new persons). */
  fromName: string;
  /** Where replies go. */
  dest: Destination;
  /** `private`: a DM with the bot; `group`: a group, supergroup or guild channel; `console`: the local console. */
  chatKind: 'private' | 'group' | 'console';
  /** The platform id of the message (replies thread to it), or null. */
  messageId: string | null;
  /**
   * The key of the platform's update that brought it, where the platform delivers an update again until it is
   * told the update was received (Telegram, `telegram:<bot>:<update_id>`): one handled before, delivered again
   * after a restart, is neither applied nor answered twice (`src/handled-updates.ts`).
   */
  updateKey?: string;
  /**
   * When the platform says the message was written (Unix ms), where it says so. A message read
   * late (written while mindlink was down) keeps its place against a scheduled run made up at start.
   */
  sentAt?: number;
  /** Discord: the guild of the channel. */
  guild?: string;
  /** Discord: the sender's role ids in that guild. */
  roles?: string[];
  /** Discord: the sender may manage the guild. */
  canManageGuild?: boolean;
  /**
   * The web dashboard: the chat the page's sign-in link was asked for in (docs/dashboard.md).
   * The sender's rights are those they have in that chat, and what the whole chat should see of
   * an action on the page is posted there too; replies go to the page (`dest`).
   */
  openedFrom?: ChatContext;
}

/** A chat message (not a command) for the core to route. */
export interface InboundMessage extends ChatContext {
  text: string;
  /** The avatar whose post this message replies to, when the platform says so. */
  replyToAvatar?: string;
}

/** A command typed or chosen on a platform. */
export interface CommandInvocation extends ChatContext {
  /** Command name without slash, e.g. `goal`. */
  name: string;
  /** The raw argument text (console/Telegram), parsed by the command's schema. */
  argsText?: string;
  /** Already-structured options (Discord slash commands). */
  options?: Record<string, unknown>;
}

/**
 * A command's answer, for platforms that answer a command in place (Discord
 * interactions) instead of posting the reply to the chat.
 */
export interface CommandAnswer {
  /** The avatar the answer is about (prefix `[name] `), or null. */
  avatar: string | null;
  text: string;
  /** A refusal or an error: shown only to the sender where the platform can. */
  refused: boolean;
  /** An acknowledgement the whole chat should see (a goal set, an avatar created); other answers are for the sender. */
  announce: boolean;
  /** For the sender's eyes only (a sign-in link): never shown to a group. */
  private?: boolean;
  /** The answer as a card (`/status`), for platforms that show one; `text` is its plain form. */
  card?: Card;
}

/**
 * A button pressed on one of mindlink's cards (docs/discord.md "Cards and buttons"), by the person
 * in this context: `action` is the button's id (`stop:steve`). `text` is what a button that asks
 * (`Goal…`) was given, once the platform asked for it.
 */
export interface ActionPress extends ChatContext {
  action: string;
  text?: string;
}

/**
 * What a press comes to; the bridge shows it.
 * - `refused`: only the presser sees `text` (ephemeral, an alert); nothing changed.
 * - `ask`: the button needs text first (the goal): ask the presser with `prompt`, then press again with it.
 * - `update`: show the pressed card again as `card` (`text` is its plain form), edited in place;
 *   `note` is what the press did, in a few words (a toast where the platform has one).
 * - `answer`: answer with a message of its own, as the command it stands for would be answered.
 */
export type PressOutcome =
  | { kind: 'refused'; avatar: string | null; text: string }
  | { kind: 'ask'; avatar: string; prompt: string; placeholder: string }
  | { kind: 'update'; avatar: string; text: string; card: Card; note: string }
  | { kind: 'answer'; answer: CommandAnswer };

/** What a delivery attempt ended with. */
export type DeliveryOutcome =
  /** Accepted by the platform; the ids of the messages it became. */
  | { ok: true; messageIds: string[] }
  /** Try again later (network error, 429 …) after at least `retryAfterMs`. */
  | { ok: false; retry: true; retryAfterMs: number; reason: string }
  /**
   * Never deliverable: drop it. The chat is unlinked (bot blocked, chat gone)
   * unless `keepLink` says only this post was refused (the chat is fine).
   */
  | { ok: false; retry: false; reason: string; keepLink?: boolean }
  /**
   * The chat lives at another address now (a Telegram group upgraded to a
   * supergroup): nothing was delivered; the chat's links and pending posts
   * move to `movedTo` (same platform) and this post is sent there at once.
   * Not a failed attempt: it counts for no backoff.
   */
  | { ok: false; movedTo: Destination; reason: string };

/**
 * A chat platform.
 *
 * @example
 * const bridge = new ConsoleBridge(process.stdin, process.stdout);
 * await bridge.start(core);
 */
export interface Bridge {
  readonly platform: Platform;
  /** Longest message the platform accepts; longer posts are split on line boundaries. */
  readonly maxMessageLength: number;
  /** Connect and start handing events to the core. */
  start(core: BridgeHost): Promise<void>;
  /** Stop taking events and close connections. */
  stop(): Promise<void>;
  /**
   * Send one post (already split to {@link Bridge.maxMessageLength}). A platform that sends a post
   * as several messages starts after `post.sent` (the parts accepted by an earlier attempt, kept in
   * the outbox) and reports each newly accepted part through `progress`, so a retry — after a
   * restart too — sends only the rest.
   */
  deliver(post: Post, parts: string[], progress?: (sent: SentParts) => void): Promise<DeliveryOutcome>;
  /**
   * Show that mindlink is writing in a chat (Discord's typing indicator, Telegram's `typing` action), refreshed as
   * the platform needs, until the returned function is called; a message the bridge delivers there meanwhile does
   * not end it, and no indicator is sent after a message it delivers once it has ended. A platform without one leaves it out.
   */
  typing?(dest: Destination): () => void;
  /** Open a thread under a chat (Discord) and return its destination; a platform without threads leaves it out. */
  openThread?(dest: Destination, name: string): Promise<Destination>;
  /**
   * The DM with a user of this platform, opened if new (Discord: a DM channel has its own id); a platform
   * whose DM is the user's own id (Telegram) or has none leaves it out.
   */
  openDm?(user: Identity): Promise<Destination>;
}

/**
 * What the core offers a bridge.
 *
 * `handleMessage`, `runCommand` and `notRead` resolve once the message is accepted: for one with an
 * `updateKey`, once its change (a goal, a direction) and its reply are on disk, or the disk refused them and
 * the chat was told; a question once it is handed to the avatar's turn; a command that waits on the network
 * once it started. A bridge whose platform delivers again what it was not told was received tells it then.
 */
export interface BridgeHost {
  /** Route a chat message (goal, question, direction, `stop`); resolves once it is accepted. Never throws. */
  handleMessage(msg: InboundMessage): Promise<void>;
  /** Run a command; resolves once it is accepted. Never throws; the reply is posted to `inv.dest`. */
  runCommand(inv: CommandInvocation): Promise<void>;
  /**
   * Someone sent the bot something mindlink does not read — `what` says what, e.g. `a sticker`,
   * `a photo`, `an edit` — and gets a one-line reply saying what it reads. Never throws.
   * A bridge calls it only for what is meant for the bot (a DM, or a reply to one of its posts).
   */
  notRead(chat: ChatContext, what: string): Promise<void>;
  /**
   * The platform announced that the chat at `from` now lives at `to` (a
   * Telegram group upgraded to a supergroup): every link of `from` points at
   * `to` and its pending posts go there. Safe to call twice for one move.
   */
  chatMoved?(from: Destination, to: Destination): void;
  /** Run a command and hand back its answer instead of posting it. Never throws. */
  answerCommand(inv: CommandInvocation): Promise<CommandAnswer>;
  /**
   * A button was pressed on one of mindlink's cards: it runs the command it stands for, with the presser's
   * rights, and says how to show the outcome. Never throws.
   */
  press(press: ActionPress): Promise<PressOutcome>;
  /** The names of the avatars the sender may see from this chat (for autocompletion). */
  avatarNames(chat: ChatContext): string[];
  /** Whether any avatar is linked to the chat (a bridge that sees every message of a guild takes only these). */
  isLinked(dest: Destination): boolean;
  /**
   * Where each chat of `platform` was read up to (the newest message id the bridge handed over),
   * kept across restarts: a bridge whose platform does not replay what came while mindlink was
   * down (Discord) reads on from there when it connects.
   */
  readMarks?(platform: Platform): ReadonlyMap<Destination, string>;
  /** The bridge handed over message `id` of `dest` (a numeric platform id); an id older than the mark changes nothing. */
  markRead?(dest: Destination, id: string): void;
}
