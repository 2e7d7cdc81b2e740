import { z } from 'zod';
import { TypedIdentitySchema } from '../src/command-words.ts';
import type { Command } from './command.ts';

const options = z.object({
  avatar: z.string({ error: 'name the avatar' }),
  identity: TypedIdentitySchema.optional(),
});

/** `/owner <avatar> [identity]`: show who owns an avatar, or (admins) give it to another person, e.g. `telegram:123`. */
export const owner: Command<typeof options> = {
  name: 'owner',
  description: 'Show or (admins) change who owns an avatar',
  usage: '<avatar> [identity]',
  access: 'known',
  options,
  positional: ['avatar', 'identity'],
  async run({ host, chat }, { avatar, identity }) {
    const a = host.watch(chat, avatar);
    if (!identity) {
      const identities = host.ownerIdentities(a);
      const ids = identities.length > 0 ? ` (${identities.join(', ')})` : '';
      return { avatar: a.name, text: `Owner: ${host.personName(a.record.owner)}${ids}.` };
    }
    // Only an admin gets this far, and typed the identity: it is no secret to them.
    return { avatar: a.name, text: `Owner is now ${host.setOwner(chat, a, identity)} (${identity.trim()}).` };
  },
};
