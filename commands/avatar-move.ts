import { z } from 'zod';
import { AVATAR_GROUP } from './avatar.ts';
import type { Command } from './command.ts';

const options = z.object({
  name: z.string({ error: 'name the avatar to move' }).describe('The avatar to move (stopped)'),
  server: z.string({ error: 'name the server to move it to' }).describe('The server it should play on (/servers lists them)'),
});

/** `/avatar move <name> <server>`: an admin puts a stopped avatar on another Minecraft server. */
export const avatarMove: Command<typeof options> = {
  name: 'avatar move',
  groupDescription: AVATAR_GROUP,
  description: 'Move a stopped avatar to another Minecraft server (admins)',
  usage: '<name> <server>',
  access: 'admin',
  announce: true,
  options,
  positional: ['name', 'server'],
  async run({ host, chat }, { name, server }) {
    const to = await host.servers.move(chat, name, server);
    const moved = host.watch(chat, name);
    const signIn = to.server.auth === 'microsoft' ? ' It signs in with Microsoft there: at /play, its owner gets a code by DM.' : '';
    return { avatar: moved.name, text: `Moved ${moved.name} to ${to.server.id} (${to.address}).${signIn} /play ${moved.name} joins it.` };
  },
};
