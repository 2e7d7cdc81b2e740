import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import { IdentitySchema } from '../src/store/schema.ts';
import type { Command } from './command.ts';

const options = z.object({
  avatar: z.string({ error: 'name the avatar' }),
  identity: IdentitySchema.optional(),
});

/** `/owner <avatar> [identity]`: show who owns an avatar, or (admins) give it to another person, e.g. `telegram:123`. */
export const owner: Command<typeof options> = {
  name: 'owner',
  description: 'Show or (admins) change who owns an avatar: /owner <avatar> [telegram:id]',
  usage: '<avatar> [identity]',
  options,
  positional: ['avatar', 'identity'],
  async run({ core, chat }, { avatar, identity }) {
    const a = core.resolveAvatar(chat, avatar);
    if (!identity) {
      const person = core.store.state.data.persons.find((p) => p.id === a.owner);
      const ids = core.isAdmin(chat) && person ? ` (${person.identities.join(', ')})` : '';
      return { avatar: a.name, text: `Owner: ${core.personName(a.owner)}${ids}.` };
    }
    if (!core.isAdmin(chat)) throw new UserError('not_admin', 'Only an admin can change who owns an avatar.');
    const person = core.ensurePerson(identity, identity);
    core.store.state.update(() => {
      a.owner = person.id;
    });
    return { avatar: a.name, text: `Owner is now ${person.name}.` };
  },
};
