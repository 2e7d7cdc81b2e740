import { z } from 'zod';
import { plainGoal } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({
  which: z
    .string({ error: 'say which: a number from /parked, several (1,3) or all' })
    .trim()
    .regex(/^(?:all|#?\d{1,4}(?:\s*,\s*#?\d{1,4})*)$/i, 'a number from /parked (e.g. 2), several (1,3) or all')
    .transform((v): number[] | 'all' => (v.toLowerCase() === 'all' ? 'all' : v.split(',').map((n) => Number(n.trim().replace('#', ''))))),
  avatar: z.string().optional(),
});

/** `/unpark <n|all> [avatar]`: drop parked goals (by their numbers in `/parked`), so they are not offered again. */
export const unpark: Command<typeof options> = {
  name: 'unpark',
  description: 'Drop parked goals by their numbers in /parked, or all',
  usage: '<n|all> [avatar]',
  access: 'control',
  options,
  positional: ['which', 'avatar'],
  async run({ host, chat }, { which, avatar }) {
    const a = host.control(chat, avatar);
    if (which === 'all' && a.record.parked.length === 0) return { avatar: a.name, text: 'No parked goals to drop.' };
    const dropped = a.unpark(which);
    const left = a.record.parked.length;
    const tail = left === 0 ? 'No parked goals left.' : `${left} still parked (/parked).`;
    const one = dropped.length === 1 ? `Dropped the parked goal ${plainGoal(dropped[0]?.text ?? '', 120)}.` : `Dropped ${dropped.length} parked goals: ${dropped.map((p) => plainGoal(p.text, 60)).join('; ')}.`;
    return { avatar: a.name, text: `${one} ${tail}` };
  },
};
