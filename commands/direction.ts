import { z } from 'zod';
import { DIRECTION_CUT, formatDirectionLine } from '../src/command-words.ts';
import { cutOnWord } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/direction [avatar]`: list the open owner direction, one line each (in full for its owner and admins, and in a linked chat). */
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
    if (open.length === 0) {
      const how = host.mayControl(chat, a) ? ' Anything you write that is not a goal or a question becomes one.' : '';
      return { avatar: a.name, text: `No open direction.${how}` };
    }
    if (a.sight.fullDirection) return { avatar: a.name, text: open.map(formatDirectionLine).join('\n') };
    const lines = open.map((d) => cutOnWord(formatDirectionLine(d), DIRECTION_CUT));
    lines.push(`(Cut short here: the full text is for ${a.name}'s owner, and in the chats it is linked to.)`);
    return { avatar: a.name, text: lines.join('\n') };
  },
};
