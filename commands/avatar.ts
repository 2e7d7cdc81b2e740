import { z } from 'zod';
import { ENGINE_KINDS } from '../src/command-words.ts';
import { UserError } from '../src/errors.ts';
import type { Command } from './command.ts';

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
    // Offer only what can run here: llm once the model is configured, an agent engine once its CLI is installed,
    // hybrid once the engine of its model turns can run (asked for anyway, each refusal says what it needs).
    const kind = engine === undefined ? undefined : ENGINE_KINDS.find((e) => e === engine.toLowerCase());
    if (engine !== undefined && !kind) {
      const { model, agents, hybridModel } = host.llm();
      const runs = (e: string): boolean => e === 'scripted' || (e === 'llm' ? model !== undefined : e === 'hybrid' ? runs(hybridModel) : agents.includes(e));
      const offered = ENGINE_KINDS.filter(runs);
      throw new UserError('unknown_engine', `There is no "${engine}" engine here; engines: ${offered.join(', ')}.`);
    }
    const created = await host.createAvatar(chat, name, { ...(server ? { server } : {}), ...(kind ? { engine: kind } : {}) });
    return {
      avatar: created.name,
      text: `Created ${created.name} on ${created.server} (${created.engine} engine), linked to this chat. /play ${created.name} starts it.`,
    };
  },
};
