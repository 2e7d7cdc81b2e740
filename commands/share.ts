import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({
  role: z.string({ error: 'name the role whose members may control the avatars' }).meta({ chatType: 'role' }).describe('Members with this role may control the avatars'),
  server: z.string().optional().describe('The Minecraft server whose avatars to share (default: the embedded one)'),
  avatar: z.string().optional().describe('Share only this avatar'),
});

/**
 * `/share role:<role> [server]` or `/share role:<role> avatar:<name>` (Discord):
 * members with the role become pilots of that server's avatars (present and
 * future) or of the one avatar, from this guild's channels.
 */
export const share: Command<typeof options> = {
  name: 'share',
  description: "Share a server's avatars (or one avatar) with a role of this Discord server",
  usage: 'role:<role> [server] | role:<role> avatar:<name>',
  access: 'known',
  announce: true,
  options,
  positional: ['role', 'server'],
  platforms: ['discord'],
  guildManagers: true,
  // In a Discord server's channel, by someone who may manage it and shares what they own (or, an admin, anything).
  offered: (host, chat) => chat.guild !== undefined && chat.canManageGuild === true && (host.isAdmin(chat) || host.ownsAny(chat)),
  async run({ host, chat }, request) {
    const made = host.share(chat, request);
    const what = made.avatar ?? (made.ownOnly ? `your avatars on ${made.server} (present and future)` : `every avatar on ${made.server} (present and future)`);
    return {
      avatar: made.avatar,
      text: `Shared ${what} with <@&${made.roleId}>: members with that role may control ${made.avatar ? 'it' : 'them'} from this server's channels; others may ask questions and see /status in the channels ${made.avatar ? 'it is' : 'they are'} linked to.`,
    };
  },
};
