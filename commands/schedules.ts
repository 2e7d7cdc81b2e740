import { z } from 'zod';
import { plainGoal } from '../src/text.ts';
import { formatRun } from '../src/command-words.ts';
import type { Command } from './command.ts';

const options = z.object({ avatar: z.string().optional() });

/** `/schedules [avatar]`: the scheduled goals (with ids and next runs) of the avatars the sender owns, or all for an admin. */
export const schedules: Command<typeof options> = {
  name: 'schedules',
  description: 'List scheduled goals with their ids and next runs',
  usage: '[avatar]',
  options,
  access: 'own',
  positional: ['avatar'],
  async run({ host, chat }, { avatar }) {
    const { about, entries, mayAdd } = host.schedules.list(chat, avatar);
    if (entries.length === 0) {
      if (!mayAdd) return { avatar: about, text: "No scheduled goals you can see: scheduling an avatar's goals is for its owner and admins." };
      return { avatar: about, text: `No scheduled goals${about ? ` for ${about}` : ''}. /schedule every day at 8:00 collect 10 oak logs makes one.` };
    }
    const lines = entries.map(({ schedule: s, next, zone, byName }) => {
      const how = s.when === s.cron ? s.cron : `${s.when} (${s.cron})`;
      const whose = about ? '' : `${s.avatar} · `;
      return `#${s.id} ${whose}${how} · ${plainGoal(s.goal, 100)} · next ${next ? `${formatRun(next, zone)} ${zone}` : 'never'} · by ${byName}`;
    });
    return { avatar: about, text: lines.join('\n') };
  },
};
