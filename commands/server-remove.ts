import { z } from 'zod';
import type { Command } from './command.ts';
import { SERVER_GROUP } from './server-add.ts';

const options = z.object({
  name: z.string({ error: 'name the server to remove' }).describe('The server to remove (no avatar may be on it)'),
});

/** `/server remove <name>` (admins): a server no avatar is on is removed, with its shares; one in use is refused, naming its avatars. */
export const serverRemove: Command<typeof options> = {
  name: 'server remove',
  groupDescription: SERVER_GROUP,
  description: 'Remove a Minecraft server no avatar is on (admins)',
  usage: '<name>',
  access: 'admin',
  options,
  positional: ['name'],
  async run({ host, chat }, { name }) {
    const gone = host.servers.remove(chat, name);
    return { avatar: null, text: `Removed ${gone.server.id} (${gone.address}).` };
  },
};
