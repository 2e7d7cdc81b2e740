import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import { personOf } from '../src/rights.ts';
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
  description: 'Create an avatar: /avatar create <name> [server] [engine] (admins)',
  usage: 'create <name> [server] [engine]',
  options,
  positional: ['action', 'name', 'server', 'engine'],
  async run({ core, chat }, { name, server, engine }) {
    if (!core.isAdmin(chat)) throw new UserError('not_admin', 'Only an admin can create avatars.');
    const owner = personOf(core.store.state.data, chat.from) ?? core.ensurePerson(chat.from, chat.fromName);
    const created = await core.createAvatar(name, owner.id, {
      ...(server ? { server } : {}),
      ...(engine ? { engine } : {}),
      linkTo: chat.dest,
    });
    return {
      avatar: created.name,
      text: `Created ${created.name} on ${created.server} (${created.engine} engine), linked to this chat. /play ${created.name} starts it.`,
    };
  },
};
