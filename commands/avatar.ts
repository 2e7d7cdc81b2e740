import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import type { Command } from './command.ts';

const ENGINES = ['scripted', 'llm'] as const;

const options = z.object({
  action: z.enum(['create', 'move'], { error: 'the action is "create" or "move"' }),
  name: z.string({ error: 'name the avatar' }),
  server: z.string().optional(),
  engine: z.string().optional(),
});

/**
 * `/avatar create <name> [server] [engine]`: an admin creates an avatar (stopped until /play), linked to this chat.
 * `/avatar move <name> <server>`: an admin puts a stopped avatar on another server.
 */
export const avatar: Command<typeof options> = {
  name: 'avatar',
  description: 'Create an avatar, stopped until /play, or move a stopped one to another server (admins)',
  announce: true,
  usage: 'create <name> [server] [engine] | move <name> <server>',
  access: 'admin',
  options,
  positional: ['action', 'name', 'server', 'engine'],
  async run({ host, chat }, { action, name, server, engine }) {
    if (action === 'move') {
      if (!server) throw new UserError('bad_args', 'server: name the server to move it to. Usage: /avatar move <name> <server>');
      const to = host.servers.move(chat, name, server);
      const signIn = to.server.auth === 'microsoft' ? ' It signs in with Microsoft there: at /play, its owner gets a code by DM.' : '';
      const moved = host.watch(chat, name);
      return { avatar: moved.name, text: `Moved ${moved.name} to ${to.server.id} (${to.address}).${signIn} /play ${moved.name} joins it.` };
    }
    // Offer only what can run here: llm once it is configured (asked for anyway, its refusal says what it needs).
    const kind = engine === undefined ? undefined : ENGINES.find((e) => e === engine.toLowerCase());
    if (engine !== undefined && !kind) {
      const offered = ENGINES.filter((e) => e !== 'llm' || host.llm().model !== undefined);
      throw new UserError('unknown_engine', `There is no "${engine}" engine here; engines: ${offered.join(', ')}.`);
    }
    const created = await host.createAvatar(chat, name, { ...(server ? { server } : {}), ...(kind ? { engine: kind } : {}) });
    return {
      avatar: created.name,
      text: `Created ${created.name} on ${created.server} (${created.engine} engine), linked to this chat. /play ${created.name} starts it.`,
    };
  },
};
