import { z } from 'zod';
import { plainGoal } from '../src/text.ts';
import type { Command } from './command.ts';

const options = z.object({});

/** `/avatars`: the avatars you may see, with state, owner and goal (shown as /status shows it, shorter). */
export const avatars: Command<typeof options> = {
  name: 'avatars',
  description: 'List the avatars you can see',
  usage: '',
  access: 'known',
  options,
  positional: [],
  async run({ host, chat }) {
    const list = host.visible(chat);
    if (list.length === 0) {
      const how = host.isAdmin(chat) ? '/avatar create <name> makes one.' : 'An admin of this mindlink can make you one.';
      return { avatar: null, text: `No avatars here yet. ${how}` };
    }
    const lines = list.map((a) => {
      const goal = a.record.goal ? ` — ${plainGoal(a.record.goal.text, 80)}` : '';
      return `${a.name}: ${a.state()} (owner ${host.personName(a.record.owner)}, ${a.record.engine})${goal}`;
    });
    return { avatar: null, text: lines.join('\n') };
  },
};
