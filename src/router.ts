/**
 * The message router: what every bridge talks to ({@link BridgeHost}). A chat
 * message is checked (length), addressed (a name, a reply, or the only avatar
 * here), classified (seed 000 "Talking to your avatar") and handed on: a
 * lone `stop` and `Goal: …` run the `/stop` and `/goal` commands, a question
 * gets its own short turn, anything else becomes an owner direction. Commands
 * go to the dispatcher. Every reply and every error goes back to the chat
 * here, the one catch of this boundary.
 */
import type { Logger } from 'pino';
import type { AvatarManager } from './avatars/manager.ts';
import type { BridgeHost, ChatContext, CommandAnswer, CommandInvocation, InboundMessage, Platform } from './chat.ts';
import type { CommandDispatcher, CommandHost } from './command-host.ts';
import { errorRef, UserError } from './errors.ts';
import { characterCount, classifyMessage, emptyMessageReason, isTooLong, MAX_MESSAGE_LENGTH, splitAddress, unknownAddress } from './loop/classify.ts';
import { notedReply } from './loop/directions.ts';
import type { Poster } from './outbox/poster.ts';
import { replyPrivately } from './private-reply.ts';
import type { Links } from './people/links.ts';
import { STRANGER_REFUSAL, type People } from './people/people.ts';
import type { ReadMarks } from './read-marks.ts';
import { canControl } from './rights.ts';
import { cleanChatInput } from './sanitize.ts';
import type { Destination } from './store/schema.ts';
import type { Store } from './store/store.ts';

/** The parts the router hands messages to. */
export interface RouterParts {
  avatars: AvatarManager;
  people: People;
  links: Links;
  /** Where each chat was read up to, for a bridge that reads on after a restart. */
  readMarks: ReadMarks;
  poster: Poster;
  commands: CommandDispatcher;
  host: CommandHost;
  log: Logger;
  /** Nothing is acknowledged before it is on disk: each reply to a change waits for the store first. */
  store: Store;
}

/**
 * @example
 * const router = new MessageRouter(parts);
 * await bridge.start(router);
 */
export class MessageRouter implements BridgeHost {
  constructor(private readonly p: RouterParts) {}

  /** Route a chat message: goal, question, direction or a lone `stop`. Never throws. */
  async handleMessage(raw: InboundMessage): Promise<void> {
    // Control characters never enter raw (src/sanitize.ts).
    const msg = cleanChatInput(raw);
    try {
      await this.route(msg);
    } catch (err) {
      this.replyError(msg, err);
    }
  }

  /** Run a command; the reply is posted to the chat (a private one to the sender alone, `src/private-reply.ts`). Never throws. */
  async runCommand(raw: CommandInvocation): Promise<void> {
    const answer = await this.answerCommand(raw);
    const chat = cleanChatInput(raw);
    if (answer.private) replyPrivately(this.p.poster, chat, answer);
    else this.p.poster.reply(chat, answer.avatar, answer.text);
  }

  /**
   * Run a command and hand back its answer instead of posting it (Discord answers interactions in place,
   * the dashboard shows it on the page). Never throws.
   */
  async answerCommand(raw: CommandInvocation): Promise<CommandAnswer> {
    const inv = cleanChatInput(raw);
    try {
      const mark = this.p.store.mark();
      this.p.people.seen(inv);
      const reply = await this.p.commands.run(inv, this.p.host);
      // A command that changed something answers only once the change is on disk ("Could not save: …" otherwise).
      await this.p.store.saved(mark, reply.avatar);
      const announce = reply.announce === true;
      // An action on a dashboard page is seen in the chat the page was opened from as if it was sent there.
      if (announce && inv.openedFrom) this.p.poster.reply({ ...inv.openedFrom, messageId: null }, reply.avatar, reply.text);
      return { avatar: reply.avatar, text: reply.text, refused: false, announce, private: reply.private === true };
    } catch (err) {
      return { ...this.errorAnswer(inv, err), refused: true, announce: false };
    }
  }

  /** The names of the avatars the sender may see from this chat. */
  avatarNames(chat: ChatContext): string[] {
    return this.p.people.visible(chat).map((a) => a.name);
  }

  /** Whether any avatar is linked to the chat. */
  isLinked(dest: Destination): boolean {
    return this.p.links.isLinked(dest);
  }

  /** Where each chat of the platform was read up to. */
  readMarks(platform: Platform): ReadonlyMap<Destination, string> {
    return this.p.readMarks.of(platform);
  }

  /** The bridge handed over message `id` of `dest`. */
  markRead(dest: Destination, id: string): void {
    this.p.readMarks.mark(dest, id);
  }

  /** Something that is not a new text message (a sticker, a photo, an edit): say what mindlink reads. Never throws. */
  async notRead(chat: ChatContext, what: string): Promise<void> {
    this.p.poster.reply(chat, null, `I read new text messages only, so I can't take ${what}. Write your goal, question or direction as text; /help lists the commands.`);
  }

  /** The platform announced a chat's new address: its links and pending posts follow it. */
  chatMoved(from: Destination, to: Destination): void {
    this.p.links.moveDest(from, to);
  }

  private async route(msg: InboundMessage): Promise<void> {
    const { avatars, people, poster } = this.p;
    people.seen(msg);
    if (isTooLong(msg.text)) {
      throw new UserError(
        'too_long',
        `That message is ${characterCount(msg.text)} characters; the limit is ${MAX_MESSAGE_LENGTH}. Nothing was stored: send it shorter.`,
      );
    }
    const names = people.visible(msg).map((a) => a.name);
    const addressed = splitAddress(msg.text, names);
    // `nobody: Goal: …` or `demoo: …` is a slip, not a direction for the only avatar (names are only told to who sees some).
    const unknown = addressed.name || names.length === 0 ? null : unknownAddress(msg.text, names);
    if (unknown) {
      const hint = unknown.closest ? ` (did you mean ${unknown.closest}?)` : `; avatars here: ${names.join(', ')}`;
      throw new UserError('unknown_avatar', `There is no avatar called "${unknown.name}" here${hint}. Nothing was stored.`);
    }
    const avatar = people.resolveAvatar(msg, addressed.name ?? msg.replyToAvatar ?? null);
    if (people.roleFor(msg, avatar) === 'stranger') throw new UserError('stranger', STRANGER_REFUSAL);
    const empty = emptyMessageReason(addressed.rest, addressed.name);
    if (empty) throw new UserError('empty_message', empty, avatar.name);
    const { kind, text } = classifyMessage(addressed.rest);

    switch (kind) {
      case 'stop':
        return this.runCommand({ ...msg, name: 'stop', options: { avatar: avatar.name } });
      case 'goal':
        // Said here, before the command's schema would refuse an empty text with its usage line.
        if (!text.trim()) throw new UserError('empty_goal', 'Say what the goal is, e.g. "Goal: collect 10 oak logs".', avatar.name);
        return this.runCommand({ ...msg, name: 'goal', options: { text, avatar: avatar.name } });
      case 'question': {
        if (!avatars.isPlaying(avatar.name)) {
          const how = canControl(people.roleFor(msg, avatar)) ? ` /play ${avatar.name} starts me.` : '';
          poster.reply(msg, avatar.name, `I'm stopped, so I can't look around.${how}`);
          return;
        }
        // Answered in its own turn; the reply comes when the engine has it, without holding up the chat.
        void avatars
          .ask(avatar.name, text)
          .then((answer) => poster.reply(msg, avatar.name, answer))
          .catch((err: unknown) => this.replyError(msg, err, avatar.name));
        return;
      }
      case 'direction': {
        people.requireControl(msg, avatar);
        const mark = this.p.store.mark();
        const { n, dropped } = avatars.addDirection(avatar.name, text, people.author(msg, avatar)?.id ?? null);
        await this.p.store.saved(mark, avatar.name);
        poster.reply(msg, avatar.name, notedReply(n, dropped));
        return;
      }
    }
  }

  private replyError(chat: ChatContext, err: unknown, avatar: string | null = null): void {
    const answer = this.errorAnswer(chat, err, avatar);
    this.p.poster.reply(chat, answer.avatar, answer.text);
  }

  /** What a chat may see of a failure: a UserError's text, else a reference to the log line. */
  private errorAnswer(chat: ChatContext, err: unknown, avatar: string | null = null): { avatar: string | null; text: string } {
    if (err instanceof UserError) return { avatar: err.avatar ?? avatar, text: err.message };
    const ref = errorRef();
    this.p.log.error({ err, ref, from: chat.from }, 'handler failed');
    return { avatar, text: `Something went wrong (ref ${ref}).` };
  }
}
