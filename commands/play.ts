import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/play [avatar]`: join the game and run the goal loop, resuming the saved goal. */
export const play: Command<typeof options> = {
  name: 'play',
  description: 'Start an avatar: it joins the game and works on its goal',
  usage: '[avatar]',
  options,
  positional: ['avatar'],
  async run({ core, chat }, { avatar }) {
    const a = core.controlledAvatar(chat, avatar);
    if (core.displayState(a.name) !== 'stopped') return { avatar: a.name, text: 'Already playing.' };
    await core.play(a.name);
    const goal = core.avatar(a.name)?.goal;
    return { avatar: a.name, text: goal ? `Playing. Resuming my goal: ${goal.text}` : 'Playing. Choosing my first goal.' };
  },
};
