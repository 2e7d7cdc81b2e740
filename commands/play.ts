import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/play [avatar]`: join the game and run the goal loop, resuming the saved goal. */
export const play: Command<typeof options> = {
  name: 'play',
  description: 'Start an avatar: it joins the game and works on its goal',
  announce: true,
  usage: '[avatar]',
  access: 'control',
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.control(chat, avatar);
    if (a.isPlaying() || !(await a.play())) return { avatar: a.name, text: 'Already playing.' };
    const goal = a.record.goal;
    return { avatar: a.name, text: goal ? `Playing. Resuming my goal: ${goal.text}` : 'Playing. Choosing my first goal.', news: 'info' };
  },
};
