import { z } from 'zod';
import { AVATAR_GROUP } from './avatar.ts';
import type { Command } from './command.ts';
import { commandLine } from './parse.ts';

const options = z.object({
  name: z.string({ error: 'name the avatar to remove' }).describe('The avatar to remove'),
  confirm: z.string().optional().describe('Its name once more, to confirm'),
});

/**
 * `/avatar remove <name> [name again]`: its owner or an admin removes an avatar, once they repeat its
 * name. It stops, is unlinked everywhere, its schedules go; its files are kept a week in `DATA_DIR/removed/`.
 */
export const avatarRemove: Command<typeof options> = {
  name: 'avatar remove',
  groupDescription: AVATAR_GROUP,
  description: 'Remove an avatar for good (its owner or an admin; repeat its name to confirm)',
  usage: '<name> <name again>',
  access: 'own',
  options,
  positional: ['name', 'confirm'],
  async run({ host, chat }, { name, confirm }) {
    const a = host.control(chat, name);
    const confirmed = confirm !== undefined && confirm.toLowerCase() === a.name.toLowerCase();
    const done = await a.remove(confirmed);
    if (!done) {
      const again = commandLine(chat.platform, avatarRemove, { name: a.name, confirm: a.name });
      const mismatch = confirm === undefined ? '' : `"${confirm}" is not ${a.name}: nothing was removed. `;
      return {
        avatar: a.name,
        text: `${mismatch}Removing ${a.name} stops it, unlinks it from every chat and deletes its schedules; its files are kept for a week. To go ahead, repeat its name: ${again}`,
      };
    }
    const schedules = done.schedules === 0 ? '' : `, ${done.schedules} schedule${done.schedules === 1 ? '' : 's'} deleted`;
    return {
      avatar: null,
      text: `Removed ${a.name}: stopped, unlinked from ${done.unlinked} chat${done.unlinked === 1 ? '' : 's'}${schedules}. Its files are kept for a week in ${done.keptIn}.`,
    };
  },
};
