/**
 * Answering Discord interactions: slash commands within Discord's 3 s
 * (deferred, then edited, when the command is slower), refusals and errors
 * only to the sender, acknowledgements others should see in public; avatar
 * names autocompleted from the avatars the user may see.
 *
 * Nothing here is persisted: an interaction's token is good for 15 minutes
 * and its answer belongs to it, not to the outbox.
 */
import { MessageFlags, type AutocompleteInteraction, type ChatInputCommandInteraction, type InteractionReplyOptions } from 'discord.js';
import type { BridgeHost, ChatContext, CommandAnswer } from '../../src/chat.ts';
import type { Logger } from '../../src/logger.ts';
import { splitMessage } from '../../src/outbox/split.ts';
import { DISCORD_MAX_MESSAGE_LENGTH, POST_FLAGS, escapeMaskedLinks } from './format.ts';
import { answerMessage } from './presses.ts';
import { commandNameOf, optionValues } from './slash.ts';

/** Most suggestions Discord shows for an autocompleted option. */
const MAX_SUGGESTIONS = 25;

/** How an answer is shown: its parts (each ≤ 2000) and whether only the sender sees it. */
function shape(answer: CommandAnswer): { parts: string[]; ephemeral: boolean } {
  const prefix = answer.avatar ? `[${answer.avatar}] ` : '';
  const parts = splitMessage(escapeMaskedLinks(answer.text), DISCORD_MAX_MESSAGE_LENGTH - prefix.length).map((p) => `${prefix}${p}`);
  return { parts: parts.length > 0 ? parts : [`${prefix}Done.`], ephemeral: answer.refused || !answer.announce };
}

/** The reply's options: the same mention rule as posts, so the text (a goal, a player's name) can ping nobody, and no link previews. */
function replyOptions(content: string, ephemeral: boolean): InteractionReplyOptions {
  return { content, allowedMentions: { parse: [], users: [], repliedUser: false }, flags: ephemeral ? MessageFlags.Ephemeral | POST_FLAGS : POST_FLAGS };
}

/**
 * Run a slash command and answer it. Answered at once when the command takes
 * less than `deferAfterMs` (≤ 0: never); otherwise deferred (public for a command that
 * announces, else only to the sender) and edited once the answer is there.
 * A refusal after a public deferral replaces the public "thinking" with a
 * message only the sender sees.
 */
export async function answerSlashCommand(
  host: BridgeHost,
  interaction: ChatInputCommandInteraction,
  chat: ChatContext,
  opts: { deferAfterMs: number; announces: (name: string) => boolean },
): Promise<void> {
  const name = commandNameOf(interaction.commandName, interaction.options.data);
  const answering = host.answerCommand({ ...chat, name, options: optionValues(interaction.options.data) });
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    // 0 or less: defer every command at once.
    if (opts.deferAfterMs <= 0) resolve('slow');
    else timer = setTimeout(() => resolve('slow'), opts.deferAfterMs);
  });
  const first = await Promise.race([slow, answering]);
  clearTimeout(timer);
  if (first !== 'slow' && first.card && !first.refused) {
    // A card (`/status`) is one message: its embed and buttons.
    await interaction.reply(answerMessage(first, !first.announce));
    return;
  }
  if (first !== 'slow') {
    const { parts, ephemeral } = shape(first);
    await interaction.reply(replyOptions(parts[0] as string, ephemeral));
    for (const part of parts.slice(1)) await interaction.followUp(replyOptions(part, ephemeral));
    return;
  }
  const publicDefer = opts.announces(name);
  await interaction.deferReply(publicDefer ? {} : { flags: MessageFlags.Ephemeral });
  const answer = await answering;
  const { parts, ephemeral } = shape(answer);
  if (answer.card && !answer.refused && publicDefer === answer.announce) {
    const { flags: _flags, ...card } = answerMessage(answer, !answer.announce);
    await interaction.editReply(card);
    return;
  }
  if (publicDefer && ephemeral) {
    await interaction.deleteReply();
    for (const part of parts) await interaction.followUp(replyOptions(part, true));
    return;
  }
  await interaction.editReply({ content: parts[0] as string, allowedMentions: { parse: [], users: [], repliedUser: false }, flags: POST_FLAGS });
  for (const part of parts.slice(1)) await interaction.followUp(replyOptions(part, ephemeral));
}

/** Suggest avatar names the user may see, those starting with what they typed first. */
export async function answerAutocomplete(host: BridgeHost, interaction: AutocompleteInteraction, chat: ChatContext, log: Logger): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const typed = String(focused.value).toLowerCase();
  const names = focused.name === 'avatar' ? host.avatarNames(chat) : [];
  const starts = names.filter((n) => n.toLowerCase().startsWith(typed));
  const contains = names.filter((n) => !starts.includes(n) && n.toLowerCase().includes(typed));
  const choices = [...starts, ...contains].slice(0, MAX_SUGGESTIONS).map((n) => ({ name: n, value: n }));
  log.debug({ option: focused.name, shown: choices.length }, 'discord: autocomplete');
  await interaction.respond(choices);
}
