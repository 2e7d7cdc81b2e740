import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string({ error: 'name the avatar to link' }), mode: z.enum(['control', 'watch']).default('control') });

/** `/link <avatar> [control|watch]`: post this avatar's news to this chat (and take its messages, in control mode). */
export const link: Command<typeof options> = {
  name: 'link',
  description: 'Link an avatar to this chat, so its news comes here (and, in control mode, your messages go to it)',
  announce: true,
  usage: '<avatar> [control|watch]',
  access: 'control',
  options,
  positional: ['avatar', 'mode'],
  async run({ host, chat }, { avatar, mode }) {
    const a = host.control(chat, avatar);
    a.link(mode);
    return { avatar: a.name, text: `Linked to this chat (${mode}).` };
  },
};
