import { z } from 'zod';
import { AVATAR_GROUP } from './avatar.ts';
import type { Command } from './command.ts';

const options = z.object({
  name: z.string({ error: 'name the avatar to rename' }).describe('The avatar to rename (stopped)'),
  to: z.string({ error: 'give the new name' }).describe('Its new name: 3–16 letters, digits or _'),
});

/** `/avatar rename <old> <new>`: its owner or an admin renames a stopped avatar; in the game it joins as a new player. */
export const avatarRename: Command<typeof options> = {
  name: 'avatar rename',
  groupDescription: AVATAR_GROUP,
  description: 'Rename a stopped avatar (its owner or an admin)',
  usage: '<old> <new>',
  access: 'own',
  announce: true,
  options,
  positional: ['name', 'to'],
  async run({ host, chat }, { name, to }) {
    const a = host.control(chat, name);
    const from = a.name;
    const now = await a.rename(to);
    return {
      avatar: now,
      text: `Renamed ${from} to ${now}. Its goal, direction, links, schedules and notes came along; in the game it is a new player. /play ${now} starts it.`,
    };
  },
};
