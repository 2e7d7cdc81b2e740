/**
 * Buttons pressed on mindlink's cards in Telegram (`callback_query`): the press goes to the core
 * (`BridgeHost.press`) with the presser's identity, and its outcome is shown. The query is answered as soon
 * as the outcome is there, and within {@link ANSWER_WITHIN_MS} in any case, so the button stops spinning;
 * a refusal is an alert only the presser sees (`show_alert`); a card shown again is the message edited in
 * place; `Goal…` asks with a ForceReply; an answer of its own (`Status`) is a message replying to the card.
 */
import { GrammyError, type Api } from 'grammy';
import type { CallbackQuery, Message } from 'grammy/types';
import type { BridgeHost, ChatContext, PressOutcome } from '../../src/chat.ts';
import type { Logger } from '../../src/logger.ts';
import { splitMessage } from '../../src/outbox/split.ts';
import type { Identity } from '../../src/store/schema.ts';
import { cardKeyboard, cardText, goalPromptHtml } from './cards.ts';
import { safeError } from './delivery.ts';
import { TELEGRAM_MAX_MESSAGE_LENGTH, destinationOf, escapeHtml, isPrivateChatId } from './format.ts';

/** The longest a button spins: the query is answered then even if the outcome is not there yet. */
export const ANSWER_WITHIN_MS = 1500;
/** Telegram's limit on the text of a callback answer. */
const ANSWER_TEXT_MAX = 200;

/** What answering a press takes from its bridge. */
export interface PressDeps {
  api: Api;
  host: BridgeHost;
  log: Logger;
  /** A message of ours about an avatar was sent: a reply to it goes to that avatar. */
  sent(chatId: number, messageId: number, avatar: string): void;
  /** The core has the press (what it changed is on disk); what is left is showing it. */
  taken?(): void;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The name Telegram shows for a user. */
export function nameOf(user: CallbackQuery['from']): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username || String(user.id);
}

/**
 * The chat context of a press (the presser, in the chat of the card) and the card's message; undefined where
 * no card is at hand (a message too old for Telegram to say what it was: `date` 0).
 */
export function pressContext(query: CallbackQuery): { chat: ChatContext; card: Message } | undefined {
  const message = query.message;
  if (!message || message.date === 0 || query.from.is_bot) return undefined;
  const card = message as Message;
  const threadId = card.is_topic_message === true ? card.message_thread_id : undefined;
  const chat: ChatContext = {
    platform: 'telegram',
    from: `telegram:${query.from.id}` as Identity,
    fromName: nameOf(query.from),
    dest: destinationOf(card.chat.id, threadId),
    chatKind: card.chat.type === 'private' ? 'private' : 'group',
    messageId: String(card.message_id),
  };
  return { chat, card };
}

/** `[avatar] ` and the text, escaped, cut to one message. */
function html(avatar: string | null, text: string): string {
  const prefix = avatar ? `[${avatar}] ` : '';
  return escapeHtml(`${prefix}${splitMessage(text, TELEGRAM_MAX_MESSAGE_LENGTH - prefix.length)[0] ?? ''}`);
}

/**
 * Answer one press. Throws what Telegram refused (the bridge's handler logs it).
 */
export async function answerPress(deps: PressDeps, query: CallbackQuery): Promise<void> {
  const at = pressContext(query);
  if (!at || query.data === undefined) {
    await deps.api.answerCallbackQuery(query.id);
    return;
  }
  const pressing = deps.host.press({ ...at.chat, action: query.data });
  void pressing.then(() => deps.taken?.());
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), ANSWER_WITHIN_MS);
  });
  const first = await Promise.race([pressing, slow]);
  clearTimeout(timer);
  const answered = first === 'slow';
  if (answered) await deps.api.answerCallbackQuery(query.id);
  await show(deps, query, at.card, await pressing, answered);
}

/** Show a press's outcome (the query already answered, or not yet). */
async function show(deps: PressDeps, query: CallbackQuery, card: Message, outcome: PressOutcome, answered: boolean): Promise<void> {
  const { api } = deps;
  const thread = card.is_topic_message === true && card.message_thread_id !== undefined ? { message_thread_id: card.message_thread_id } : {};
  const replyToCard = { reply_parameters: { message_id: card.message_id, allow_sending_without_reply: true }, ...thread };
  switch (outcome.kind) {
    case 'refused': {
      const text = `${outcome.avatar ? `[${outcome.avatar}] ` : ''}${outcome.text}`;
      if (!answered) {
        await api.answerCallbackQuery(query.id, { text: clip(text, ANSWER_TEXT_MAX), show_alert: true });
        return;
      }
      // Too late for an alert: the presser's private chat, where Telegram lets the bot write to them; never the group.
      await api.sendMessage(query.from.id, html(outcome.avatar, outcome.text), { parse_mode: 'HTML', link_preview_options: { is_disabled: true } }).catch((err: unknown) => {
        deps.log.info({ err: safeError(err), user: query.from.id }, 'telegram: a late refusal could not reach the presser privately');
      });
      return;
    }
    case 'ask': {
      if (!answered) await api.answerCallbackQuery(query.id);
      const presser = isPrivateChatId(card.chat.id) ? null : { id: query.from.id, name: nameOf(query.from) };
      await api.sendMessage(card.chat.id, goalPromptHtml(outcome.avatar, presser), {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        reply_markup: { force_reply: true, selective: true, input_field_placeholder: clip(outcome.placeholder, 64) },
        ...replyToCard,
      });
      return;
    }
    case 'update': {
      if (!answered) await api.answerCallbackQuery(query.id, outcome.note ? { text: clip(outcome.note, ANSWER_TEXT_MAX) } : {});
      const keyboard = cardKeyboard(outcome.card);
      const text = html(outcome.avatar, cardText(outcome.text, outcome.card));
      const options = { parse_mode: 'HTML' as const, link_preview_options: { is_disabled: true }, ...(keyboard ? { reply_markup: keyboard } : {}) };
      try {
        await api.editMessageText(card.chat.id, card.message_id, text, options);
      } catch (err) {
        if (!(err instanceof GrammyError && err.error_code === 400)) throw err;
        // A refresh that finds nothing changed: the card is right as it is.
        if (/message is not modified/i.test(err.description)) return;
        // A card Telegram no longer lets us edit: the card as it is now comes under it instead.
        deps.log.info({ err: safeError(err), chat: card.chat.id }, 'telegram: a card could not be edited; sending it again');
        const sent = await api.sendMessage(card.chat.id, text, { ...options, ...replyToCard });
        deps.sent(card.chat.id, sent.message_id, outcome.avatar);
      }
      return;
    }
    case 'answer': {
      if (!answered) await api.answerCallbackQuery(query.id);
      const { answer } = outcome;
      const keyboard = cardKeyboard(answer.card);
      const sent = await api.sendMessage(card.chat.id, html(answer.avatar, cardText(answer.text, answer.card)), {
        parse_mode: 'HTML',
        link_preview_options: { is_disabled: true },
        ...(keyboard ? { reply_markup: keyboard } : {}),
        ...replyToCard,
      });
      if (answer.avatar) deps.sent(card.chat.id, sent.message_id, answer.avatar);
      return;
    }
  }
}
