import { z } from 'zod';
import { formatDirectionLine } from '../src/loop/directions.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/direction [avatar]`: list the open owner direction, one line each. */
export const direction: Command<typeof options> = {
  name: 'direction',
  description: "List an avatar's open owner direction",
  usage: '[avatar]',
  access: 'known',
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.watch(chat, avatar);
    const open = a.record.directions.open;
    if (open.length === 0) return { avatar: a.name, text: 'No open direction. Anything you write that is not a goal or a question becomes one.' };
    return { avatar: a.name, text: open.map(formatDirectionLine).join('\n') };
  },
};
