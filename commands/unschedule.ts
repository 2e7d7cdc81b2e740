import { z } from 'zod';
import { plainGoal } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({
  id: z
    .string({ error: 'give the schedule id (/schedules lists them)' })
    .regex(/^#?\d{1,9}$/, 'a schedule id is a number like 3 or #3')
    .transform((v) => Number(v.replace('#', ''))),
});

/** `/unschedule <id>`: remove a scheduled goal (its avatar's owner, or an admin). */
export const unschedule: Command<typeof options> = {
  name: 'unschedule',
  description: 'Remove a scheduled goal by its id',
  usage: '<id>',
  options,
  access: 'own',
  positional: ['id'],
  async run({ host, chat }, { id }) {
    const s = host.schedules.remove(chat, id);
    return { avatar: s.avatar, text: `Removed schedule #${id} (${plainGoal(s.goal, 100)}, ${s.when}).` };
  },
};
