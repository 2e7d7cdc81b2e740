/**
 * mindlink's cards as Telegram shows them (docs/telegram.md "Cards and buttons"): the text as it is, the
 * last press under it, and the buttons as an inline keyboard whose callback data are the card's action
 * ids (within Telegram's 64 bytes). The goal a `Goal…` button asks for is asked with a ForceReply whose
 * text says whose goal it is, so the answer to it is understood after a restart too. No I/O here.
 */
import type { InlineKeyboardMarkup } from 'grammy/types';
import type { Card } from '../../src/chat.ts';
import { escapeHtml, mentionHtml } from './format.ts';

/** Buttons per keyboard row. */
const ROW = 3;

/**
 * A card's buttons as an inline keyboard; null for a card with none.
 *
 * @example
 * cardKeyboard({ fields: [], actions: [{ id: 'stop:steve', label: 'Stop', style: 'danger' }] })
 * // → { inline_keyboard: [[{ text: 'Stop', callback_data: 'stop:steve' }]] }
 */
export function cardKeyboard(card: Card | undefined): InlineKeyboardMarkup | null {
  if (!card || card.actions.length === 0) return null;
  const rows: InlineKeyboardMarkup['inline_keyboard'] = [];
  for (let i = 0; i < card.actions.length; i += ROW) {
    rows.push(card.actions.slice(i, i + ROW).map((a) => ({ text: a.label, callback_data: a.id })));
  }
  return { inline_keyboard: rows };
}

/** The text of a card: its plain text, and under it what the last press did. */
export function cardText(text: string, card: Card | undefined): string {
  return card?.footer ? `${text}\n\n${card.footer}` : text;
}

/** The words that mark a goal asked for: a reply to a message of ours that has them is the goal. */
const ASKING = 'what should my new goal be? Reply to this message with it.';

/**
 * The HTML of the question a `Goal…` button asks, as a ForceReply: in a group it names the presser (a
 * mention of them alone, so their client opens the reply); the `[avatar] ` prefix says whose goal it is.
 *
 * @example
 * goalPromptHtml('steve', null) // → '[steve] What should my new goal be? Reply to this message with it.'
 */
export function goalPromptHtml(avatar: string, presser: { id: number; name: string } | null): string {
  const who = presser ? `${mentionHtml(String(presser.id), presser.name)}, ${ASKING}` : `${ASKING.charAt(0).toUpperCase()}${ASKING.slice(1)}`;
  return `${escapeHtml(`[${avatar}]`)} ${who}`;
}

/**
 * The avatar whose goal a message of ours asked for, from its text as a client shows it; null for any other message.
 *
 * @example
 * avatarOfGoalPrompt('[steve] Alice, what should my new goal be? Reply to this message with it.') // → 'steve'
 */
export function avatarOfGoalPrompt(text: string | undefined): string | null {
  const m = /^\[([A-Za-z0-9_]{3,16})\] (?:.*, )?what should my new goal be\? Reply to this message with it\.$/is.exec(text ?? '');
  return m?.[1] ?? null;
}
