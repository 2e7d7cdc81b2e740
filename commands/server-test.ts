import { z } from 'zod';
import type { Command } from './command.ts';
import { authHint, foundNotes, foundText, SERVER_GROUP } from './server-add.ts';

const options = z.object({
  name: z.string({ error: 'name the server to test' }).describe('The server to ping again'),
});

/** `/server test <name>` (admins): ping a server again; a new version it speaks is stored. */
export const serverTest: Command<typeof options> = {
  name: 'server test',
  groupDescription: SERVER_GROUP,
  description: 'Ping a Minecraft server again (admins)',
  usage: '<name>',
  access: 'admin',
  detached: true,
  options,
  positional: ['name'],
  async run({ host, chat }, { name }) {
    const tested = await host.servers.test(chat, name);
    const still = tested.playingOn.length > 0 ? ` (${tested.playingOn.join(', ')} ${tested.playingOn.length === 1 ? 'plays' : 'play'} on with the old one until /stop and /play)` : '';
    const changed = tested.versionWas ? ` It runs ${tested.server.version} now (it was ${tested.versionWas}): avatars speak it from their next /play${still}.` : '';
    const auth = authHint(tested.server, tested.onlineModeWas === false ? ' now (it was in offline mode)' : '');
    return { avatar: null, text: [`${tested.server.id} (${tested.address}) answers: ${foundText(tested)}.${changed}`, ...(auth ? [auth] : []), ...foundNotes(tested)].join(' ') };
  },
};
