import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({
  role: z.string().meta({ chatType: 'role' }).optional().describe('Only the shares with this role'),
  server: z.string().optional().describe('Only the shares of this server'),
  avatar: z.string().optional().describe('Only the share of this avatar'),
});

/** `/unshare [role] [server] [avatar:<name>]` (Discord): end this guild's shares (all you may end, or those named). */
export const unshare: Command<typeof options> = {
  name: 'unshare',
  description: 'End sharing avatars with a role of this Discord server',
  usage: '[role] [server] [avatar:<name>]',
  access: 'known',
  announce: true,
  options,
  positional: ['role', 'server'],
  platforms: ['discord'],
  guildManagers: true,
  offered: (host, chat) => chat.guild !== undefined && chat.canManageGuild === true && (host.isAdmin(chat) || host.ownsAny(chat)),
  async run({ host, chat }, request) {
    const removed = host.unshare(chat, request);
    if (removed.length === 0) return { avatar: request.avatar ?? null, text: 'Nothing matching is shared here.' };
    const lines = removed.map((s) => `${s.avatar ?? `avatars on ${s.server}`} with <@&${s.role}>`);
    return { avatar: request.avatar ?? null, text: `No longer shared: ${lines.join('; ')}.` };
  },
};
