import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({});

/** `/help`: the commands and how to talk to an avatar. */
export const help: Command<typeof options> = {
  name: 'help',
  description: 'How to talk to your avatars, and the commands',
  usage: '',
  options,
  positional: [],
  access: 'anyone',
  async run({ commands }) {
    const lines = [
      'Talk to your avatar: "Goal: collect 10 oak logs" sets its goal; a question ("where are you?") gets an answer;',
      'anything else becomes standing direction (#n). "stop" stops it. With several avatars here, start with a name: "steve: …".',
      ...commands.map((c) => `/${c.name}${c.usage ? ` ${c.usage}` : ''} — ${c.description}`),
    ];
    return { avatar: null, text: lines.join('\n') };
  },
};
