/**
 * What the fake Telegram keeps for the bot's interactive messages: each message's current text and
 * inline keyboard (so it can be edited, and its buttons pressed), callback queries and their answers,
 * chat actions (`typing`), and command menus per scope. Each Bot API method answers as Telegram does:
 * callback data of 1–64 bytes, a query answered once, an edit that changes nothing refused with
 * "message is not modified", a message that is not the bot's not found.
 */
import type { BotCommand, CallbackQuery, InlineKeyboardMarkup, Message, User } from 'grammy/types';
import { renderTelegramHtml } from './html.ts';
import { asNumber, structured } from './params.ts';

/** A Bot API answer: the result, or an error as Telegram words it. */
export type ApiResult = { ok: true; result: unknown } | { ok: false; code: number; description: string };

/** An edit of a bot message that Telegram accepted. */
export interface MessageEdit {
  method: 'editMessageText' | 'editMessageReplyMarkup';
  chat_id: number;
  message_id: number;
  /** The text a user sees after the edit. */
  plain: string;
  reply_markup: InlineKeyboardMarkup | undefined;
}

/** An `answerCallbackQuery`. */
export interface CallbackAnswer {
  callback_query_id: string;
  text: string | undefined;
  show_alert: boolean;
}

/** A `sendChatAction` and its place in the fake's `calls`. */
export interface ChatAction {
  chat_id: number;
  action: string;
  message_thread_id: number | undefined;
  call: number;
}

const bad = (description: string): ApiResult => ({ ok: false, code: 400, description: `Bad Request: ${description}` });

/**
 * Why Telegram would refuse a `reply_markup`, or null: an inline keyboard's buttons need a text and
 * callback data of 1–64 bytes; a ForceReply's placeholder is at most 64 characters.
 */
export function markupProblem(raw: unknown): string | null {
  const markup = structured<Record<string, unknown>>(raw);
  if (markup === undefined) return null;
  if ('inline_keyboard' in markup) {
    const rows = markup.inline_keyboard;
    if (!Array.isArray(rows) || rows.some((r) => !Array.isArray(r))) return "can't parse inline keyboard button: InlineKeyboardButton must be an Array";
    for (const button of rows.flat() as Record<string, unknown>[]) {
      if (typeof button.text !== 'string' || button.text === '') return 'text buttons are unallowed in the inline keyboard';
      const data = button.callback_data;
      if (typeof data !== 'string' || data === '' || Buffer.byteLength(data, 'utf8') > 64) return 'BUTTON_DATA_INVALID';
    }
    return null;
  }
  if ('force_reply' in markup) {
    if (markup.force_reply !== true) return "can't parse reply keyboard markup JSON object";
    const placeholder = markup.input_field_placeholder;
    if (placeholder !== undefined && (typeof placeholder !== 'string' || placeholder.length > 64)) return 'REPLY_MARKUP_INVALID';
    return null;
  }
  return "can't parse reply keyboard markup JSON object";
}

/** The fake's record of the bot's interactive messages. */
export class Buttons {
  readonly edits: MessageEdit[] = [];
  readonly answers: CallbackAnswer[] = [];
  readonly actions: ChatAction[] = [];
  /** `setMyCommands` per scope type (`default`, `all_private_chats`, `all_group_chats`, `all_chat_administrators`, …). */
  readonly menus = new Map<string, BotCommand[]>();
  private readonly messages = new Map<string, Message>();
  private readonly queries = new Map<string, boolean>();
  private nextQuery = 1;

  /** A message the bot sent (with its keyboard, if any), now current. */
  sent(message: Message): void {
    this.messages.set(`${message.chat.id}:${message.message_id}`, message);
  }

  /** The message as it is now (after edits). */
  current(chatId: number, messageId: number): Message | undefined {
    return this.messages.get(`${chatId}:${messageId}`);
  }

  /** A person presses a button of a bot message: the callback query Telegram sends, for a button the message shows now. */
  press(from: User, chatId: number, messageId: number, data: string): CallbackQuery {
    const message = this.current(chatId, messageId);
    if (!message) throw new Error(`fake Telegram: no bot message ${messageId} in chat ${chatId}`);
    const shown = (message.reply_markup?.inline_keyboard ?? []).flat().map((b) => ('callback_data' in b ? b.callback_data : undefined));
    if (!shown.includes(data)) throw new Error(`fake Telegram: message ${messageId} shows no button "${data}" (it shows: ${shown.join(', ') || 'none'})`);
    const id = `q${this.nextQuery++}`;
    this.queries.set(id, false);
    return { id, from, message, chat_instance: `ci${chatId}`, data };
  }

  answerCallbackQuery(params: Record<string, unknown>): ApiResult {
    const id = String(params.callback_query_id ?? '');
    if (this.queries.get(id) !== false) return bad('query is too old and response timeout expired or query ID is invalid');
    const text = typeof params.text === 'string' ? params.text : undefined;
    if (text !== undefined && text.length > 200) return bad('MESSAGE_TOO_LONG');
    this.queries.set(id, true);
    this.answers.push({ callback_query_id: id, text, show_alert: params.show_alert === true || params.show_alert === 'true' });
    return { ok: true, result: true };
  }

  /** Whether a callback query was answered. */
  answered(id: string): boolean {
    return this.queries.get(id) === true;
  }

  edit(method: MessageEdit['method'], params: Record<string, unknown>): ApiResult {
    const chatId = asNumber(params.chat_id);
    const messageId = asNumber(params.message_id);
    const message = chatId === undefined || messageId === undefined ? undefined : this.current(chatId, messageId);
    if (!message || chatId === undefined || messageId === undefined) return bad('message to edit not found');
    const problem = markupProblem(params.reply_markup);
    if (problem) return bad(problem);
    const markup = structured<InlineKeyboardMarkup>(params.reply_markup);
    let plain = message.text ?? '';
    if (method === 'editMessageText') {
      const text = typeof params.text === 'string' ? params.text : '';
      if (params.parse_mode === 'HTML') {
        const rendered = renderTelegramHtml(text);
        if ('error' in rendered) return bad(rendered.error.replace(/^Bad Request: /, ''));
        plain = rendered.plain;
      } else plain = text;
      if (plain.trim() === '') return bad('message text is empty');
      if (plain.length > 4096) return bad('MESSAGE_TOO_LONG');
    }
    if (plain === message.text && JSON.stringify(markup) === JSON.stringify(message.reply_markup)) {
      return bad('message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message');
    }
    const edited = { ...message, text: plain, edit_date: Math.floor(Date.now() / 1000), ...(markup ? { reply_markup: markup } : {}) } as Message;
    if (!markup) delete (edited as { reply_markup?: unknown }).reply_markup;
    this.messages.set(`${chatId}:${messageId}`, edited);
    this.edits.push({ method, chat_id: chatId, message_id: messageId, plain, reply_markup: markup });
    return { ok: true, result: edited };
  }

  sendChatAction(params: Record<string, unknown>, call: number): ApiResult {
    const chatId = asNumber(params.chat_id);
    if (chatId === undefined) return bad('chat not found');
    const action = String(params.action ?? '');
    if (!['typing', 'upload_photo', 'record_video', 'upload_video', 'record_voice', 'upload_voice', 'upload_document', 'choose_sticker', 'find_location'].includes(action)) {
      return bad('wrong parameter action in request');
    }
    this.actions.push({ chat_id: chatId, action, message_thread_id: asNumber(params.message_thread_id), call });
    return { ok: true, result: true };
  }

  setMyCommands(params: Record<string, unknown>): ApiResult {
    const commands = structured<BotCommand[]>(params.commands) ?? [];
    const scope = structured<{ type?: string }>(params.scope);
    this.menus.set(scope?.type ?? 'default', commands);
    return { ok: true, result: true };
  }
}
