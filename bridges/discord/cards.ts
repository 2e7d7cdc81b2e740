/**
 * mindlink's cards as Discord shows them (docs/discord.md "Cards and buttons"): a card with a title or
 * fields becomes an embed, its state the embed's colour; its buttons become action rows. Buttons carry
 * the card's action ids as `custom_id`s, so a press works after a restart. No I/O here.
 */
import {
  ButtonStyle,
  ComponentType,
  TextInputStyle,
  type APIActionRowComponent,
  type APIButtonComponentWithCustomId,
  type APIEmbed,
  type APIModalInteractionResponseCallbackData,
} from 'discord.js';
import type { Card, CardAction } from '../../src/chat.ts';
import { MAX_MESSAGE_LENGTH } from '../../src/classify.ts';
import { escapeMaskedLinks } from './format.ts';

/** The colour of each state: working green, choosing and wrapping up blurple, waiting amber, dead red, stopped grey. */
export const STATE_COLOURS: Record<NonNullable<Card['state']>, number> = {
  working: 0x3ba55d,
  choosing: 0x5865f2,
  wrapup: 0x5865f2,
  waiting: 0xfaa61a,
  dead: 0xed4245,
  stopped: 0x747f8d,
};

const STYLES: Record<CardAction['style'], ButtonStyle.Primary | ButtonStyle.Secondary | ButtonStyle.Danger> = {
  primary: ButtonStyle.Primary,
  secondary: ButtonStyle.Secondary,
  danger: ButtonStyle.Danger,
};

/** Discord's limits on an embed. */
const LIMIT = { title: 256, description: 4096, fields: 25, name: 256, value: 1024, footer: 2048, total: 6000 } as const;
/** Buttons per action row, and rows per message. */
const ROW = 5;
const ROWS = 5;

/** The custom id of the modal's one text field (the goal). */
export const GOAL_FIELD = 'text';

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The embed of a card, or null for a card of buttons only (a `Done:`). What it shows is text that may hold
 * anything (a goal written by anyone): masked links are shown as text, as in posts; an embed pings nobody.
 *
 * @example
 * cardEmbed({ title: 'steve', state: 'working', summary: 'working', fields: [{ name: 'Goal', value: 'collect 3 oak logs' }], actions: [] })
 * // → { title: 'steve', description: 'working', color: 0x3ba55d, fields: [{ name: 'Goal', value: 'collect 3 oak logs', inline: false }] }
 */
export function cardEmbed(card: Card): APIEmbed | null {
  if (card.title === undefined && card.fields.length === 0) return null;
  const embed: APIEmbed = {
    ...(card.title !== undefined ? { title: clip(card.title, LIMIT.title) } : {}),
    ...(card.summary ? { description: clip(escapeMaskedLinks(card.summary), LIMIT.description) } : {}),
    color: STATE_COLOURS[card.state ?? 'stopped'],
    fields: [],
    ...(card.footer ? { footer: { text: clip(card.footer, LIMIT.footer) } } : {}),
  };
  let room = LIMIT.total - (embed.title?.length ?? 0) - (embed.description?.length ?? 0) - (embed.footer?.text.length ?? 0);
  for (const f of card.fields.slice(0, LIMIT.fields)) {
    const field = { name: clip(f.name, LIMIT.name), value: clip(escapeMaskedLinks(f.value).trim() || '—', LIMIT.value), inline: f.inline === true };
    room -= field.name.length + field.value.length;
    // Discord refuses an embed over 6000 characters in all: the last fields give way.
    if (room < 0) break;
    embed.fields?.push(field);
  }
  return embed;
}

/**
 * The action rows of a card's buttons (five to a row).
 *
 * @example
 * cardComponents({ fields: [], actions: [{ id: 'stop:steve', label: 'Stop', style: 'danger' }] })
 * // → [{ type: 1, components: [{ type: 2, style: 4, label: 'Stop', custom_id: 'stop:steve' }] }]
 */
export function cardComponents(card: Card): APIActionRowComponent<APIButtonComponentWithCustomId>[] {
  const rows: APIActionRowComponent<APIButtonComponentWithCustomId>[] = [];
  for (let i = 0; i < card.actions.length && rows.length < ROWS; i += ROW) {
    rows.push({
      type: ComponentType.ActionRow,
      components: card.actions.slice(i, i + ROW).map((a) => ({ type: ComponentType.Button, style: STYLES[a.style], label: a.label, custom_id: a.id })),
    });
  }
  return rows;
}

/**
 * The modal a button that asks for the goal opens: one text field. Its `custom_id` is the button's, so the
 * submit says what it was for, after a restart too.
 *
 * @example
 * goalModal('goal:steve', 'New goal for steve', 'collect 10 oak logs') // → { custom_id: 'goal:steve', title: 'New goal for steve', components: [a label with a text field] }
 */
export function goalModal(action: string, prompt: string, placeholder: string): APIModalInteractionResponseCallbackData {
  return {
    custom_id: action,
    title: clip(prompt, 45),
    components: [
      {
        type: ComponentType.Label,
        label: 'The goal',
        component: {
          type: ComponentType.TextInput,
          custom_id: GOAL_FIELD,
          style: TextInputStyle.Paragraph,
          required: true,
          min_length: 1,
          max_length: MAX_MESSAGE_LENGTH,
          placeholder: clip(placeholder, 100),
        },
      },
    ],
  };
}
