import { z } from 'zod';
import { formatRun } from '../src/command-words.ts';
import type { Command } from './command.ts';

const options = z.object({ zone: z.string().max(100, 'a time zone name is shorter').optional() });

/** Now, to the minute (no seconds in "it is … there"). */
function minute(): Date {
  return new Date(Math.floor(Date.now() / 60_000) * 60_000);
}

/** `/timezone [zone]`: show or set the sender's IANA time zone; their schedules and digests run and print in it. */
export const timezone: Command<typeof options> = {
  name: 'timezone',
  description: 'Show or set your time zone for schedules, e.g. Europe/Berlin',
  usage: '[zone]',
  options,
  access: 'own',
  positional: ['zone'],
  async run({ host, chat }, { zone }) {
    if (!zone) {
      const now = host.schedules.zone(chat);
      const note = now.isDefault ? ' (the default)' : '';
      return { avatar: null, text: `Your time zone is ${now.zone}${note}; it is ${formatRun(minute(), now.zone)} there. /timezone Europe/Berlin (say) changes it.` };
    }
    const set = host.schedules.setZone(chat, zone);
    const tail = set.schedules.length > 0 ? ` Your schedules (${set.schedules.map((id) => `#${id}`).join(', ')}) run in it from now on.` : ' Your schedules and digests run in it.';
    return { avatar: null, text: `Your time zone is now ${set.zone}; it is ${formatRun(minute(), set.zone)} there.${tail}` };
  },
};
