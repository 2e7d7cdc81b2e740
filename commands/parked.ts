import { z } from 'zod';
import { isoDay } from '../src/command-words.ts';
import { plainGoal } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/parked [avatar]`: the owner goals an avatar set aside, numbered for `/unpark`. */
export const parked: Command<typeof options> = {
  name: 'parked',
  description: "List an avatar's parked goals, numbered for /unpark",
  usage: '[avatar]',
  access: 'control',
  options,
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const a = host.control(chat, avatar);
    const list = a.record.parked;
    if (list.length === 0) return { avatar: a.name, text: 'No parked goals.' };
    const lines = list.map(
      (p, i) => `${i + 1}. ${plainGoal(p.text, 120)} · parked ${isoDay(p.parkedAt)} (${plainGoal(p.reason, 100)}) · set by ${host.personName(p.setById)}`,
    );
    lines.push(`/unpark <n|all>${avatar ? ` ${a.name}` : ''} drops one, several (1,3) or all; the others come back when I choose a goal.`);
    return { avatar: a.name, text: lines.join('\n') };
  },
};
