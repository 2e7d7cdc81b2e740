import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({ code: z.string({ error: 'give the code from the mindlink log' }) });

/** `/pair <code>`: become an admin with the one-time code mindlink logs at start while it has no chat admin. */
export const pair: Command<typeof options> = {
  name: 'pair',
  description: 'Become the admin with the one-time code from the mindlink log',
  usage: '<code>',
  options,
  positional: ['code'],
  platforms: ['telegram', 'discord'],
  // Only while a code waits to be used (mindlink has no chat admin yet).
  offered: (host) => host.pairingOpen(),
  privateOnly: true,
  access: 'anyone',
  async run({ host, chat }, { code }) {
    return { avatar: null, text: host.pair(chat, code) };
  },
};
