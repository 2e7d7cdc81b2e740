import { z } from 'zod';
import { formatDirectionLine } from '../src/loop/directions.ts';
import { canWatch } from '../src/rights.ts';
import { UserError } from '../src/errors.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/direction [avatar]`: list the open owner direction, one line each. */
export const direction: Command<typeof options> = {
  name: 'direction',
  description: "List an avatar's open owner direction",
  usage: '[avatar]',
  options,
  positional: ['avatar'],
  async run({ core, chat }, { avatar }) {
    const a = core.resolveAvatar(chat, avatar);
    if (!canWatch(core.roleFor(chat, a))) throw new UserError('not_allowed', `You can't see ${a.name}'s direction.`);
    const open = a.directions.open;
    if (open.length === 0) return { avatar: a.name, text: 'No open direction. Anything you write that is not a goal or a question becomes one.' };
    return { avatar: a.name, text: open.map(formatDirectionLine).join('\n') };
  },
};
