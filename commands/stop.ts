import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/stop [avatar]`: end the loop and leave the game; the goal is kept. */
export const stop: Command<typeof options> = {
  name: 'stop',
  description: 'Stop an avatar: it leaves the game and keeps its goal',
  usage: '[avatar]',
  options,
  positional: ['avatar'],
  async run({ core, chat }, { avatar }) {
    const a = core.controlledAvatar(chat, avatar);
    if (core.displayState(a.name) === 'stopped') return { avatar: a.name, text: 'Already stopped. /play starts me again.' };
    await core.stopAvatar(a.name);
    return { avatar: a.name, text: 'Stopped. My goal is kept: /play resumes it.' };
  },
};
