import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({
  mode: z.enum(['on', 'off'], { error: 'say on or off' }).describe('on: open a thread with one line per turn; off: close it'),
  avatar: z.string().optional(),
});

/** `/verbose on|off [avatar]` (Discord): a thread under this linked channel with one line per turn, at most one message per 10 s. */
export const verbose: Command<typeof options> = {
  name: 'verbose',
  description: "Stream an avatar's turns, one line each, into a thread here (on|off)",
  usage: 'on|off [avatar]',
  access: 'control',
  announce: true,
  options,
  positional: ['mode', 'avatar'],
  platforms: ['discord'],
  // A thread opens under a channel of a Discord server, not in a DM.
  offered: (_host, chat) => chat.guild !== undefined,
  async run({ host, chat }, { mode, avatar }) {
    const a = host.control(chat, avatar);
    if (mode === 'off') {
      return { avatar: a.name, text: host.closeThoughts(chat, a) ? 'No more thoughts in the thread.' : 'No thought stream is open here.' };
    }
    const { thread, opened } = await host.openThoughts(chat, a);
    const mention = `<#${thread.replace(/^discord:/, '')}>`;
    return { avatar: a.name, text: opened ? `Thinking aloud in ${mention}: one line per turn, at most one message every 10 s.` : `Already thinking aloud in ${mention}.` };
  },
};
