/**
 * The fake Telegram's world and records: users and chats as Telegram describes them, a message the bot
 * sent, one API call, and the failures a test can inject.
 */
import type { Chat, ForceReply, InlineKeyboardMarkup, Message, MessageEntity, User } from 'grammy/types';

/** A user of the fake world. */
export function user(id: number, firstName: string, extra: Partial<User> = {}): User {
  return { id, is_bot: false, first_name: firstName, ...extra };
}

/** The private chat between `u` and the bot (its id is the user's id, as on Telegram). */
export function privateChat(u: User): Chat.PrivateChat {
  return { id: u.id, type: 'private', first_name: u.first_name };
}

/** A basic group (negative id). */
export function groupChat(id: number, title: string): Chat.GroupChat {
  return { id: -Math.abs(id), type: 'group', title };
}

/** A supergroup (id `-100…`). */
export function supergroupChat(id: number, title: string): Chat.SupergroupChat {
  return { id: Number(`-100${Math.abs(id)}`), type: 'supergroup', title };
}

/** A `sendMessage` the fake accepted. */
export interface SentMessage {
  chat_id: number;
  /** The text exactly as the bot sent it (HTML source when parse_mode is HTML). */
  text: string;
  parse_mode: string | undefined;
  /** The text a user sees (markup removed, entities decoded). */
  plain: string;
  /** User ids mentioned with `tg://user?id=` links (text mentions): the people this message notifies. */
  mentions: number[];
  /** The message this one replies to (from `reply_parameters` or `reply_to_message_id`), or undefined. */
  reply_to: number | undefined;
  allow_sending_without_reply: boolean | undefined;
  link_preview_disabled: boolean;
  message_thread_id: number | undefined;
  /** `entities` the bot passed explicitly (not those parsed from HTML). */
  entities: MessageEntity[] | undefined;
  /** The Message the fake returned (as a user's client would see it). */
  message: Message;
  /** The inline keyboard or ForceReply it was sent with. */
  reply_markup: InlineKeyboardMarkup | ForceReply | undefined;
  /** When the fake accepted it (epoch ms). */
  acceptedAt: number;
}

/** One API call as received (failed ones included). */
export interface ApiCall {
  method: string;
  params: Record<string, unknown>;
  /** When it arrived (epoch ms). */
  at: number;
  /** What the fake answered: an HTTP status, or `drop`. Set once answered. */
  outcome?: number | 'drop';
}

/** A failure to inject into the next call(s) of a method. */
export type InjectedFailure =
  /** No failure: answer normally (to let calls through before a scripted failure). */
  | { kind: 'none' }
  /** 429 Too Many Requests with `parameters.retry_after`. */
  | { kind: 'rate_limit'; retryAfter: number }
  /** 403 Forbidden: bot was blocked by the user. */
  | { kind: 'blocked' }
  /** The socket is destroyed before the call is processed (nothing happens on the fake's side). */
  | { kind: 'drop' }
  /** Any other API error. */
  | { kind: 'error'; code: number; description: string };


