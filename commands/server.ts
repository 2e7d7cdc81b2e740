import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import { formatAddress } from '../src/servers/address.ts';
import type { ServerFound } from '../src/servers/registry.ts';
import type { Command } from './command.ts';

const AUTHS = ['offline', 'microsoft'] as const;

const options = z.object({
  action: z.enum(['add', 'remove', 'test'], { error: 'the action is add, remove or test' }).describe('add, remove or test a server'),
  name: z.string({ error: 'name the server (e.g. survival)' }).describe("The server's name in mindlink, e.g. survival"),
  address: z.string().optional().describe('add: host or host:port (25565 unless given)'),
  version: z.string().optional().describe('add: the Minecraft version (found by a ping when left out)'),
  auth: z.string().optional().describe('add: offline or microsoft (found by the server when left out)'),
});

/** `Paper 1.21.4, 3/20 online, online mode` (what a ping found). */
export function foundText(found: ServerFound): string {
  const mode = found.onlineMode === null ? 'login mode unknown' : found.onlineMode ? 'online mode' : 'offline mode';
  return `${found.status.software}, ${found.status.players.online}/${found.status.players.max} online, ${mode}`;
}

/** The notes after what a ping found: the version avatars speak, the sign-in, a refused test login. */
function notes(found: ServerFound): string[] {
  const out: string[] = [];
  if (found.server.version !== found.status.version) out.push(`Avatars speak ${found.server.version} there, as asked (the server says it runs ${found.status.software}).`);
  if (found.server.auth === 'microsoft') out.push("Avatars there sign in with Microsoft: at an avatar's first /play there, its owner gets a code by DM.");
  if (found.loginRefused) out.push(`It refused a test login as mindlink_check ("${found.loginRefused.slice(0, 120)}"): if that is a whitelist, ask its admin to run /whitelist add <name> for each avatar.`);
  return out;
}

/**
 * `/server add <name> <host[:port]> [version] [auth:offline|microsoft]`, `/server remove <name>`,
 * `/server test <name>` (admins): add a Minecraft server once a ping found it playable, remove one
 * no avatar is on, ping one again.
 */
export const server: Command<typeof options> = {
  name: 'server',
  description: 'Add, remove or test a Minecraft server (admins)',
  usage: 'add <name> <host[:port]> [version] [auth:offline|microsoft] | remove <name> | test <name>',
  access: 'admin',
  options,
  positional: ['action', 'name', 'address', 'version', 'auth'],
  async run({ host, chat }, { action, name, address, version, auth }) {
    if (action === 'remove') {
      const gone = host.servers.remove(chat, name);
      return { avatar: null, text: `Removed ${gone.server.id} (${gone.address}).` };
    }
    if (action === 'test') {
      const tested = await host.servers.test(chat, name);
      const still = tested.playingOn.length > 0 ? ` (${tested.playingOn.join(', ')} ${tested.playingOn.length === 1 ? 'plays' : 'play'} on with the old one until /stop and /play)` : '';
      const changed = tested.versionWas ? ` It runs ${tested.server.version} now (it was ${tested.versionWas}): avatars speak it from their next /play${still}.` : '';
      return { avatar: null, text: [`${tested.server.id} (${tested.address}) answers: ${foundText(tested)}.${changed}`, ...notes(tested)].join(' ') };
    }
    if (!address) throw new UserError('bad_args', `address: give the server's host (and :port if it is not 25565). Usage: /server add <name> <host[:port]> [version] [auth:offline|microsoft]`);
    // `auth` may come positionally, in the place of the version.
    const positionalAuth = version !== undefined && AUTHS.some((a) => a === version.toLowerCase()) ? version.toLowerCase() : undefined;
    const authText = (auth ?? positionalAuth)?.toLowerCase();
    const authKind = authText === undefined ? undefined : AUTHS.find((a) => a === authText);
    if (authText !== undefined && !authKind) throw new UserError('bad_args', `auth: "${authText.slice(0, 20)}" is not offline or microsoft.`);
    const added = await host.servers.add(chat, { name, address, version: positionalAuth ? undefined : version, auth: authKind });
    const { server: s } = added;
    const where = formatAddress({ host: s.host ?? '127.0.0.1', port: s.port ?? 25565 });
    return {
      avatar: null,
      text: [`${added.updated ? 'Updated' : 'Added'} ${s.id} (${where}): ${foundText(added)}.`, ...notes(added), `/avatar create <name> server:${s.id} puts an avatar there.`].join(' '),
    };
  },
};
