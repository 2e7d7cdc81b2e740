import { z } from 'zod';
import { formatRun } from '../src/command-words.ts';
import type { Command } from './command.ts';

const options = z.object({
  state: z.enum(['on', 'off'], { error: 'say on or off' }).optional(),
  time: z.string().optional(),
});

/** `/digest on|off [HH:MM]`: one short message a day per avatar linked to this chat (its owner, or an admin). */
export const digest: Command<typeof options> = {
  name: 'digest',
  description: 'Turn the daily digest of the avatars in this chat on (at a time) or off',
  usage: 'on|off [HH:MM]',
  options,
  access: 'own',
  positional: ['state', 'time'],
  async run({ host, chat }, { state, time }) {
    const desk = host.schedules;
    if (!state) {
      const v = desk.digest(chat);
      if (!v.digest) return { avatar: null, text: 'The daily digest is off here. /digest on [HH:MM] turns it on.' };
      return { avatar: null, text: `The daily digest is on here at ${v.digest.time} ${v.zone} for ${v.avatars.join(', ')}${v.next ? `; next ${formatRun(v.next, v.zone)}` : ''}.` };
    }
    if (state === 'off') {
      const was = desk.digest(chat).digest;
      desk.setDigest(chat, false);
      return { avatar: null, text: was ? 'Daily digest off for this chat.' : 'The daily digest was not on here.' };
    }
    const v = desk.setDigest(chat, true, time);
    return {
      avatar: null,
      text: `Daily digest on: every day at ${v.digest?.time} ${v.zone}, one message per avatar (${v.avatars.join(', ')}); nothing on a day with nothing to say.`,
    };
  },
};
