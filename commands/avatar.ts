import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({
  action: z.enum(['create'], { error: 'the action is "create"' }),
  name: z.string({ error: 'give the new avatar a name' }),
  server: z.string().optional(),
  engine: z.enum(['scripted', 'llm']).optional(),
});

/** `/avatar create <name> [server] [engine]`: an admin creates an avatar (stopped until /play), linked to this chat. */
export const avatar: Command<typeof options> = {
  name: 'avatar',
  description: 'Create an avatar, stopped until /play (admins)',
  usage: 'create <name> [server] [engine]',
  access: 'admin',
  options,
  positional: ['action', 'name', 'server', 'engine'],
  async run({ host, chat }, { name, server, engine }) {
    const created = await host.createAvatar(chat, name, { ...(server ? { server } : {}), ...(engine ? { engine } : {}) });
    return {
      avatar: created.name,
      text: `Created ${created.name} on ${created.server} (${created.engine} engine), linked to this chat. /play ${created.name} starts it.`,
    };
  },
};
