/**
 * The Telegram bridge: a grammy bot on long polling that hands chat messages
 * and bot commands to the core, and delivers the core's posts as escaped HTML.
 *
 * It decides nothing about rights or goals. What it owns is Telegram itself:
 * which updates are for this bot, who wrote them and where, which avatar a
 * reply answers, cards as inline keyboards and their presses (`presses.ts`),
 * the typing action, the command menus per kind of chat, what Telegram's
 * answer to a send means for the outbox, and when Telegram is told an update
 * was received: once the core accepted it (`acceptance.ts`).
 */
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError } from 'grammy';
import type { CallbackQuery, InlineKeyboardMarkup, Message } from 'grammy/types';
import type { Bridge, BridgeHost, ChatContext, DeliveryOutcome, SentParts } from '../../src/chat.ts';
import { remember } from '../../src/bounded-map.ts';
import { registerSecret, type Logger } from '../../src/logger.ts';
import { fitParts } from '../../src/outbox/split.ts';
import type { Destination, Identity, Post } from '../../src/store/schema.ts';
import { TypingIndicator } from '../../src/typing.ts';
import { avatarOfGoalPrompt, cardKeyboard } from './cards.ts';
import { answerPress } from './presses.ts';
import { messageContext, UNREAD_KINDS } from './context.ts';
import { registerMenus, type MenuEntry } from './menus.ts';
import {
  TELEGRAM_MAX_MESSAGE_LENGTH,
  avatarFromPrefix,
  destinationOf,
  escapeHtml,
  isPrivateChatId,
  mentionHtml,
  parseCommand,
  parseDestination,
  stripLeadingMention,
} from './format.ts';
import { KeyedQueue } from '../../src/keyed-queue.ts';
import { UpdateAcceptance } from './acceptance.ts';
import { outcomeOf, safeError } from './delivery.ts';

/** How a {@link TelegramBridge} connects. */
export interface TelegramBridgeOptions {
  /** The bot token from BotFather (`TELEGRAM_TOKEN`). */
  token: string;
  /** The Bot API root (`TELEGRAM_API_ROOT`), e.g. `https://api.telegram.org`. */
  apiRoot: string;
  log: Logger;
  /** The command menu, registered with `setMyCommands` (from `commands/index.ts`): the default, and private chats'. */
  commands: readonly MenuEntry[];
  /** The menus of groups, for their members and for their administrators (`telegramMenus` of `commands/index.ts`); the default menu there too when absent. */
  groupMenus?: { groups: readonly MenuEntry[]; groupAdmins: readonly MenuEntry[] };
  /** The display name of an identity, for the mention in a `Done:` ping when the bridge has not seen the person write. */
  nameOf?: (identity: Identity) => string | undefined;
  /** Longest `retry_after` (s) waited inside a delivery; a longer one goes back to the outbox. Default 30. */
  maxRetryAfterSeconds?: number;
  /** Long-poll timeout of `getUpdates` (s). Default 30. */
  pollTimeoutSeconds?: number;
}

/** The default of every optional {@link TelegramBridgeOptions} setting. */
export const DefaultTelegramBridgeOptions = {
  maxRetryAfterSeconds: 30,
  pollTimeoutSeconds: 30,
} satisfies Required<Pick<TelegramBridgeOptions, 'maxRetryAfterSeconds' | 'pollTimeoutSeconds'>>;

/** Remembered message → avatar pairs (for replies) and names; old entries go first. */
const MEMORY_LIMIT = 5000;
/** Telegram shows a chat action about 5 s: it is sent again every 4 s while wanted. */
const TYPING_EVERY_MS = 4000;

/** grammy types its signal with the abort-controller polyfill; Node's own AbortSignal works the same at run time. */
type GrammySignal = Parameters<Bot['api']['sendMessage']>[3];

/**
 * A Telegram bot serving mindlink: private chats, groups and supergroups.
 *
 * @example
 * const telegram = new TelegramBridge({ token: config.TELEGRAM_TOKEN, apiRoot: config.TELEGRAM_API_ROOT, log, commands: menu });
 * await telegram.start(core);
 * // … on shutdown
 * await telegram.stop();
 */
export class TelegramBridge implements Bridge {
  readonly platform = 'telegram' as const;
  readonly maxMessageLength = TELEGRAM_MAX_MESSAGE_LENGTH;

  private readonly bot: Bot;
  private readonly log: Logger;
  private readonly commands: readonly MenuEntry[];
  private readonly groupMenus: TelegramBridgeOptions['groupMenus'];
  private readonly nameOf: ((identity: Identity) => string | undefined) | undefined;
  private readonly pollTimeoutSeconds: number;
  private host: BridgeHost | null = null;
  private username = '';
  private polling: Promise<void> | null = null;
  /** Aborted by {@link TelegramBridge.stop}: ends a delivery waiting out a 429. */
  private readonly stopping = new AbortController();
  private readonly signal = this.stopping.signal as unknown as GrammySignal;
  /** `chatId:messageId` of the bot's posts → the avatar each was about. */
  private readonly postAvatars = new Map<string, string>();
  /** Names people wrote under, for mentions. */
  private readonly names = new Map<Identity, string>();
  /** Per chat, the handling of its updates in order; chats do not wait for each other. */
  private readonly chains = new KeyedQueue();
  /** The updates handed over and not yet accepted: Telegram is told of an update only once it is. */
  private readonly acceptance: UpdateAcceptance;
  /** The typing actions shown while someone waits on an avatar. */
  private readonly typingIndicator: TypingIndicator;

  constructor(opts: TelegramBridgeOptions) {
    registerSecret(opts.token);
    // main.ts may already hand in a child bound to this bridge; bind once, not twice.
    this.log = opts.log.bindings().bridge === undefined ? opts.log.child({ bridge: 'telegram' }) : opts.log;
    this.commands = opts.commands;
    this.groupMenus = opts.groupMenus;
    this.nameOf = opts.nameOf;
    this.pollTimeoutSeconds = opts.pollTimeoutSeconds ?? DefaultTelegramBridgeOptions.pollTimeoutSeconds;
    // A client timeout above the long-poll timeout, so a poll is never cut short by our side.
    this.bot = new Bot(opts.token, {
      client: { apiRoot: opts.apiRoot.replace(/\/+$/, ''), timeoutSeconds: this.pollTimeoutSeconds + 30 },
    });
    // 429 waits happen here; network and server errors go back to the outbox, which persists its retries.
    this.bot.api.config.use(
      autoRetry({
        maxDelaySeconds: opts.maxRetryAfterSeconds ?? DefaultTelegramBridgeOptions.maxRetryAfterSeconds,
        maxRetryAttempts: 3,
        rethrowHttpErrors: true,
        rethrowInternalServerErrors: true,
      }),
    );
    // The outermost transformer: a poll waits for the acceptance of what came before, not each retry of it.
    this.acceptance = new UpdateAcceptance(this.log);
    this.bot.api.config.use(this.acceptance.transformer);
    this.bot.on('message:text', (ctx) => {
      this.onMessage(ctx.message, ctx.update.update_id);
    });
    // Edits and what is not text are not read; the sender is told so (in a group only when it was meant for the bot).
    this.bot.on('edited_message', (ctx) => {
      this.onNotRead(ctx.editedMessage, 'an edit', ctx.update.update_id);
    });
    // A group upgraded to a supergroup: Telegram says so in the old group and again in the new supergroup.
    this.bot.on('message:migrate_to_chat_id', (ctx) => {
      this.onChatMoved(ctx.message.chat.id, ctx.message.migrate_to_chat_id, ctx.update.update_id);
    });
    this.bot.on('message:migrate_from_chat_id', (ctx) => {
      this.onChatMoved(ctx.message.migrate_from_chat_id, ctx.message.chat.id, ctx.update.update_id);
    });
    this.bot.on('message', (ctx) => {
      const what = UNREAD_KINDS.find(([key]) => key in ctx.message)?.[1];
      if (what) this.onNotRead(ctx.message, what, ctx.update.update_id);
    });
    // A button pressed on one of our cards, in the chat's order with its messages.
    this.bot.on('callback_query:data', (ctx) => {
      this.onPress(ctx.callbackQuery, ctx.update.update_id);
    });
    this.typingIndicator = new TypingIndicator({ send: (dest) => this.sendTyping(dest), everyMs: TYPING_EVERY_MS, log: this.log });
    // The one boundary of grammy's middleware: a fault in one update never stops polling.
    this.bot.catch((err) => {
      this.log.error({ err: safeError(err.error), update: err.ctx.update.update_id }, 'telegram update handler failed');
    });
  }

  /** Connect (`getMe`), register the command menu and start long polling; resolves once polling runs. */
  async start(host: BridgeHost): Promise<void> {
    if (this.polling) throw new Error('TelegramBridge already started');
    this.host = host;
    try {
      await this.bot.init();
    } catch (err) {
      const e = safeError(err);
      throw new Error(`Telegram: cannot connect the bot (${e.message}${e.cause ? `: ${e.cause}` : ''})`);
    }
    this.username = this.bot.botInfo.username;
    // The command menus, per kind of chat (`menus.ts`).
    await registerMenus(this.bot.api, this.commands, this.groupMenus, this.log);
    await new Promise<void>((resolve, reject) => {
      let started = false;
      this.polling = this.bot
        .start({
          allowed_updates: ['message', 'edited_message', 'callback_query'],
          timeout: this.pollTimeoutSeconds,
          onStart: () => {
            started = true;
            resolve();
          },
        })
        .catch((err: unknown) => {
          if (!started) {
            reject(new Error(`Telegram: cannot start polling (${safeError(err).message})`));
            return;
          }
          // 401 (token revoked) or 409 (another instance polls): polling has ended for good.
          this.log.error({ err: safeError(err) }, 'telegram polling stopped');
        });
    });
    this.log.info({ username: this.username }, 'telegram bot polling');
  }

  /** Stop polling, confirming what was received once the core accepted it; then wait for the handlers still running. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.typingIndicator.stop();
    this.acceptance.finish();
    if (this.polling) {
      try {
        await this.bot.stop();
      } catch (err) {
        this.log.warn({ err: safeError(err) }, 'telegram: could not confirm the last updates on stop');
      }
      await this.polling;
    }
    await this.chains.idle();
  }

  /**
   * Send one post: every part escaped as HTML (nothing in the text becomes
   * markup or a mention), prefixed with `[avatar] `, the first part replying
   * to `post.replyTo` and, in a group, starting with a mention of `post.ping`.
   */
  async deliver(post: Post, parts: string[], progress: (sent: SentParts) => void = () => {}): Promise<DeliveryOutcome> {
    const target = parseDestination(post.dest);
    if (!target) return { ok: false, retry: false, reason: `not a Telegram destination: ${post.dest}` };
    // A typing action in flight never lands after the message (it would show typing again once it is answered).
    await this.typingIndicator.settled(post.dest);
    const prefix = post.avatar ? `[${post.avatar}] ` : '';
    const keyboard = cardKeyboard(post.card);
    const mention = this.mentionFor(post, target.chatId);
    const messages = fitParts(post.text, parts, TELEGRAM_MAX_MESSAGE_LENGTH, prefix.length, mention ? mention.visibleLength + 1 : 0);

    // Parts an earlier attempt sent (kept in the outbox) are skipped while they are still the same parts.
    const done = post.sent;
    const already = done && done.parts.length < messages.length && done.parts.every((p, i) => messages[i] === p) ? done : { parts: [], messageIds: [] };
    const messageIds = [...already.messageIds];
    for (let i = already.parts.length; i < messages.length; i += 1) {
      const text = messages[i] as string;
      const first = i === 0;
      const html = `${escapeHtml(prefix)}${first && mention ? `${mention.html} ` : ''}${escapeHtml(text)}`;
      // A card's buttons go under its last part.
      const markup = keyboard && i === messages.length - 1 ? keyboard : null;
      const outcome = await this.send(post, target, html, `${prefix}${text}`, first, markup);
      if (!outcome.ok) return outcome;
      messageIds.push(outcome.messageId);
      if (i < messages.length - 1) progress({ parts: messages.slice(0, i + 1), messageIds: [...messageIds] });
    }
    this.typingIndicator.delivered(post.dest);
    return { ok: true, messageIds };
  }

  /** Show typing in a chat (or forum topic) until the returned function is called (refreshed every 4 s: Telegram shows it 5 s). */
  typing(dest: Destination): () => void {
    return this.typingIndicator.start(dest);
  }

  /** One `sendChatAction typing`. */
  private async sendTyping(dest: Destination): Promise<void> {
    const target = parseDestination(dest);
    if (!target) return;
    try {
      await this.bot.api.sendChatAction(target.chatId, 'typing', target.threadId !== undefined ? { message_thread_id: target.threadId } : {}, this.signal);
    } catch (err) {
      // grammy's network errors carry the URL, token included: only what is safe to log leaves here.
      throw new Error(safeError(err).message);
    }
  }

  /** The mention of `post.ping` in a group; none in a private chat (the message itself notifies) or for another platform's identity. */
  private mentionFor(post: Post, chatId: number): { html: string; visibleLength: number } | null {
    if (post.ping === null || isPrivateChatId(chatId)) return null;
    const m = /^telegram:(\d+)$/.exec(post.ping);
    if (!m || m[1] === undefined) return null;
    const name = this.names.get(post.ping) ?? this.nameOf?.(post.ping) ?? 'you';
    return { html: mentionHtml(m[1], name), visibleLength: name.length };
  }

  /** One sendMessage and what its answer means for the outbox. */
  private async send(
    post: Post,
    target: { chatId: number; threadId: number | undefined },
    html: string,
    plain: string,
    first: boolean,
    keyboard: InlineKeyboardMarkup | null,
  ): Promise<{ ok: true; messageId: string } | Exclude<DeliveryOutcome, { ok: true }>> {
    const common = {
      link_preview_options: { is_disabled: true },
      ...(keyboard ? { reply_markup: keyboard } : {}),
      ...(target.threadId !== undefined ? { message_thread_id: target.threadId } : {}),
      ...(first && post.replyTo !== null && /^\d+$/.test(post.replyTo)
        ? { reply_parameters: { message_id: Number(post.replyTo), allow_sending_without_reply: true } }
        : {}),
    };
    try {
      let sent: Message.TextMessage;
      try {
        sent = await this.bot.api.sendMessage(target.chatId, html, { ...common, parse_mode: 'HTML' }, this.signal);
      } catch (err) {
        // Escaping makes this unexpected; plain text still reaches the chat, without the mention.
        if (!(err instanceof GrammyError && err.error_code === 400 && /can't parse entities/i.test(err.description))) throw err;
        this.log.warn({ err: safeError(err), post: post.id }, 'telegram refused the HTML; sending plain text');
        sent = await this.bot.api.sendMessage(target.chatId, plain, common, this.signal);
      }
      if (post.avatar) remember(this.postAvatars, `${target.chatId}:${sent.message_id}`, post.avatar, MEMORY_LIMIT);
      return { ok: true, messageId: String(sent.message_id) };
    } catch (err) {
      return outcomeOf(err, this.log);
    }
  }

  /** The chat context of a message from a person (`context.ts`) and its update's key; the sender's name is kept for mentions. */
  private chatOf(msg: Message, updateId: number): ChatContext | undefined {
    const chat = messageContext(msg);
    if (chat) remember(this.names, chat.from, chat.fromName, MEMORY_LIMIT);
    return chat && { ...chat, updateKey: `telegram:${this.bot.botInfo.id}:${updateId}` };
  }

  /** An edit, or a message that is not text: in a DM, or as a reply to one of our posts, the core says what it reads. */
  private onNotRead(msg: Message, what: string, updateId: number): void {
    const host = this.host;
    const chat = this.chatOf(msg, updateId);
    if (!host || !chat) return;
    const meantForUs = chat.chatKind === 'private' || msg.reply_to_message?.from?.id === this.bot.botInfo.id;
    if (!meantForUs) return;
    this.enqueue(chat.dest, updateId, () => host.notRead(chat, what));
  }

  /** An incoming text message: a command for this bot, or a chat message for the core; accepted when the core says so. */
  private onMessage(msg: Message & { text: string }, updateId: number): void {
    const host = this.host;
    const chat = this.chatOf(msg, updateId);
    if (!host || !chat) return;

    const command = parseCommand(msg.text, msg.entities, this.username);
    if (command) {
      if (!command.forThisBot) return;
      // Telegram clients send /start when someone first opens the bot: show them the help.
      const name = command.name === 'start' && !this.commands.some((c) => c.name === 'start') ? 'help' : command.name;
      this.enqueue(chat.dest, updateId, () => host.runCommand({ ...chat, name, argsText: command.argsText }));
      return;
    }
    const text = stripLeadingMention(msg.text, this.username);
    // The answer to a goal a `Goal…` button asked for (a ForceReply) is that goal: `/goal <text> <avatar>`.
    const asked = msg.reply_to_message?.from?.id === this.bot.botInfo.id ? avatarOfGoalPrompt(msg.reply_to_message.text) : null;
    if (asked) {
      this.enqueue(chat.dest, updateId, () => host.runCommand({ ...chat, name: 'goal', options: { text, avatar: asked } }));
      return;
    }
    const replyToAvatar = this.avatarOfReply(msg);
    this.enqueue(chat.dest, updateId, () => host.handleMessage({ ...chat, text, ...(replyToAvatar ? { replyToAvatar } : {}) }));
  }

  /**
   * A button pressed on one of our cards: handled in its chat's order (`presses.ts`), accepted once the core has it
   * (its change on disk), before its card is shown. Sent again after a restart, it is pressed again (`src/press.ts`).
   */
  private onPress(query: CallbackQuery, updateId: number): void {
    const host = this.host;
    if (!host) return;
    const key = query.message ? destinationOf(query.message.chat.id) : `telegram:${query.from.id}`;
    const sent = (chat: number, id: number, avatar: string): void => remember(this.postAvatars, `${chat}:${id}`, avatar, MEMORY_LIMIT);
    let taken = (): void => undefined;
    const pressed = new Promise<void>((resolve) => {
      taken = resolve;
    });
    this.enqueue(key, updateId, () => answerPress({ api: this.bot.api, host, log: this.log, sent, taken }, query), pressed);
  }

  /**
   * A group now lives at another chat id: tell the core, in order with the
   * group's other updates. Only the chat itself moves: a basic group has no
   * forum topics, so no `telegram:<chat>:<thread>` destination of it exists.
   */
  private onChatMoved(fromChatId: number, toChatId: number, updateId: number): void {
    const host = this.host;
    if (!host?.chatMoved || fromChatId === toChatId) return;
    const from = destinationOf(fromChatId);
    const to = destinationOf(toChatId);
    this.log.debug({ from, to }, 'telegram: group upgraded to a supergroup');
    this.enqueue(from, updateId, async () => host.chatMoved?.(from, to));
  }

  /** The avatar whose post `msg` replies to: from our own record, else from the post's `[name] ` prefix. */
  private avatarOfReply(msg: Message): string | null {
    const replied = msg.reply_to_message;
    if (!replied || replied.from?.id !== this.bot.botInfo.id) return null;
    return this.postAvatars.get(`${msg.chat.id}:${replied.message_id}`) ?? avatarFromPrefix(replied.text);
  }

  /**
   * Run `task` after the chat's earlier updates; one catch per handler so a fault never reaches polling. The update
   * is accepted once the task is done (a failed one is not tried again), or once `accepted` resolves when given.
   */
  private enqueue(key: string, updateId: number, task: () => Promise<void>, accepted?: Promise<void>): void {
    const done = this.chains.run(key, task).catch((err: unknown) => {
      this.log.error({ err: safeError(err), dest: key }, 'telegram message handler failed');
    });
    this.acceptance.track(updateId, accepted ? Promise.race([accepted, done]) : done);
  }
}
