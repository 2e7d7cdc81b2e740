import { z } from 'zod';
import { formatRun, MAX_MESSAGE_LENGTH } from '../src/command-words.ts';
import type { Command } from './command.ts';

const options = z.object({
  text: z.string({ error: 'say when and what' }).min(1, 'say when and what').max(MAX_MESSAGE_LENGTH, `at most ${MAX_MESSAGE_LENGTH} characters`),
  avatar: z.string().optional(),
});

/** `/schedule <when> <goal> [avatar]`: set a goal on a cron expression or a plain schedule (owner, admin). */
export const schedule: Command<typeof options> = {
  name: 'schedule',
  description: 'Set a goal on a schedule, e.g. every day at 8:00 collect 10 oak logs (or a cron expression)',
  usage: '<when> <goal> [avatar]',
  options,
  access: 'own',
  positional: ['text', 'avatar'],
  rest: 'text',
  async run({ host, chat }, { text, avatar }) {
    const { schedule: s, when, next, zone, defaultZone } = host.schedules.add(chat, text, avatar);
    const how = when.label === when.cron ? `on ${when.cron}` : `${when.label} (${when.cron})`;
    const zoneNote = defaultZone ? ' Times are in UTC, the default: /timezone Europe/Berlin (say) sets yours.' : '';
    return {
      avatar: s.avatar,
      text: `Schedule #${s.id}: ${s.goal}, ${how}. Next runs (${zone}): ${next.map((d) => formatRun(d, zone)).join(', ')}.${zoneNote}`,
    };
  },
};
