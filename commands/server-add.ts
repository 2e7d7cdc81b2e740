import { z } from 'zod';
import { UserError } from '../src/errors.ts';
import { formatAddress, type ServerFound } from '../src/command-words.ts';
import type { Command } from './command.ts';

/** What the `/server` group does, for the command menus. */
export const SERVER_GROUP = 'Add, remove or test a Minecraft server (admins)';

const AUTHS = ['offline', 'microsoft'] as const;

const options = z.object({
  name: z.string({ error: 'name the server (e.g. survival)' }).describe("The server's name in mindlink, e.g. survival"),
  address: z.string({ error: "give the server's host (and :port if it is not 25565)" }).describe('host or host:port (25565 unless given)'),
  version: z.string().optional().describe('The Minecraft version (found by a ping when left out)'),
  auth: z.string().optional().describe('offline or microsoft (what the server needs when left out)'),
});

/** `Paper 1.21.4, 3/20 online, online mode` (what a ping found). */
export function foundText(found: ServerFound): string {
  const mode = found.onlineMode === null ? 'login mode unknown' : found.onlineMode ? 'online mode' : 'offline mode';
  return `${found.status.software}, ${found.status.players.online}/${found.status.players.max} online, ${mode}`;
}

/** The notes after what a ping found: the version avatars speak, the sign-in, a refused test login. */
export function foundNotes(found: ServerFound): string[] {
  const out: string[] = [];
  if (found.server.version !== found.status.version) out.push(`Avatars speak ${found.server.version} there, as asked (the server says it runs ${found.status.software}).`);
  if (found.server.auth === 'microsoft') out.push("Avatars there sign in with Microsoft: at an avatar's first /play there, its owner gets a code by DM.");
  if (found.loginRefused) out.push(`It refused a test login as mindlink_check ("${found.loginRefused.slice(0, 120)}"): if that is a whitelist, ask its admin to run /whitelist add <name> for each avatar.`);
  return out;
}

/** What the auth hint reads of a stored server. */
interface ServerAuth {
  id: string;
  host: string | null;
  port: number | null;
  auth: string;
  onlineMode?: boolean | undefined;
}

/**
 * A server in online mode whose avatars join offline (it was restarted in online mode): what is wrong
 * and the command that fixes it, or undefined when its auth and its mode agree.
 *
 * @example
 * authHint({ id: 'survival', host: 'play.example.net', port: 25565, auth: 'offline', onlineMode: true })
 * // 'survival is in online mode: … /server add survival play.example.net:25565 auth:microsoft (its avatars stopped) makes them sign in with Microsoft.'
 */
export function authHint(s: ServerAuth, now = ''): string | undefined {
  if (s.host === null || s.auth !== 'offline' || s.onlineMode !== true) return undefined;
  const where = formatAddress({ host: s.host, port: s.port ?? 25565 });
  return `${s.id} is in online mode${now}: it lets in only players signed in with Microsoft, and its avatars join offline (auth offline), so they cannot get in. /server add ${s.id} ${where} auth:microsoft (its avatars stopped) makes them sign in with Microsoft.`;
}

/**
 * `/server add <name> <host[:port]> [version] [auth:offline|microsoft]` (admins): a Minecraft server is
 * pinged and stored once it answers and can be played; the reply says what it found.
 */
export const serverAdd: Command<typeof options> = {
  name: 'server add',
  groupDescription: SERVER_GROUP,
  description: 'Add a Minecraft server once a ping finds it playable (admins)',
  usage: '<name> <host[:port]> [version] [auth:offline|microsoft]',
  access: 'admin',
  detached: true,
  options,
  positional: ['name', 'address', 'version', 'auth'],
  async run({ host, chat }, { name, address, version, auth }) {
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
      text: [`${added.updated ? 'Updated' : 'Added'} ${s.id} (${where}): ${foundText(added)}.`, ...foundNotes(added), `/avatar create <name> server:${s.id} puts an avatar there.`].join(' '),
    };
  },
};
