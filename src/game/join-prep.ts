/**
 * What a join needs before it connects, and may wait for: the server's
 * version (a status ping, when it is not known) and the Microsoft session
 * (from the cache, or a code the owner uses). Each way it can fail is said
 * as what the game does next: try again later, or give up with a line.
 */
import { asleepStatus } from './refusals.ts';
import { ServerProbeError, statusPing } from './server-probe.ts';
import { SignInError, type JavaSession, type MicrosoftSignIn, type SignInCode } from './sign-in.ts';

/** What the preparation of one join needs. */
export interface JoinTarget {
  host: string;
  port: number;
  /** The avatar's name. */
  username: string;
  /** The version to speak; empty: found by a status ping. */
  version: string;
  /** The server's name in mindlink, for the words. */
  server: string;
  /** The avatar's Microsoft sign-in, when the server wants one. */
  signIn: MicrosoftSignIn | undefined;
}

/** How a preparation ended: ready to join, try again later (`down`: why, for `/status`), or give up (`line`, `status`). */
export type Prepared =
  | { kind: 'ready'; version: string; session: JavaSession | undefined }
  | { kind: 'retry'; code: string; down: string }
  | { kind: 'giveUp'; line: string; status: string };

/**
 * @example
 * const p = await prepareJoin({ host, port, username: 'demo', version: '', server: 'survival', signIn: undefined }, (code) => emit('signInCode', code));
 * if (p.kind === 'ready') join(p.version, p.session);
 */
export async function prepareJoin(target: JoinTarget, onCode: (code: SignInCode) => void): Promise<Prepared> {
  const { host, port, username, server, signIn } = target;
  let version = target.version;
  if (!version) {
    try {
      version = (await statusPing({ host, port }, 10_000)).version;
    } catch (err) {
      if (!(err instanceof ServerProbeError)) throw err;
      if (err.code === 'unsupported_version') return { kind: 'giveUp', line: `${server} cannot be played: ${err.message}`, status: `${server} cannot be played` };
      // Said as a dropped connection says it (`the server cannot be reached: ECONNREFUSED`).
      return { kind: 'retry', code: err.code, down: err.code === 'asleep' ? asleepStatus(server, username) : `the server cannot be reached: ${err.errno ?? err.code}` };
    }
  }
  if (!signIn) return { kind: 'ready', version, session: undefined };
  try {
    return { kind: 'ready', version, session: await signIn.session(onCode) };
  } catch (err) {
    if (!(err instanceof SignInError)) throw err;
    const again = err.code === 'no_minecraft' ? ' asks for a code again: sign in with the Microsoft account that owns Minecraft' : err.code === 'codes_expired' ? ' sends a new code' : ' tries again';
    return { kind: 'giveUp', line: `${username} could not join ${server}: ${err.message}. /play ${username}${again}.`, status: `the Microsoft sign-in failed: ${err.message}` };
  }
}
