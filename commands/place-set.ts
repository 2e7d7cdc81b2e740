import { z } from 'zod';
import type { Command } from './command.ts';
import { placeWhere } from './places.ts';

/** What the `place` group does, for the command menus. */
export const PLACE_GROUP = 'Remember or forget a place by name (/places lists them)';

const options = z.object({
  name: z.string({ error: 'name the place, e.g. /place set base' }).describe('One word: lowercase letters, digits, dashes'),
  avatar: z.string().optional(),
});

/** `/place set <name> [avatar]`: remember where the avatar stands now as a named place (its owner, a pilot or an admin). */
export const placeSet: Command<typeof options> = {
  name: 'place set',
  groupDescription: PLACE_GROUP,
  description: 'Remember where an avatar stands now as a named place (Goal: go to <name> brings it back)',
  usage: '<name> [avatar]',
  access: 'control',
  options,
  positional: ['name', 'avatar'],
  rest: 'name',
  async run({ host, chat }, { name, avatar }) {
    const a = host.control(chat, avatar);
    const { place, was } = a.setPlace(name);
    if (was) return { avatar: a.name, text: `Moved ${place.name} to ${placeWhere(place)} (it was at ${placeWhere(was)}).` };
    return { avatar: a.name, text: `Remembered ${place.name} at ${placeWhere(place)}: "Goal: go to ${place.name}" brings ${a.name} back here.` };
  },
};
