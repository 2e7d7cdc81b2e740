import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/stop [avatar]`: end the loop and leave the game; the goal is kept. */
export const stop: Command<typeof options> = {
  name: 'stop',
  description: 'Stop an avatar: it leaves the game and keeps its goal',
  announce: true,
  usage: '[avatar]',
  access: 'control',
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.control(chat, avatar);
    if (!(await a.stop())) return { avatar: a.name, text: 'Already stopped. /play starts me again.' };
    return { avatar: a.name, text: 'Stopped. My goal is kept: /play resumes it.', news: 'stopped' };
  },
};
