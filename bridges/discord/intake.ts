/**
 * Messages into the Discord bridge: which are for mindlink (a DM always; in
 * a guild only a linked chat, a mention of the bot or a reply to its post),
 * handed to the core in each channel's order, and what was written while
 * mindlink was away read on from each chat's read mark (`catch-up.ts`).
 */
import { ChannelType, type Client, type Message } from 'discord.js';
import { remember } from '../../src/bounded-map.ts';
import type { BridgeHost } from '../../src/chat.ts';
import type { Logger } from '../../src/logger.ts';
import { newerId } from '../../src/read-marks.ts';
import type { Destination } from '../../src/store/schema.ts';
import { byId, missedMessages } from './catch-up.ts';
import { messageContext } from './context.ts';
import { safeError } from './delivery.ts';
import { avatarFromPrefix, channelOf, destinationOf, mentionsUser, parseTextCommand, stripLeadingMention } from './format.ts';

/** Message ids remembered as handled; old entries go first. */
const HANDLED_LIMIT = 5000;

/** What the intake takes from its bridge. */
export interface IntakeDeps {
  host(): BridgeHost | null;
  client(): Client | null;
  /** Message id of a bot post → the avatar it was about (written by the bridge's deliveries). */
  postAvatars: ReadonlyMap<string, string>;
  /** Run `task` after the channel's earlier messages. */
  enqueue(dest: Destination, task: () => Promise<void>): void;
  log: Logger;
  /** Unix ms, to tell how late a missed message is. */
  now(): number;
}

/**
 * @example
 * const intake = new MessageIntake({ host: () => host, client: () => client, postAvatars, enqueue, log, now: Date.now });
 * client.on(Events.MessageCreate, (m) => intake.onMessage(m));
 * intake.catchUp(); // once connected
 */
export class MessageIntake {
  /** Ids of the messages handed over lately: one read late and live too is handled once. */
  private readonly handled = new Map<string, true>();
  /** Chats this intake has moved a read mark in since start. */
  private readonly markedHere = new Set<Destination>();
  private caught = false;

  constructor(private readonly deps: IntakeDeps) {}

  /** True once the first catch-up ran: a later gateway session (after a re-identify) reads on too. */
  get caughtUp(): boolean {
    return this.caught;
  }

  /** A message from the gateway: handled in its channel's order. */
  onMessage(message: Message): void {
    const handle = this.route(message);
    if (handle) this.deps.enqueue(destinationOf(message.channelId), handle);
  }

  /**
   * Read every marked chat on from its mark, all of it in the order it was written (directions
   * keep their numbers across chats). Live messages of those chats that come meanwhile wait
   * behind it; one seen both ways is handled once.
   */
  catchUp(): void {
    this.caught = true;
    const host = this.deps.host();
    const client = this.deps.client();
    if (!host?.readMarks || !client) return;
    const now = this.deps.now();
    const marks = [...host.readMarks('discord')].flatMap(([dest, after]) => {
      const channelId = channelOf(dest);
      if (!channelId) return [];
      const cached = client.channels.cache.get(channelId);
      // A guild channel unlinked since is not read on; nor is a cached one whose last message is read (no request needed).
      if (cached && !cached.isDMBased() && !host.isLinked(dest)) return [];
      const last = cached && 'lastMessageId' in cached ? cached.lastMessageId : undefined;
      return last === undefined || last === null || newerId(last, after) ? [{ dest, channelId, after }] : [];
    });
    if (marks.length === 0) return;
    const done = (async () => {
      const missed: Message[] = [];
      for (const { dest, channelId, after } of marks) {
        try {
          const { messages, more, tooOld } = await missedMessages(client, channelId, after, now);
          if (messages.length > 0 || tooOld > 0) this.deps.log.info({ dest, messages: messages.length, tooOld, more }, 'discord: reading what came while mindlink was away');
          missed.push(...messages);
        } catch (err) {
          this.deps.log.warn({ err: safeError(err), dest }, 'discord: could not read what came while mindlink was away');
        }
      }
      missed.sort(byId);
      for (const m of missed) {
        try {
          await this.route(m, true)?.();
        } catch (err) {
          this.deps.log.error({ err: safeError(err), dest: destinationOf(m.channelId) }, 'discord message handler failed');
        }
      }
    })();
    for (const { dest } of marks) this.deps.enqueue(dest, () => done);
  }

  /**
   * What to do with a message, or null when it is not for mindlink. Where it is read on after a
   * restart (a DM, a linked chat), handling it moves the chat's read mark; a `late` one (read on
   * from a mark) is handled only there.
   */
  private route(message: Message, late = false): (() => Promise<void>) | null {
    const host = this.deps.host();
    const botId = this.deps.client()?.user?.id;
    if (!host || !botId || message.webhookId !== null || message.system || this.handled.has(message.id)) return null;
    const dest = destinationOf(message.channelId);
    const inGuild = message.guildId !== null && message.channel.type !== ChannelType.DM;
    const readOn = !inGuild || host.isLinked(dest);
    // Read late only where the mark moves with every message (a DM, a linked chat): elsewhere a mention answered live would be answered again.
    if (late && !readOn) return null;
    // Remembered now, not when it runs: the same message read late while it waits in the queue is skipped.
    const marked = (task: () => Promise<void>): (() => Promise<void>) => {
      remember(this.handled, message.id, true, HANDLED_LIMIT);
      return async () => {
        // Marked as it is handed over, so the mark reaches the disk in the same write as what the
        // message changes (the router acknowledges a change only once it is on disk): a restart
        // neither loses an acknowledged message nor handles it twice.
        if (readOn) {
          host.markRead?.(dest, message.id);
          this.markedHere.add(dest);
        }
        await task();
      };
    };
    // Our own post gives a chat its first mark (one linked by a slash command is read on from its answer);
    // after that the people's messages move it, so a post costs no store write.
    if (message.author.bot) return message.author.id === botId && readOn && !this.markedHere.has(dest) ? marked(async () => {}) : null;
    const replyToAvatar = this.avatarOfReply(message, botId);
    const mentioned = mentionsUser(message.content, botId);
    if (inGuild && !mentioned && replyToAvatar === null && !readOn) return null;
    const text = stripLeadingMention(message.content, botId);
    const chat = messageContext(message, dest, inGuild);
    if (text === '') {
      // A sticker or a file meant for the bot (a DM, a mention, a reply to its post) gets a line saying what mindlink reads.
      const what = message.stickers.size > 0 ? 'a sticker' : message.attachments.size > 0 ? 'a file' : null;
      if (what && (!inGuild || mentioned || replyToAvatar !== null)) return marked(() => host.notRead(chat, what));
      // Anything else empty is a guild message whose text Discord withheld (no MessageContent): not for mindlink.
      return null;
    }
    const command = parseTextCommand(text);
    if (command) return marked(() => host.runCommand({ ...chat, name: command.name, argsText: command.argsText }));
    return marked(() => host.handleMessage({ ...chat, text, ...(replyToAvatar ? { replyToAvatar } : {}) }));
  }

  /** The avatar whose post `message` replies to: from our own record, else from the post's `[name] ` prefix or its card's title. */
  private avatarOfReply(message: Message, botId: string): string | null {
    const ref = message.reference?.messageId;
    if (!ref) return null;
    const known = this.deps.postAvatars.get(ref);
    if (known) return known;
    const replied = message.channel.messages.cache.get(ref);
    // A card (`/status`) says whose it is in its title.
    return replied?.author.id === botId ? (avatarFromPrefix(replied.content) ?? avatarFromPrefix(`[${replied.embeds[0]?.title ?? ''}] `)) : null;
  }
}

