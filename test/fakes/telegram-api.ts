/**
 * A fake Telegram Bot API server for tests: the real grammy `Bot` talks to it
 * through `client.apiRoot`.
 *
 * It behaves like the real API where our code depends on it: `getUpdates`
 * long-polls for real (held until an update arrives or `timeout` seconds
 * pass; a missing timeout is 0) and honours `offset` (updates below it are
 * confirmed and forgotten); `sendMessage` with `parse_mode: HTML` rejects
 * markup that Telegram would reject (a bare `<` or `&`), and records what a
 * user would see; a wrong token gets 401. Failures can be injected per
 * method: 429 with `retry_after`, 403 "bot was blocked by the user", any
 * error, or a dropped connection. A group can be upgraded to a supergroup
 * ({@link FakeTelegram.migrateChat}): sends to its old id then fail as on
 * Telegram, and the service messages can be pushed
 * ({@link FakeTelegram.announceMigration}). Inline keyboards and ForceReplies
 * are checked; a person can press a button a bot message shows
 * ({@link FakeTelegram.pressButton}), and the bot answers the query, edits its
 * messages, sends chat actions and sets menus per scope (`telegram/buttons.ts`).
 * `getUpdates` delivers only the update types the bot asked for (`allowed_updates`).
 *
 * @example
 * const tg = await FakeTelegram.start();
 * const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
 * tg.sendText({ chat: privateChat(alice), from: alice, text: 'hello' });
 * const reply = await tg.waitForMessage((m) => m.chat_id === alice.id);
 * // teardown: await bot.stop(); await startPromise; await tg.close();
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BotCommand, CallbackQuery, Chat, ForceReply, InlineKeyboardMarkup, Message, MessageEntity, Update, User } from 'grammy/types';
import { Buttons, markupProblem, type ApiResult, type CallbackAnswer, type ChatAction, type MessageEdit } from './telegram/buttons.ts';
import { renderTelegramHtml } from './telegram/html.ts';
import { SendLimits, type Limits } from './telegram/limits.ts';
import { asNumber } from './telegram/params.ts';
import { UpdateQueue } from './telegram/updates.ts';
import { supergroupChat, type ApiCall, type InjectedFailure, type SentMessage } from './telegram/world.ts';

export type { CallbackAnswer, ChatAction, MessageEdit } from './telegram/buttons.ts';

export { renderTelegramHtml } from './telegram/html.ts';
export { groupChat, privateChat, supergroupChat, user, type ApiCall, type InjectedFailure, type SentMessage } from './telegram/world.ts';

interface Waiter {
  check(): boolean;
}

/** Options of {@link FakeTelegram.start}. */
export interface FakeTelegramOptions {
  /** The bot's id; the token starts with it. Default 7000001. */
  botId?: number;
  /** The bot's username. Default `mindlink_test_bot`. */
  username?: string;
  /** Listen on this port (default: a free one). */
  port?: number;
}

/** The fake Bot API server. Start one per suite with {@link FakeTelegram.start}; close it after the bot stopped. */
export class FakeTelegram {
  /** The only token the fake accepts. */
  readonly token: string;
  /** What the bot's `getMe` returns. */
  readonly bot: User;
  /** Every accepted `sendMessage`, in order. */
  readonly sent: SentMessage[] = [];
  /** Every call received, in order (failed and dropped ones too). */
  readonly calls: ApiCall[] = [];
  /** The last `setMyCommands` list of the default scope, or null. */
  commands: BotCommand[] | null = null;
  /** Bot messages as they are now, callback queries, edits, chat actions and menus per scope. */
  readonly buttons = new Buttons();
  /** Highest update id the bot confirmed (by asking for a later offset). */
  get confirmedUpTo(): number {
    return this.queue.confirmedUpTo;
  }
  /**
   * 429s the fake answered: `injected` by {@link FakeTelegram.failNext} or an outage,
   * `pacing` because the bot went over Telegram's limits while they are enforced
   * ({@link FakeTelegram.enforceRateLimits}).
   */
  readonly rateLimited = { injected: 0, pacing: 0 };
  /** `sendMessage`s that came before the `retry_after` of an earlier 429 to the same chat had passed. */
  retryAfterIgnored = 0;

  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly events = new EventEmitter();
  private readonly failures = new Map<string, InjectedFailure[]>();
  private readonly blockedChats = new Set<number>();
  /** Upgraded groups: old chat id → the supergroup's id. */
  private readonly migrated = new Map<number, number>();
  private readonly messageSeq = new Map<number, number>();
  private outage: { failure: InjectedFailure; until: number } | null = null;
  /** Telegram's send limits, while they are enforced. */
  private readonly limits = new SendLimits();
  /** Chat id → when its last 429 allows the next send (epoch ms). */
  private readonly retryUntil = new Map<number, number>();
  /** The updates waiting for the bot, and its long polls. */
  private readonly queue = new UpdateQueue(
    (res, status, body) => this.reply(res, status, body),
    () => {
      this.events.emit('confirmed', this.queue.confirmedUpTo);
      this.events.emit('change');
    },
  );
  private port = 0;

  private constructor(opts: FakeTelegramOptions) {
    const botId = opts.botId ?? 7000001;
    this.token = `${botId}:FAKE-test-token-${'x'.repeat(30)}`;
    this.bot = { id: botId, is_bot: true, first_name: 'mindlink', username: opts.username ?? 'mindlink_test_bot' };
    this.server = createServer((req, res) => this.onRequest(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.events.setMaxListeners(0);
  }

  /** Start a fake on 127.0.0.1 (a free port unless `opts.port`). */
  static async start(opts: FakeTelegramOptions = {}): Promise<FakeTelegram> {
    const fake = new FakeTelegram(opts);
    await new Promise<void>((resolve) => fake.server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** The `client.apiRoot` for grammy (no trailing slash). */
  get apiRoot(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Make the next `times` calls of `method` fail as described. */
  failNext(method: string, failure: InjectedFailure, times = 1): void {
    const list = this.failures.get(method) ?? [];
    for (let n = 0; n < times; n += 1) list.push(failure);
    this.failures.set(method, list);
  }

  /**
   * Until `untilMs` (epoch ms) every `sendMessage` fails as described: a 429's
   * `retry_after` is the time left of the outage (rounded up), as Telegram's
   * flood control answers. Pass null to end it at once.
   */
  failSendsUntil(failure: InjectedFailure | null, untilMs = 0): void {
    this.outage = failure ? { failure, until: untilMs } : null;
  }

  /**
   * Answer 429 (retry after 1 s) to a `sendMessage` that goes over Telegram's
   * limits: two messages to one chat closer than `perChatMs`, more than
   * `groupPerMinute` to one group in a minute, more than `globalPerSecond` in a second.
   */
  enforceRateLimits(limits: Limits | null): void {
    this.limits.set(limits);
  }

  /** From now on every `sendMessage` to `chatId` answers 403 "bot was blocked by the user". */
  blockChat(chatId: number): void {
    this.blockedChats.add(chatId);
  }

  /**
   * Upgrade a group to a supergroup (by default `-100<id>`, same title): from
   * now on every `sendMessage` to the old id answers 400 "group chat was
   * upgraded to a supergroup chat" with `parameters.migrate_to_chat_id`.
   * Pushes no update: see {@link FakeTelegram.announceMigration}.
   */
  migrateChat(group: Chat.GroupChat, to: Chat.SupergroupChat = supergroupChat(Math.abs(group.id), group.title)): Chat.SupergroupChat {
    this.migrated.set(group.id, to.id);
    return to;
  }

  /**
   * The service messages Telegram sends on an upgrade: one in the old group
   * (`migrate_to_chat_id`), then one in the supergroup (`migrate_from_chat_id`).
   * Returns both updates, in that order.
   */
  announceMigration(opts: { from: Chat.GroupChat; to: Chat.SupergroupChat; by: User }): [Update, Update] {
    const date = Math.floor(Date.now() / 1000);
    const inOld = { message_id: this.nextMessageId(opts.from.id), date, chat: opts.from, from: opts.by, migrate_to_chat_id: opts.to.id } as Message;
    const inNew = { message_id: this.nextMessageId(opts.to.id), date, chat: opts.to, from: opts.by, migrate_from_chat_id: opts.from.id } as Message;
    return [this.pushUpdate({ message: inOld } as Omit<Update, 'update_id'>), this.pushUpdate({ message: inNew } as Omit<Update, 'update_id'>)];
  }

  /** Queue an update (its `update_id` is assigned) and wake a pending long poll. */
  pushUpdate(update: Omit<Update, 'update_id'>): Update {
    return this.queue.push(update);
  }

  /**
   * Send update `updateId` again, as it was: what Telegram does at the next start of a bot that was killed
   * after it took the update and before it confirmed it (a bot that polls from offset 0, as grammy does at
   * start, gets it even when an earlier run confirmed it).
   */
  deliverAgain(updateId: number): Update {
    return this.queue.again(updateId);
  }

  /** The update id the fake gave the latest update pushed (0 when none was). */
  get lastUpdateId(): number {
    return this.queue.lastId;
  }

  /**
   * A user writes `text` in `chat`, as a Telegram client would send it: a
   * leading `/cmd` or `/cmd@bot` carries a `bot_command` entity; `replyTo`
   * (a message of this fake, e.g. `sent[i].message`) makes it a reply.
   */
  sendText(opts: { chat: Chat; from: User; text: string; replyTo?: Message; edited?: boolean }): Message {
    const entities: MessageEntity[] = [];
    const cmd = /^\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?/.exec(opts.text);
    if (cmd) entities.push({ type: 'bot_command', offset: 0, length: cmd[0].length });
    const message = {
      message_id: this.nextMessageId(opts.chat.id),
      date: Math.floor(Date.now() / 1000),
      chat: opts.chat,
      from: opts.from,
      text: opts.text,
      ...(entities.length > 0 ? { entities } : {}),
      ...(opts.replyTo ? { reply_to_message: opts.replyTo } : {}),
    } as Message;
    if (opts.edited) this.pushUpdate({ edited_message: { ...message, edit_date: message.date } } as Omit<Update, 'update_id'>);
    else this.pushUpdate({ message } as Omit<Update, 'update_id'>);
    return message;
  }

  /**
   * A person presses a button of a bot message (one it shows now, after any edit): the callback query
   * is pushed as an update, and returned.
   */
  pressButton(opts: { from: User; message: Message | SentMessage; data: string }): CallbackQuery {
    const message = 'message' in opts.message && 'plain' in opts.message ? opts.message.message : (opts.message as Message);
    const query = this.buttons.press(opts.from, message.chat.id, message.message_id, opts.data);
    this.pushUpdate({ callback_query: query } as Omit<Update, 'update_id'>);
    return query;
  }

  /** The answers to callback queries, edits of bot messages and chat actions the bot made. */
  get callbackAnswers(): readonly CallbackAnswer[] {
    return this.buttons.answers;
  }

  get edits(): readonly MessageEdit[] {
    return this.buttons.edits;
  }

  get chatActions(): readonly ChatAction[] {
    return this.buttons.actions;
  }

  /** The menu set for a scope type (`default`, `all_private_chats`, `all_group_chats`, `all_chat_administrators`). */
  menu(scope = 'default'): BotCommand[] | undefined {
    return this.buttons.menus.get(scope);
  }

  /** Resolve once `probe` gives a value (checked now and after every call the fake receives). */
  waitFor<T>(probe: () => T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
    return this.waitUntil(probe, timeoutMs, what);
  }

  /**
   * Resolve with the first accepted message (from index `since` of {@link sent}) that matches,
   * waiting for it if needed; reject after `timeoutMs`.
   */
  waitForMessage(predicate: (m: SentMessage) => boolean, opts: { since?: number; timeoutMs?: number } = {}): Promise<SentMessage> {
    const since = opts.since ?? 0;
    return this.waitUntil(() => this.sent.slice(since).find(predicate), opts.timeoutMs ?? 10_000, 'a matching sendMessage');
  }

  /** Resolve with the first call (from index `since` of {@link calls}) of `method` that matches. */
  waitForCall(method: string, predicate: (c: ApiCall) => boolean = () => true, opts: { since?: number; timeoutMs?: number } = {}): Promise<ApiCall> {
    const since = opts.since ?? 0;
    return this.waitUntil(
      () => this.calls.slice(since).find((c) => c.method === method && predicate(c)),
      opts.timeoutMs ?? 10_000,
      `a ${method} call`,
    );
  }

  /**
   * Call `listener` the moment the bot confirms updates (a `getUpdates` with a higher offset came in), with the
   * highest update id confirmed, before the fake answers that call: a test can kill the bot's process right
   * there, as if it died the instant Telegram was told. Returns the function that removes the listener.
   */
  onConfirmed(listener: (upTo: number) => void): () => void {
    this.events.on('confirmed', listener);
    return () => this.events.off('confirmed', listener);
  }

  /** Resolve once the bot confirmed update `updateId` (asked getUpdates for a later offset). */
  waitForConfirmed(updateId: number, timeoutMs = 10_000): Promise<number> {
    return this.waitUntil(() => (this.confirmedUpTo >= updateId ? this.confirmedUpTo : undefined), timeoutMs, `confirmation of update ${updateId}`);
  }

  /** Answer pending long polls, close every socket and the server. */
  async close(): Promise<void> {
    this.queue.close();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  private waitUntil<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const found = probe();
      if (found !== undefined) {
        resolve(found);
        return;
      }
      const waiter: Waiter = {
        check: () => {
          const hit = probe();
          if (hit === undefined) return false;
          done();
          resolve(hit);
          return true;
        },
      };
      const onEvent = (): void => {
        waiter.check();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`fake Telegram: no ${what} within ${timeoutMs} ms (sent: ${JSON.stringify(this.sent.map((m) => m.plain))})`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.events.off('change', onEvent);
      };
      this.events.on('change', onEvent);
    });
  }

  private nextMessageId(chatId: number): number {
    const id = (this.messageSeq.get(chatId) ?? 0) + 1;
    this.messageSeq.set(chatId, id);
    return id;
  }

  private reply(res: ServerResponse, status: number, body: unknown): void {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private apiError(res: ServerResponse, code: number, description: string, parameters?: Record<string, unknown>): void {
    this.reply(res, code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', this.apiRoot);
      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
      if (!m || m[1] === undefined || m[2] === undefined) {
        this.apiError(res, 404, 'Not Found');
        return;
      }
      if (decodeURIComponent(m[1]) !== this.token) {
        this.apiError(res, 401, 'Unauthorized');
        return;
      }
      const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
      const body = Buffer.concat(chunks).toString('utf8');
      const type = req.headers['content-type'] ?? '';
      try {
        if (body !== '' && type.includes('json')) Object.assign(params, JSON.parse(body) as Record<string, unknown>);
        else if (body !== '' && type.includes('urlencoded')) Object.assign(params, Object.fromEntries(new URLSearchParams(body)));
      } catch {
        this.apiError(res, 400, 'Bad Request: invalid JSON body');
        return;
      }
      this.handle(m[2], params, req, res);
    });
  }

  private handle(method: string, params: Record<string, unknown>, req: IncomingMessage, res: ServerResponse): void {
    const call: ApiCall = { method, params, at: Date.now() };
    this.calls.push(call);
    res.on('finish', () => {
      call.outcome = res.statusCode;
    });
    this.events.emit('change');
    if (this.outage && this.outage.until <= Date.now()) this.outage = null;
    const sendChat = method === 'sendMessage' ? asNumber(params.chat_id) : undefined;
    if (sendChat !== undefined && Date.now() < (this.retryUntil.get(sendChat) ?? 0)) this.retryAfterIgnored += 1;
    let failure = this.failures.get(method)?.shift();
    if (!failure && this.outage && method === 'sendMessage') {
      const left = Math.max(1, Math.ceil((this.outage.until - Date.now()) / 1000));
      failure = this.outage.failure.kind === 'rate_limit' ? { kind: 'rate_limit', retryAfter: left } : this.outage.failure;
    }
    if (failure && failure.kind !== 'none') {
      if (failure.kind === 'drop') {
        call.outcome = 'drop';
        req.socket.destroy();
      }
      else if (failure.kind === 'rate_limit') {
        this.rateLimited.injected += 1;
        if (sendChat !== undefined) this.retryUntil.set(sendChat, Date.now() + failure.retryAfter * 1000);
        this.apiError(res, 429, `Too Many Requests: retry after ${failure.retryAfter}`, { retry_after: failure.retryAfter });
      } else if (failure.kind === 'blocked') this.apiError(res, 403, 'Forbidden: bot was blocked by the user');
      else this.apiError(res, failure.code, failure.description);
      return;
    }
    switch (method) {
      case 'getMe':
        this.reply(res, 200, { ok: true, result: { ...this.bot, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } });
        return;
      case 'deleteWebhook':
        this.reply(res, 200, { ok: true, result: true });
        return;
      case 'setMyCommands': {
        const result = this.buttons.setMyCommands(params);
        this.commands = this.buttons.menus.get('default') ?? this.commands;
        this.answer(res, result);
        return;
      }
      case 'answerCallbackQuery':
        this.answer(res, this.buttons.answerCallbackQuery(params));
        return;
      case 'editMessageText':
      case 'editMessageReplyMarkup':
        this.answer(res, this.buttons.edit(method, params));
        return;
      case 'sendChatAction':
        this.answer(res, this.buttons.sendChatAction(params, this.calls.length - 1));
        return;
      case 'getUpdates':
        this.queue.getUpdates(params, res);
        return;
      case 'sendMessage':
        this.sendMessage(params, res);
        return;
      default:
        this.apiError(res, 404, 'Not Found: method not found');
    }
  }

  /** Answer with a Bot API result (an error as Telegram words it), and wake the waits. */
  private answer(res: ServerResponse, result: ApiResult): void {
    if (result.ok) this.reply(res, 200, result);
    else this.apiError(res, result.code, result.description);
    this.events.emit('change');
  }

  private sendMessage(params: Record<string, unknown>, res: ServerResponse): void {
    const chatId = asNumber(params.chat_id);
    const text = typeof params.text === 'string' ? params.text : '';
    if (chatId === undefined) {
      this.apiError(res, 400, 'Bad Request: chat not found');
      return;
    }
    const movedTo = this.migrated.get(chatId);
    if (movedTo !== undefined) {
      this.apiError(res, 400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: movedTo });
      return;
    }
    if (this.blockedChats.has(chatId)) {
      this.apiError(res, 403, 'Forbidden: bot was blocked by the user');
      return;
    }
    if (this.limits.over(chatId)) {
      this.rateLimited.pacing += 1;
      this.retryUntil.set(chatId, Date.now() + 1000);
      this.apiError(res, 429, 'Too Many Requests: retry after 1', { retry_after: 1 });
      return;
    }
    const problem = markupProblem(params.reply_markup);
    if (problem) {
      this.apiError(res, 400, `Bad Request: ${problem}`);
      return;
    }
    const markup = (typeof params.reply_markup === 'string' ? JSON.parse(params.reply_markup) : params.reply_markup) as InlineKeyboardMarkup | ForceReply | undefined;
    const parseMode = typeof params.parse_mode === 'string' ? params.parse_mode : undefined;
    let plain = text;
    let mentions: number[] = [];
    if (parseMode === 'HTML') {
      const rendered = renderTelegramHtml(text);
      if ('error' in rendered) {
        this.apiError(res, 400, rendered.error);
        return;
      }
      ({ plain, mentions } = rendered);
    }
    if (plain.trim() === '') {
      this.apiError(res, 400, 'Bad Request: message text is empty');
      return;
    }
    if (plain.length > 4096) {
      this.apiError(res, 400, 'Bad Request: message is too long');
      return;
    }
    const rp = params.reply_parameters as { message_id?: number; allow_sending_without_reply?: boolean } | undefined;
    const replyTo = rp?.message_id ?? asNumber(params.reply_to_message_id);
    const threadId = asNumber(params.message_thread_id);
    const chat: Chat =
      chatId > 0
        ? { id: chatId, type: 'private', first_name: 'user' }
        : String(chatId).startsWith('-100')
          ? { id: chatId, type: 'supergroup', title: 'supergroup' }
          : { id: chatId, type: 'group', title: 'group' };
    const message = {
      message_id: this.nextMessageId(chatId),
      date: Math.floor(Date.now() / 1000),
      chat,
      from: this.bot,
      text: plain,
      ...(threadId !== undefined ? { message_thread_id: threadId } : {}),
      // A message shows its inline keyboard (a ForceReply is not kept on the message).
      ...(markup && 'inline_keyboard' in markup ? { reply_markup: markup } : {}),
    } as Message;
    this.buttons.sent(message);
    const lpo = params.link_preview_options as { is_disabled?: boolean } | undefined;
    this.sent.push({
      chat_id: chatId,
      text,
      parse_mode: parseMode,
      plain,
      mentions,
      reply_to: replyTo,
      allow_sending_without_reply: rp?.allow_sending_without_reply ?? (params.allow_sending_without_reply as boolean | undefined),
      link_preview_disabled: lpo?.is_disabled === true || params.disable_web_page_preview === true,
      message_thread_id: threadId,
      entities: params.entities as MessageEntity[] | undefined,
      message,
      reply_markup: markup,
      acceptedAt: Date.now(),
    });
    this.events.emit('change');
    this.reply(res, 200, { ok: true, result: message });
  }
}
