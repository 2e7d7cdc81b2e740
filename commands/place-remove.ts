import { z } from 'zod';
import type { Command } from './command.ts';
import { PLACE_GROUP } from './place-set.ts';
import { placeWhere } from './places.ts';

const options = z.object({
  name: z.string({ error: 'name the place to forget (/places lists them)' }).describe('The place to forget'),
  avatar: z.string().optional(),
});

/** `/place remove <name> [avatar]`: forget one of an avatar's places (its owner, a pilot or an admin). */
export const placeRemove: Command<typeof options> = {
  name: 'place remove',
  groupDescription: PLACE_GROUP,
  description: 'Forget one of the places an avatar remembers',
  usage: '<name> [avatar]',
  access: 'control',
  options,
  positional: ['name', 'avatar'],
  async run({ host, chat }, { name, avatar }) {
    const a = host.control(chat, avatar);
    const gone = a.removePlace(name);
    return { avatar: a.name, text: `Forgot ${gone.name} (${placeWhere(gone)}).` };
  },
};
