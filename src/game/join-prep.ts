/**
 * What a join needs that may take a while, before mineflayer connects: the
 * version (a status ping finds it when none is stored, and checks a stored
 * one before each join to a server mindlink does not run itself: a server
 * restarted on another version is said at once, not after a minute of failed
 * joins), and the Microsoft session (from the cache, or a code the owner
 * uses). A failure is either a reason to wait and try again (the server or
 * Microsoft cannot be reached, the server is asleep) or one to stop, with a
 * line that says what changed and the command that fixes it.
 */
import { formatAddress } from '../servers/address.ts';
import { asleepStatus } from './refusals.ts';
import { ServerProbeError, statusPing } from './server-probe.ts';
import { SignInError, type JavaSession, type MicrosoftSignIn, type SignInCode } from './sign-in.ts';
import { protocolOf } from './versions.ts';

/** What a join needs, as the game knows it. */
export interface JoinTarget {
  host: string;
  port: number;
  /** The avatar's name in mindlink. */
  username: string;
  /** The server's name in mindlink, for the words. */
  server: string;
  /** The version to speak; empty: found by a status ping before each join. */
  version: string;
  /** `version` was given at `/server add` (a server that takes several), not found by a ping. */
  versionPinned: boolean;
  /** Check a stored `version` with a status ping before joining (a server mindlink does not run). */
  checkVersion: boolean;
  /** The sign-in, for a server that needs Microsoft. */
  signIn: MicrosoftSignIn | undefined;
}

/** Ready to join; or wait (`/status` says `reason`) and try again; or stop with `line` (`/status`: `status`). */
export type JoinPreparation =
  | { kind: 'ready'; version: string; session: JavaSession | undefined }
  | { kind: 'wait'; reason: string; why: string }
  | { kind: 'stop'; line: string; status: string };

/** How long a status ping before a join may take (ms). */
const PING_TIMEOUT_MS = 10_000;

/**
 * Find or check the version, then sign in when the server needs it. Codes for the owner go to `onCode`.
 *
 * @example
 * const prep = await prepareJoin(target, (code) => game.emit('signInCode', code));
 * if (prep.kind === 'ready') join(prep.version, prep.session);
 */
export async function prepareJoin(t: JoinTarget, onCode: (code: SignInCode) => void): Promise<JoinPreparation> {
  const version = await versionFor(t);
  if (typeof version !== 'string') return version;
  if (!t.signIn) return { kind: 'ready', version, session: undefined };
  try {
    return { kind: 'ready', version, session: await t.signIn.session(onCode) };
  } catch (err) {
    if (!(err instanceof SignInError)) throw err;
    // Nothing answered: as for a game server that is down, the avatar waits and tries again.
    if (err.code === 'unreachable') return { kind: 'wait', reason: `Microsoft cannot be reached to sign ${t.username} in: ${err.errno ?? 'no answer'}`, why: 'microsoft unreachable' };
    const again = err.code === 'no_minecraft' ? ' asks for a code again: sign in with the Microsoft account that owns Minecraft' : err.code === 'codes_expired' ? ' sends a new code' : ' tries again';
    return { kind: 'stop', line: `${t.username} could not join ${t.server}: ${err.message}. /play ${t.username}${again}.`, status: `the Microsoft sign-in failed: ${err.message}` };
  }
}

/** The version to join with: the stored one (checked, for a server mindlink does not run), or the one a ping finds. */
async function versionFor(t: JoinTarget): Promise<string | JoinPreparation> {
  if (t.version && !t.checkVersion) return t.version;
  let answered: { version: string; protocol: number };
  try {
    answered = await statusPing({ host: t.host, port: t.port }, PING_TIMEOUT_MS, t.version || undefined);
  } catch (err) {
    if (!(err instanceof ServerProbeError)) throw err;
    if (err.code === 'unsupported_version') {
      return { kind: 'stop', line: `${t.server} cannot be played: ${err.message}`, status: `${t.server} cannot be played` };
    }
    // A ping that got no proper answer tells nothing of a stored version: the join says what is wrong, if anything
    // (some proxies answer no status ping); only a host that refuses or has no such name is waited for here.
    if (t.version && (err.code === 'not_minecraft' || err.code === 'no_answer')) return t.version;
    // Said as a dropped connection says it (`the server cannot be reached: ECONNREFUSED`).
    const reason = err.code === 'asleep' ? asleepStatus(t.server, t.username) : `the server cannot be reached: ${err.errno ?? err.code}`;
    return { kind: 'wait', reason, why: err.code };
  }
  if (!t.version || answered.protocol === protocolOf(t.version)) return t.version || answered.version;
  return movedVersion(t, answered.version);
}

/** The server now runs `runs`, not the version stored for it: stop, saying the command that stores the new one. */
function movedVersion(t: JoinTarget, runs: string): JoinPreparation {
  const address = formatAddress({ host: t.host, port: t.port });
  const fix = t.versionPinned
    ? `/server add ${t.server} ${address} ${runs} (its avatars stopped) makes them speak it`
    : `/server test ${t.server} stores the version it runs`;
  return {
    kind: 'stop',
    line: `${t.server} now runs Minecraft ${runs}, not the ${t.version} ${t.username} speaks there: ${fix}, then /play ${t.username}.`,
    status: `${t.server} now runs Minecraft ${runs}, not ${t.version}`,
  };
}
