/**
 * Buttons pressed on mindlink's cards, and the goal modal they open, answered within Discord's 3 s: a
 * refusal only to the presser (ephemeral) with nothing changed; a card shown again in place (an interaction
 * update of the message the button is on); the goal asked for in a modal; or an answer of its own, as the
 * command the button stands for is answered. Which of these is the core's word (`BridgeHost.press`).
 */
import { MessageFlags, type ButtonInteraction, type InteractionReplyOptions, type InteractionUpdateOptions, type ModalSubmitInteraction } from 'discord.js';
import { asksForGoal, parseActionId, updatesCard } from '../../src/cards.ts';
import type { BridgeHost, ChatContext, CommandAnswer, PressOutcome } from '../../src/chat.ts';
import { splitMessage } from '../../src/outbox/split.ts';
import { cardComponents, cardEmbed, GOAL_FIELD, goalModal } from './cards.ts';
import { DISCORD_MAX_MESSAGE_LENGTH, POST_FLAGS, escapeMaskedLinks } from './format.ts';

/** Nobody is pinged by anything a press shows. */
const NO_MENTIONS = { parse: [], users: [], repliedUser: false } as const;

/** A text answer: `[avatar] ` and the text, cut to one message. */
function textOf(avatar: string | null, text: string): string {
  const prefix = avatar ? `[${avatar}] ` : '';
  return `${prefix}${splitMessage(escapeMaskedLinks(text), DISCORD_MAX_MESSAGE_LENGTH - prefix.length)[0] ?? 'Done.'}`;
}

/** An answer as a message: a card as an embed and buttons (which show no link previews from content: it has none), else text. */
export function answerMessage(answer: Pick<CommandAnswer, 'avatar' | 'text' | 'card'>, ephemeral: boolean): InteractionReplyOptions {
  const embed = answer.card ? cardEmbed(answer.card) : null;
  const components = answer.card ? cardComponents(answer.card) : [];
  if (embed) return { embeds: [embed], components, allowedMentions: NO_MENTIONS, ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}) };
  return { content: textOf(answer.avatar, answer.text), components, allowedMentions: NO_MENTIONS, flags: ephemeral ? MessageFlags.Ephemeral | POST_FLAGS : POST_FLAGS };
}

/** The pressed card as it is now. */
function updateOf(outcome: Extract<PressOutcome, { kind: 'update' }>): InteractionUpdateOptions {
  const embed = cardEmbed(outcome.card);
  return embed
    ? { content: '', embeds: [embed], components: cardComponents(outcome.card), allowedMentions: NO_MENTIONS }
    : { content: textOf(outcome.avatar, outcome.text), embeds: [], components: cardComponents(outcome.card), allowedMentions: NO_MENTIONS };
}

/**
 * Answer a button press or a modal submit. Answered at once when the core is quicker than `deferAfterMs`;
 * otherwise deferred (an update for a button that shows its card again, else a reply) and completed when
 * the outcome is there. A button that asks for the goal opens its modal at once: a modal cannot follow a deferral.
 */
export async function answerPress(
  host: BridgeHost,
  interaction: ButtonInteraction | ModalSubmitInteraction,
  chat: ChatContext,
  opts: { deferAfterMs: number },
): Promise<void> {
  const action = interaction.customId;
  const text = interaction.isModalSubmit() ? interaction.fields.getTextInputValue(GOAL_FIELD) : undefined;
  const pressing = host.press({ ...chat, action, ...(text !== undefined ? { text } : {}) });
  const kind = parseActionId(action)?.kind;
  // Only the rights are checked before a modal: quick, and it must be the first answer.
  const opensModal = kind !== undefined && asksForGoal(kind) && text === undefined;
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    if (opensModal) return;
    if (opts.deferAfterMs <= 0) resolve('slow');
    else timer = setTimeout(() => resolve('slow'), opts.deferAfterMs);
  });
  const first = await Promise.race([slow, pressing]);
  clearTimeout(timer);
  if (first !== 'slow') return show(interaction, first);
  // A card shown again is an update of the message; a message of its own a reply, public if it announces (a goal).
  const updates = kind !== undefined && updatesCard(kind) && interaction.message !== null;
  const deferredPrivately = kind !== 'newgoal';
  if (updates) await interaction.deferUpdate();
  else await interaction.deferReply(deferredPrivately ? { flags: MessageFlags.Ephemeral } : {});
  const outcome = await pressing;
  if (outcome.kind === 'update' && updates) {
    await interaction.editReply(updateOf(outcome));
    return;
  }
  const [message, privately] =
    outcome.kind === 'answer'
      ? [answerMessage(outcome.answer, outcome.answer.refused || !outcome.answer.announce), outcome.answer.refused || !outcome.answer.announce]
      : [answerMessage(outcome.kind === 'update' ? { avatar: outcome.avatar, text: outcome.text, card: outcome.card } : { avatar: outcome.avatar, text: outcome.kind === 'refused' ? outcome.text : 'Press it again.' }, true), true];
  if (!updates && privately === deferredPrivately) {
    // An edit keeps the deferral's visibility, which is the one wanted.
    const { flags: _flags, ...edit } = message;
    await interaction.editReply(edit);
    return;
  }
  // Otherwise the "thinking…" goes and the answer follows with its own visibility (a refusal: the presser alone).
  if (!updates) await interaction.deleteReply();
  await interaction.followUp(message);
}

/** Show an outcome as the first answer to the interaction. */
async function show(interaction: ButtonInteraction | ModalSubmitInteraction, outcome: PressOutcome): Promise<void> {
  switch (outcome.kind) {
    case 'refused':
      await interaction.reply({ content: textOf(outcome.avatar, outcome.text), allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral | POST_FLAGS });
      return;
    case 'ask':
      if (interaction.isModalSubmit()) {
        // A modal cannot open another: the submit carried no text (Discord requires the field).
        await interaction.reply({ content: textOf(outcome.avatar, 'Say what the goal is.'), allowedMentions: NO_MENTIONS, flags: MessageFlags.Ephemeral | POST_FLAGS });
        return;
      }
      await interaction.showModal(goalModal(interaction.customId, outcome.prompt, outcome.placeholder));
      return;
    case 'update':
      if (interaction.isButton() || interaction.isFromMessage()) {
        await interaction.update(updateOf(outcome));
        return;
      }
      await interaction.reply(answerMessage({ avatar: outcome.avatar, text: outcome.text, card: outcome.card }, true));
      return;
    case 'answer':
      await interaction.reply(answerMessage(outcome.answer, outcome.answer.refused || !outcome.answer.announce));
      return;
  }
}
