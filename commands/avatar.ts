import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import type { Command } from './command.ts';

const ENGINES = ['scripted', 'llm', 'hybrid'] as const;

/** What the `/avatar` group does, for the command menus. */
export const AVATAR_GROUP = 'Create, remove, rename or move an avatar';

const options = z.object({
  name: z.string({ error: 'give the new avatar a name' }),
  server: z.string().optional(),
  engine: z.string().optional(),
});

/** `/avatar create <name> [server] [engine]`: an admin creates an avatar (stopped until /play), linked to this chat. */
export const avatar: Command<typeof options> = {
  name: 'avatar create',
  groupDescription: AVATAR_GROUP,
  description: 'Create an avatar, stopped until /play (admins)',
  announce: true,
  usage: '<name> [server] [engine]',
  access: 'admin',
  options,
  positional: ['name', 'server', 'engine'],
  async run({ host, chat }, { name, server, engine }) {
    // Offer only what can run here: llm and hybrid once the model is configured (asked for anyway, the refusal says what it needs).
    const kind = engine === undefined ? undefined : ENGINES.find((e) => e === engine.toLowerCase());
    if (engine !== undefined && !kind) {
      const offered = ENGINES.filter((e) => e === 'scripted' || host.llm().model !== undefined);
      throw new UserError('unknown_engine', `There is no "${engine}" engine here; engines: ${offered.join(', ')}.`);
    }
    const created = await host.createAvatar(chat, name, { ...(server ? { server } : {}), ...(kind ? { engine: kind } : {}) });
    return {
      avatar: created.name,
      text: `Created ${created.name} on ${created.server} (${created.engine} engine), linked to this chat. /play ${created.name} starts it.`,
    };
  },
};
