/**
 * The message router: what every bridge talks to ({@link BridgeHost}). A chat
 * message is cleaned once where it enters, checked (length), addressed (a
 * name, a reply, or the only avatar here) with the sender's rights decided
 * once, classified (README "Talking to an avatar") and handed to the command
 * host: a lone `stop` runs the `/stop` command, `Goal: …` the host's `setGoal`
 * (as `/goal` does), a question the host's `ask` in its own short turn,
 * anything else the host's `addDirection`. Commands go to the dispatcher, and
 * so do buttons pressed on cards (`src/press.ts`). While someone waits on the
 * engine (a question's answer, the turn their goal or direction woke), their
 * chat shows typing. Every reply and every error goes back to the chat here,
 * the one catch of this boundary. A message the platform may deliver again
 * (`updateKey`) is handled once (`src/handled-updates.ts`), and accepted once
 * its change and its reply are on disk.
 */
import type { Logger } from 'pino';
import type { ActionPress, BridgeHost, ChatContext, CommandAnswer, CommandInvocation, InboundMessage, Platform, PressOutcome } from './chat.ts';
import type { CommandDispatcher, CommandHost, CommandReply } from './command-host.ts';
import { errorRef, UserError } from './errors.ts';
import { characterCount, classifyMessage, emptyMessageReason, isTooLong, MAX_MESSAGE_LENGTH, splitAddress, unknownAddress } from './classify.ts';
import type { HandledUpdates } from './handled-updates.ts';
import type { Outbox } from './outbox/outbox.ts';
import type { Poster } from './outbox/poster.ts';
import { pressAction } from './press.ts';
import { replyPrivately } from './private-reply.ts';
import type { Links } from './people/links.ts';
import { STRANGER_REFUSAL, type People } from './people/people.ts';
import type { ReadMarks } from './read-marks.ts';
import type { RecentActivity } from './recent.ts';
import { cleanChatInput } from './sanitize.ts';
import type { Destination } from './store/schema.ts';
import type { Store } from './store/store.ts';

/** The refusal of a message over the limit. */
function tooLong(text: string): UserError {
  return new UserError('too_long', `That message is ${characterCount(text)} characters; the limit is ${MAX_MESSAGE_LENGTH}. Nothing was stored: send it shorter.`);
}

/** The parts the router hands messages to. */
export interface RouterParts {
  people: People;
  links: Links;
  /** Where each chat was read up to, for a bridge that reads on after a restart. */
  readMarks: ReadMarks;
  poster: Poster;
  /** Everything kept about a chat that moved (its links, relays and the posts on their way) follows it; returns how many posts moved. */
  chatMoved(from: Destination, to: Destination): number;
  /** The posts on their way: a reply waits for them to be on disk. */
  outbox: Outbox;
  /** Messages a platform may deliver again that were handled: none is applied or answered twice. */
  handled: HandledUpdates;
  commands: CommandDispatcher;
  host: CommandHost;
  log: Logger;
  /** Nothing is acknowledged before it is on disk: each reply to a change waits for the store first. */
  store: Store;
  /** Each avatar's latest lines for the dashboard: a reply that tells a change to the avatar is one of them. */
  recent: RecentActivity;
  /** Show typing in a chat until the returned function is called (a no-op where its platform has none). */
  typing(dest: Destination): () => void;
}

/**
 * @example
 * const router = new MessageRouter(parts);
 * await bridge.start(router);
 */
export class MessageRouter implements BridgeHost {
  constructor(private readonly parts: RouterParts) {}

  /** Route a chat message: goal, question, direction or a lone `stop`; resolves once it is accepted. Never throws. */
  async handleMessage(raw: InboundMessage): Promise<void> {
    // Control characters never enter raw (src/sanitize.ts).
    const msg = cleanChatInput(raw);
    try {
      if (!this.handledBefore(msg)) await this.route(msg);
    } catch (err) {
      this.replyError(msg, err);
    }
    await this.accepted(msg);
  }

  /**
   * Run a command; the reply is posted to the chat (a private one to the sender alone, `src/private-reply.ts`).
   * One that waits on the network (`/server add`) is not waited for: the chat's next lines are handled
   * meanwhile, and its reply comes when it is done. Never throws.
   */
  async runCommand(raw: CommandInvocation): Promise<void> {
    const inv = cleanChatInput(raw);
    if (this.handledBefore(inv)) return this.accepted(inv);
    if (!this.parts.commands.detached(inv)) {
      await this.runCleaned(inv);
      return this.accepted(inv);
    }
    void this.runCleaned(inv).catch((err: unknown) => this.parts.log.error({ err, command: inv.name }, 'posting the reply of a command failed'));
  }

  /** Run a cleaned invocation and post its reply. Never throws. */
  private async runCleaned(inv: CommandInvocation): Promise<void> {
    const answer = await this.answer(inv);
    if (answer.private) replyPrivately(this.parts.poster, inv, answer);
    else this.parts.poster.reply(inv, answer.avatar, answer.text, answer.card);
  }

  /** A button pressed on a card: the command it stands for, with the presser's rights (`src/press.ts`). Never throws. */
  async press(raw: ActionPress): Promise<PressOutcome> {
    const press = cleanChatInput(raw);
    const failure = (chat: ChatContext, err: unknown): { avatar: string | null; text: string } => this.errorAnswer(chat, err);
    try {
      return await pressAction(press, { host: this.parts.host, answer: (inv) => this.answer(inv), failure });
    } catch (err) {
      return { kind: 'refused', ...failure(press, err) };
    }
  }

  /**
   * Run a command and hand back its answer instead of posting it (Discord answers interactions in place,
   * the dashboard shows it on the page). Never throws.
   */
  async answerCommand(raw: CommandInvocation): Promise<CommandAnswer> {
    return this.answer(cleanChatInput(raw));
  }

  /** Run a cleaned invocation; its answer. Never throws. */
  private async answer(inv: CommandInvocation): Promise<CommandAnswer> {
    try {
      const mark = this.parts.store.mark();
      this.parts.people.seen(inv);
      const reply = await this.parts.commands.run(inv, this.parts.host);
      // Kept as soon as the command ran: a command that wrote its change before it returned may run again if delivered
      // again after a kill in between. A private answer (a token, a sign-in link) is never kept: such a command runs again.
      if (inv.updateKey !== undefined && reply.private !== true && this.parts.store.changedSince(mark)) {
        this.parts.handled.record(inv.updateKey, { avatar: reply.avatar, text: reply.text });
      }
      // A command that changed something answers only once the change is on disk ("Could not save: …" otherwise).
      await this.parts.store.saved(mark, reply.avatar);
      this.noteNews(reply);
      const announce = reply.announce === true;
      if (announce) this.announceAtOrigin(inv, reply);
      return { avatar: reply.avatar, text: reply.text, refused: false, announce, private: reply.private === true, ...(reply.card ? { card: reply.card } : {}) };
    } catch (err) {
      return { ...this.errorAnswer(inv, err), refused: true, announce: false };
    }
  }

  /** A reply that tells a change to its avatar (a goal set, played, stopped) goes to the avatar's latest lines too. */
  private noteNews(reply: CommandReply): void {
    if (reply.news && reply.avatar) this.parts.recent.posted(reply.avatar, reply.news, reply.text);
  }

  /** An action on a dashboard page is seen in the chat the page was opened from as if it was sent there. */
  private announceAtOrigin(chat: ChatContext, reply: CommandReply): void {
    if (chat.openedFrom) this.parts.poster.reply({ ...chat.openedFrom, messageId: null }, reply.avatar, reply.text);
  }

  /** The names of the avatars the sender may see from this chat. */
  avatarNames(chat: ChatContext): string[] {
    return this.parts.people.rightsOf(chat).visible().map((a) => a.name);
  }

  /** Whether any avatar is linked to the chat. */
  isLinked(dest: Destination): boolean {
    return this.parts.links.isLinked(dest);
  }

  /** Where each chat of the platform was read up to. */
  readMarks(platform: Platform): ReadonlyMap<Destination, string> {
    return this.parts.readMarks.of(platform);
  }

  /** The bridge handed over message `id` of `dest`. */
  markRead(dest: Destination, id: string): void {
    this.parts.readMarks.mark(dest, id);
  }

  /** Something that is not a new text message (a sticker, a photo, an edit): say what mindlink reads. Never throws. */
  async notRead(chat: ChatContext, what: string): Promise<void> {
    if (!this.handledBefore(chat)) {
      this.parts.poster.reply(chat, null, `I read new text messages only, so I can't take ${what}. Write your goal, question or direction as text; /help lists the commands.`);
    }
    await this.accepted(chat);
  }

  /**
   * A message its platform delivered again (a restart came before the platform was told it was received):
   * answered before, nothing more is done; its change stored but its reply not, that reply is posted. True
   * when it was handled before.
   */
  private handledBefore(chat: ChatContext): boolean {
    const key = chat.updateKey;
    const before = key === undefined ? undefined : this.parts.handled.before(key);
    if (before === undefined) return false;
    const answered = before === 'answered';
    this.parts.log.info({ update: key, dest: chat.dest, answered }, 'a message delivered again was handled before: not again');
    if (!answered) this.parts.poster.reply(chat, before.avatar, before.text);
    return true;
  }

  /**
   * A message its platform may deliver again is accepted once its reply is on disk too (its change was before the
   * reply was made), so the platform may be told it was received. A disk that refuses does not hold it back: the
   * chat was told "Could not save", and holding it would hold every chat's next messages.
   */
  private async accepted(chat: ChatContext): Promise<void> {
    const key = chat.updateKey;
    if (key === undefined) return;
    try {
      await this.parts.outbox.saved();
      this.parts.handled.settled(key);
    } catch (err) {
      this.parts.log.warn({ err, update: key }, 'the reply to a message is not on disk; it is accepted anyway');
    }
  }

  /** The platform announced a chat's new address: its links and pending posts follow it. */
  chatMoved(from: Destination, to: Destination): void {
    const posts = this.parts.chatMoved(from, to);
    if (posts > 0) this.parts.log.info({ from, to, posts }, 'chat moved: its pending posts follow it');
  }

  private async route(msg: InboundMessage): Promise<void> {
    const { host, people, poster, store } = this.parts;
    people.seen(msg);
    if (isTooLong(msg.text)) throw tooLong(msg.text);
    const rights = people.rightsOf(msg);
    const names = rights.visible().map((a) => a.name);
    const addressed = splitAddress(msg.text, names);
    // `nobody: Goal: …` or `demoo: …` is a slip, not a direction for the only avatar (names are only told to who sees some).
    const unknown = addressed.name || names.length === 0 ? null : unknownAddress(msg.text, names);
    if (unknown) {
      const hint = unknown.closest ? ` (did you mean ${unknown.closest}?)` : `; avatars here: ${names.join(', ')}`;
      throw new UserError('unknown_avatar', `There is no avatar called "${unknown.name}" here${hint}. Nothing was stored.`);
    }
    const avatar = rights.resolve(addressed.name ?? msg.replyToAvatar ?? null);
    if (rights.role(avatar) === 'stranger') throw new UserError('stranger', STRANGER_REFUSAL);
    const empty = emptyMessageReason(addressed.rest, addressed.name);
    if (empty) throw new UserError('empty_message', empty, avatar.name);
    const { kind, text } = classifyMessage(addressed.rest);

    switch (kind) {
      case 'stop':
        return this.runCleaned({ ...msg, name: 'stop', options: { avatar: avatar.name } });
      case 'goal': {
        if (!text.trim()) throw new UserError('empty_goal', 'Say what the goal is, e.g. "Goal: collect 10 oak logs".', avatar.name);
        const mark = store.mark();
        const a = host.control(msg, avatar.name);
        const reply = a.setGoal(text);
        this.recordChange(msg, reply);
        await store.saved(mark, reply.avatar);
        this.noteNews(reply);
        // A goal is announced as `/goal`'s reply is.
        this.announceAtOrigin(msg, reply);
        poster.reply(msg, reply.avatar, reply.text);
        this.typeUntil(msg.dest, a.wokenTurn());
        return;
      }
      case 'question': {
        const stopped = this.stoppedReply(msg, avatar.name);
        if (stopped) {
          poster.reply(msg, stopped.avatar, stopped.text);
          return;
        }
        // Answered in its own turn; the reply comes when the engine has it, without holding up the chat.
        // The chat shows typing meanwhile, ended before the answer is posted (the answer ends it on the platform).
        const typed = this.parts.typing(msg.dest);
        void this.askAvatar(msg, avatar.name, text)
          .then((answer) => {
            typed();
            poster.reply(msg, answer.avatar, answer.text);
          })
          .catch((err: unknown) => {
            typed();
            this.replyError(msg, err, avatar.name);
          });
        return;
      }
      case 'direction': {
        const reply = await this.direct(msg, avatar.name, text);
        poster.reply(msg, reply.avatar, reply.text);
        this.typeUntil(msg.dest, host.control(msg, avatar.name).wokenTurn());
        return;
      }
    }
  }

  /**
   * A question or a direction for an avatar, named or the only one the sender means here, when the caller
   * knows which it is (a tool of the people's MCP server, docs/mcp.md): taken as chat takes one of that kind,
   * and its answer handed back instead of posted. A question waits for the avatar's answer. Never throws.
   */
  async answerMessage(raw: InboundMessage, avatar: string | null, kind: 'question' | 'direction'): Promise<CommandAnswer> {
    const msg = cleanChatInput(raw);
    try {
      const { people } = this.parts;
      people.seen(msg);
      if (isTooLong(msg.text)) throw tooLong(msg.text);
      const rights = people.rightsOf(msg);
      const target = rights.resolve(avatar);
      if (rights.role(target) === 'stranger') throw new UserError('stranger', STRANGER_REFUSAL);
      const empty = emptyMessageReason(msg.text, null);
      if (empty) throw new UserError('empty_message', empty, target.name);
      const text = msg.text.trim();
      const reply = kind === 'direction' ? await this.direct(msg, target.name, text) : (this.stoppedReply(msg, target.name) ?? (await this.askAvatar(msg, target.name, text)));
      return { avatar: reply.avatar, text: reply.text, refused: false, announce: false };
    } catch (err) {
      return { ...this.errorAnswer(msg, err), refused: true, announce: false };
    }
  }

  /** What a question to a stopped avatar gets (it cannot look around), or null while it plays. */
  private stoppedReply(chat: ChatContext, name: string): { avatar: string; text: string } | null {
    const a = this.parts.host.watch(chat, name);
    if (a.isPlaying()) return null;
    const how = this.parts.host.mayControl(chat, a) ? ` /play ${a.name} starts me.` : '';
    return { avatar: a.name, text: `I'm stopped, so I can't look around.${how}` };
  }

  /** A question answered in the avatar's own short turn. */
  private async askAvatar(chat: ChatContext, name: string, question: string): Promise<{ avatar: string; text: string }> {
    const a = this.parts.host.watch(chat, name);
    return { avatar: a.name, text: await a.ask(question) };
  }

  /** An owner direction stored (once it is on disk); the reply with its number. */
  private async direct(chat: ChatContext, name: string, text: string): Promise<CommandReply> {
    const { host, store } = this.parts;
    const mark = store.mark();
    const reply = host.control(chat, name).addDirection(text);
    this.recordChange(chat, reply);
    await store.saved(mark, reply.avatar);
    return reply;
  }

  /** A change a message made, with its reply, for the platform that may deliver the message again: in the change's tick, so one write carries both. */
  private recordChange(chat: ChatContext, reply: CommandReply): void {
    if (chat.updateKey !== undefined) this.parts.handled.record(chat.updateKey, { avatar: reply.avatar, text: reply.text });
  }

  /** The chat shows typing until the turn the sender's message woke has ended (none when no turn comes: a stopped avatar). */
  private typeUntil(dest: Destination, turn: Promise<void> | null): void {
    if (!turn) return;
    void turn.finally(this.parts.typing(dest));
  }

  private replyError(chat: ChatContext, err: unknown, avatar: string | null = null): void {
    const answer = this.errorAnswer(chat, err, avatar);
    this.parts.poster.reply(chat, answer.avatar, answer.text);
  }

  /** What a chat may see of a failure: a UserError's text, else a reference to the log line. */
  private errorAnswer(chat: ChatContext, err: unknown, avatar: string | null = null): { avatar: string | null; text: string } {
    if (err instanceof UserError) return { avatar: err.avatar ?? avatar, text: err.message };
    const ref = errorRef();
    this.parts.log.error({ err, ref, from: chat.from }, 'handler failed');
    return { avatar, text: `Something went wrong (ref ${ref}).` };
  }
}
