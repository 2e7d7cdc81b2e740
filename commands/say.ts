import { z } from 'zod';
import type { Command } from './command.ts';

const options = z.object({
  text: z.string({ error: 'say what to say' }).min(1, 'say what to say'),
  avatar: z.string().optional(),
});

/** `/say commands on|off`: the owner's switch for lines starting with `/`. */
const SWITCH = /^commands\s+(on|off)$/i;

/**
 * `/say <text> [avatar]`: one line in the game's chat through the avatar (at most 256 characters, paced); a line
 * starting with `/` (a server command) only once its owner typed `/say commands on` (docs/commands.md "The game's chat").
 */
export const say: Command<typeof options> = {
  name: 'say',
  description: "Say a line in the game's chat through an avatar (/say commands on|off: its owner allows / lines)",
  usage: '<text> [avatar]',
  access: 'control',
  announce: true,
  options,
  positional: ['text', 'avatar'],
  rest: 'text',
  async run({ host, chat }, { text, avatar }) {
    const a = host.control(chat, avatar);
    const mode = SWITCH.exec(text.trim())?.[1]?.toLowerCase();
    if (mode !== undefined) {
      const on = mode === 'on';
      const changed = a.allowSayCommands(on);
      const now = on ? `/say sends lines starting with / through ${a.name}: the server runs them as its commands.` : `/say refuses lines starting with / for ${a.name}.`;
      return { avatar: a.name, text: changed ? now : `Already so: ${now}` };
    }
    const line = await a.say(text);
    return { avatar: a.name, text: `Said in the game: ${line}` };
  },
};
