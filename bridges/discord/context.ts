/**
 * Who wrote, where, and with which roles: the chat context of a Discord
 * message or interaction, as the core's rights need it.
 */
import {
  GuildMember,
  PermissionFlagsBits,
  type APIInteractionGuildMember,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
  type Message,
} from 'discord.js';
import type { ChatContext } from '../../src/chat.ts';
import type { Destination } from '../../src/store/schema.ts';
import { destinationOf } from './format.ts';

/** Role ids of a guild member, from discord.js's member or an interaction's raw member; `@everyone` (the guild id) included. */
export function roleIdsOf(member: GuildMember | APIInteractionGuildMember | null, guildId: string): string[] {
  if (!member) return [guildId];
  const ids = member instanceof GuildMember ? [...member.roles.cache.keys()] : member.roles;
  return ids.includes(guildId) ? ids : [...ids, guildId];
}

/** The context of a message in a guild channel, a thread or a DM. */
export function messageContext(message: Message, dest: Destination, inGuild: boolean): ChatContext {
  return {
    platform: 'discord',
    from: `discord:${message.author.id}`,
    fromName: message.member?.displayName ?? message.author.globalName ?? message.author.username,
    dest,
    chatKind: inGuild ? 'group' : 'private',
    messageId: message.id,
    sentAt: message.createdTimestamp,
    ...(inGuild && message.guildId
      ? {
          guild: message.guildId,
          roles: roleIdsOf(message.member, message.guildId),
          canManageGuild: message.member?.permissions.has(PermissionFlagsBits.ManageGuild) ?? false,
        }
      : {}),
  };
}

/** The context of a slash command, an autocomplete, a button press or a modal submit; the permissions are those Discord computed for the member. */
export function interactionContext(interaction: ChatInputCommandInteraction | AutocompleteInteraction | ButtonInteraction | ModalSubmitInteraction): ChatContext {
  const guildId = interaction.guildId;
  const member = interaction.member;
  const nick = member instanceof GuildMember ? member.displayName : (member?.nick ?? null);
  return {
    platform: 'discord',
    from: `discord:${interaction.user.id}`,
    fromName: nick ?? interaction.user.globalName ?? interaction.user.username,
    dest: destinationOf(interaction.channelId ?? interaction.user.id),
    chatKind: guildId ? 'group' : 'private',
    messageId: null,
    ...(guildId
      ? { guild: guildId, roles: roleIdsOf(member, guildId), canManageGuild: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false }
      : {}),
  };
}
