import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/unlink [avatar]`: stop posting this avatar's news here. */
export const unlink: Command<typeof options> = {
  name: 'unlink',
  description: 'Unlink an avatar from this chat',
  announce: true,
  usage: '[avatar]',
  access: 'control',
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.control(chat, avatar);
    const had = a.unlink();
    return { avatar: a.name, text: had ? 'Unlinked from this chat.' : 'It was not linked to this chat.' };
  },
};
