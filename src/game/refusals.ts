/**
 * What a Minecraft server does to a bot, in words: a kick's reason (as the
 * server sends it: text, JSON chat or NBT chat, often a translation key) is
 * read as a whitelist, a ban, a version mismatch, a failed sign-in, a server
 * that is asleep, a resource pack it insists on, a login plugin, or a restart.
 * Each gets a short phrase for `/status` and, where it stops the avatar, a
 * line that says what to do.
 */
import { cleanLine } from '../sanitize.ts';

/** Plain text of a kick reason, which arrives as a string, JSON chat, or NBT chat (1.20.3+). */
export function reasonText(reason: unknown): string {
  if (reason == null) return '';
  if (typeof reason === 'string') {
    try {
      return reasonText(JSON.parse(reason));
    } catch {
      // Not JSON: the reason is already plain text.
      return reason;
    }
  }
  if (typeof reason !== 'object') return String(reason);
  const r = reason as Record<string, unknown>;
  if (r.type === 'compound' && r.value && typeof r.value === 'object') {
    const v = r.value as Record<string, { value?: unknown }>;
    const parts: string[] = [];
    if (v.text?.value !== undefined) parts.push(String(v.text.value));
    if (v.translate?.value !== undefined) parts.push(String(v.translate.value));
    return parts.join(' ');
  }
  if (r.type === 'string' && 'value' in r) return String(r.value);
  const parts: string[] = [];
  if (typeof r.text === 'string') parts.push(r.text);
  if (typeof r.translate === 'string') parts.push(r.translate);
  if (Array.isArray(r.extra)) for (const e of r.extra) parts.push(reasonText(e));
  if (Array.isArray(r.with)) for (const e of r.with) parts.push(reasonText(e));
  return parts.join(' ').trim();
}

/** Why a connection ended, as a short plain phrase for `/status` (no stack, no error text of ours). */
export function downPhrase(fault: { packet: string } | undefined, kickReason: string | undefined, lastError: Error | undefined, why: string | undefined): string {
  if (fault) return `it failed on a packet it could not handle: ${fault.packet}`;
  if (kickReason !== undefined) return `the server disconnected it: ${kickReason.slice(0, 120)}`;
  if (lastError) return `the server cannot be reached: ${(lastError as NodeJS.ErrnoException).code ?? 'connection error'}`;
  if (why === 'spawn timeout') return 'it did not spawn in time';
  if (why === 'respawn timeout') return 'it stayed dead: the server did not respawn it';
  return 'the connection closed';
}

/** What `/status` says while an avatar waits for a sleeping hosted server. */
export function asleepStatus(server: string, avatar: string): string {
  return `${server} is asleep (a hosted server started on demand): start it from the host's panel; ${avatar} joins once it is up`;
}

/**
 * A server's words as mindlink shows them: Minecraft's formatting codes (`§a`) out, on one line, with
 * control characters made visible (a server is not trusted to send clean text).
 *
 * @example
 * serverWords('§cYou are banned\n§7Reason: griefing') // → 'You are banned Reason: griefing'
 */
export function serverWords(text: string): string {
  return cleanLine(text.replace(/§./g, ''));
}

/** Kinds of refusal, stable for tests and logs. */
export type RefusalKind =
  | 'whitelist'
  | 'banned'
  | 'outdated'
  | 'auth'
  | 'asleep'
  | 'resource_pack'
  | 'login_plugin'
  | 'duplicate_login'
  | 'full'
  | 'restart'
  | 'other';

/** A refusal read from a kick. */
export interface Refusal {
  kind: RefusalKind;
  /** Whether the avatar stops (else it reconnects with backoff). */
  final: boolean;
  /** Why it is out of the game, short, for `/status` (`waiting to reconnect (…)` or `stopped (…)`). */
  status: string;
  /** The chat line after `Stopped: ` for a final one. */
  line: string;
}

/** Who was refused where, for the words. */
export interface RefusalContext {
  /** The server's name in mindlink (`survival`). */
  server: string;
  /** The avatar's name in mindlink. */
  avatar: string;
  /** The name it plays as there (its Minecraft profile's name when signed in with Microsoft). */
  player: string;
  /** The version mindlink speaks to the server. */
  version: string;
  auth: 'offline' | 'microsoft';
  /** The server's address as `/server add` takes it (`play.example.net:25565`), for a line that names the command. */
  address?: string;
}

const KINDS: readonly [RefusalKind, RegExp][] = [
  // Also flying-squid's "Server is still starting! Please wait before reconnecting." to a player who comes while it starts.
  ['restart', /server (is )?(closed|closing|stopp|shut|restart|still starting)|shutting down|shutdown|restart|timed? ?out|please (wait before )?reconnect|multiplayer\.disconnect\.(server_shutdown|timeout)|disconnect\.timeout/i],
  ['whitelist', /white-?list|not_whitelisted/i],
  ['banned', /\bbann?ed\b|multiplayer\.disconnect\.banned/i],
  ['outdated', /outdated (client|server)|multiplayer\.disconnect\.(outdated|incompatible)|incompatible (client|version)|wrong protocol version|unsupported (client|protocol)|please use (minecraft )?\d/i],
  ['auth', /failed to verify username|unverified_username|not authenticated with|invalid session|authentication servers|bad login|invalid_public_key|missing_public_key|disconnect\.loginFailed/i],
  ['asleep', /\b(server|it) is (currently )?(offline|asleep|sleeping|starting|hibernat\w*)|start it at|is starting up|waking up|hibernat/i],
  ['resource_pack', /resource ?pack|multiplayer\.requiredTexturePrompt|texturepack/i],
  ['login_plugin', /(wrong|incorrect|invalid) password|login time ?out|too long to log ?in|\/register|\/login|authme|not registered|not logged in/i],
  ['duplicate_login', /logged in from another location|duplicate_login|already (logged|connected|online)/i],
  ['full', /server is full|multiplayer\.disconnect\.server_full|too many players/i],
];

/**
 * Read a kick reason.
 *
 * @example
 * classifyKick('You are not white-listed on this server!', { server: 'survival', avatar: 'bob', player: 'bob', version: '1.21.4', auth: 'offline' })
 * // { kind: 'whitelist', final: true, status: "survival's whitelist does not include bob", line: "survival's whitelist does not include bob: …" }
 */
export function classifyKick(reason: string, c: RefusalContext): Refusal {
  const said = reason.replace(/\s+/g, ' ').trim().slice(0, 160);
  const quote = said ? ` (the server says: "${said}")` : '';
  const kind = KINDS.find(([, re]) => re.test(reason))?.[0] ?? 'other';
  const replay = `/play ${c.avatar}`;
  switch (kind) {
    case 'restart':
      return { kind, final: false, status: `${c.server} closed the connection (it restarts or timed out)`, line: '' };
    case 'full':
      return { kind, final: false, status: `${c.server} is full; trying again`, line: '' };
    case 'asleep':
      return { kind, final: false, status: asleepStatus(c.server, c.avatar), line: '' };
    case 'whitelist':
      return {
        kind,
        final: true,
        status: `${c.server}'s whitelist does not include ${c.player}`,
        line: `${c.server}'s whitelist does not include ${c.player}: ask the server's admin to run /whitelist add ${c.player}, then ${replay}.`,
      };
    case 'banned':
      return { kind, final: true, status: `${c.player} is banned from ${c.server}`, line: `${c.player} is banned from ${c.server}${quote}. Only the server's admins can lift a ban.` };
    case 'outdated':
      return {
        kind,
        final: true,
        status: `${c.server} speaks another Minecraft version than ${c.version}`,
        line: `${c.server} speaks another Minecraft version than the ${c.version} mindlink has for it${quote}: /server test ${c.server} finds the version again, then ${replay}.`,
      };
    case 'auth':
      return c.auth === 'offline'
        ? {
            kind,
            final: true,
            status: `${c.server} is in online mode and ${c.avatar} does not sign in with Microsoft`,
            line: `${c.server} is in online mode: it lets in only players signed in with Microsoft${quote}. Add it again with auth:microsoft (/server add ${c.server} ${c.address ?? '<address>'} auth:microsoft, its avatars stopped) and each owner signs in once with a code mindlink sends them.`,
          }
        : {
            kind,
            final: true,
            status: `${c.server} did not accept ${c.player}'s Microsoft sign-in`,
            line: `${c.server} did not accept ${c.player}'s Microsoft sign-in${quote}: ${replay} signs in again.`,
          };
    case 'resource_pack':
      return {
        kind,
        final: true,
        status: `${c.server} insists on a resource pack ${c.player} could not take`,
        line: `${c.server} insists on its resource pack${quote}; mindlink accepts packs but cannot load them, and this server checks. Ask its admin to make the pack optional (require-resource-pack=false).`,
      };
    case 'login_plugin':
      return {
        kind,
        final: true,
        status: `${c.server}'s login plugin refused ${c.player}`,
        line: `${c.server}'s login plugin refused ${c.player}${quote}. If ${c.player} registered there before with a password mindlink does not know, ask the server's admin to unregister it (AuthMe: /authme unregister ${c.player}), then ${replay}.`,
      };
    case 'duplicate_login':
      return {
        kind,
        final: true,
        status: `someone else joined ${c.server} as ${c.player}`,
        line: `someone else joined ${c.server} as ${c.player}${quote}: one Minecraft account plays in one place at a time. ${replay} when it is free.`,
      };
    default:
      return { kind, final: true, status: `${c.server} ended the session${quote}`, line: `the game server ended the session: ${said}` };
  }
}

/**
 * Whether a kick ends the game for good. Every kick does, whatever its words, except the server going
 * down, restarting or still starting, asking the player to reconnect, timing the connection out, being full
 * or asleep, after which mindlink reconnects.
 *
 * @example
 * isFinalKick('Flying is not enabled on this server') // → true
 * isFinalKick('Server closed')                        // → false
 */
export function isFinalKick(reason: string): boolean {
  return classifyKick(reason, { server: 'the server', avatar: 'it', player: 'it', version: '', auth: 'offline' }).final;
}
