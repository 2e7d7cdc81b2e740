import { z } from 'zod';
import type { Command } from './command.ts';
import { authHint } from './server-add.ts';

const options = z.object({});

/** `/servers` (admins): every server with its address, version, auth and the avatars on it. */
export const servers: Command<typeof options> = {
  name: 'servers',
  description: 'List the Minecraft servers and the avatars on each (admins)',
  usage: '',
  access: 'admin',
  options,
  positional: [],
  async run({ host, chat }) {
    const lines = host.servers.list(chat).map(({ server: s, address, avatars, isDefault }) => {
      const what = s.host === null ? `Minecraft ${s.version} (mindlink's own world)` : (s.software ?? (s.version ? `Minecraft ${s.version}` : 'version found at each join'));
      const speaks = s.host !== null && s.version && s.software && !s.software.includes(s.version) ? `, avatars speak ${s.version}` : '';
      const mode = s.onlineMode === undefined ? '' : s.onlineMode ? ', online mode' : ', offline mode';
      const hint = authHint(s);
      const playing = avatars.filter((a) => a.playing).length;
      const on =
        avatars.length === 0
          ? 'no avatars'
          : `${avatars.length} avatar${avatars.length === 1 ? '' : 's'} (${playing} playing, ${avatars.length - playing} stopped): ${avatars.map((a) => a.name).join(', ')}`;
      return `${s.id}${isDefault ? ' (default)' : ''} · ${address} · ${what}${speaks} · auth ${s.auth}${mode} · ${on}${hint ? ` · ${hint}` : ''}`;
    });
    return { avatar: null, text: lines.length > 0 ? lines.join('\n') : 'No servers yet: /server add <name> <host[:port]> adds one.' };
  },
};
