/**
 * An avatar's Microsoft sign-in code goes to its owner, in their DMs only
 * (Discord, Telegram, or the console when the owner is the console): never to
 * a shared chat and never into a log line. The owner opens Microsoft's page,
 * types the code and picks the account whose Minecraft profile the avatar
 * should play as.
 */
import type { Platform } from './chat.ts';
import type { SignInCode } from './game/sign-in.ts';
import type { Logger } from './logger.ts';
import type { AvatarNews } from './loop/news.ts';
import type { Poster } from './outbox/poster.ts';
import type { Destination, Identity } from './store/schema.ts';
import type { Store } from './store/store.ts';

/** What the relay is built from. */
export interface SignInRelayDeps {
  store: Store;
  poster: Poster;
  /** The DM with an identity on its platform (the console, a Telegram private chat, a Discord DM channel). */
  openDm(identity: Identity): Promise<Destination>;
  /** Whether mindlink talks on a platform (its bridge is configured). */
  enabled(platform: Platform): boolean;
  log: Logger;
  /** The loops' sign-in codes, each sent as it comes. */
  news?: AvatarNews;
}

/**
 * The words of a code: the first, or the one after it expired.
 *
 * @example
 * signInText('bob', 'survival', { userCode: 'ABCD-1234', verificationUri: 'https://microsoft.com/link', expiresInMs: 900_000, attempt: 1 })
 * // 'To let bob join survival, sign in at https://microsoft.com/link with code ABCD-1234 (valid 15 min) using the Microsoft account that owns the Minecraft profile bob should play as.'
 */
export function signInText(avatar: string, server: string, code: SignInCode): string {
  const minutes = Math.max(1, Math.round(code.expiresInMs / 60_000));
  const ask = `sign in at ${code.verificationUri} with code ${code.userCode} (valid ${minutes} min) using the Microsoft account that owns the Minecraft profile ${avatar} should play as.`;
  return code.attempt > 1
    ? `The sign-in code for ${avatar} expired unused; here is a new one, the last: to let ${avatar} join ${server}, ${ask}`
    : `To let ${avatar} join ${server}, ${ask}`;
}

/**
 * @example
 * const relay = new SignInRelay({ store, poster, openDm: (id) => couriers.openDm(id), enabled, log });
 * relay.send('bob', 'survival', code);
 */
export class SignInRelay {
  constructor(private readonly deps: SignInRelayDeps) {
    deps.news?.on('signInCode', (avatar, server, code) => this.send(avatar, server, code));
  }

  /** Send a code to every DM of the avatar's owner on a platform mindlink talks on. */
  send(avatar: string, server: string, code: SignInCode): void {
    const s = this.deps.store.state.data;
    const record = s.avatars.find((a) => a.name === avatar);
    const owner = record ? s.persons.find((p) => p.id === record.owner) : undefined;
    const identities = (owner?.identities ?? []).filter((i) => this.deps.enabled(i.slice(0, i.indexOf(':')) as Platform));
    if (identities.length === 0) {
      this.deps.log.warn({ avatar, server }, 'a sign-in code is needed, but the owner has no DM mindlink can reach: nothing was sent');
      return;
    }
    const text = signInText(avatar, server, code);
    for (const identity of identities) {
      this.deps.openDm(identity).then(
        (dest) => {
          this.deps.poster.to(dest, avatar, text);
          this.deps.log.info({ avatar, server, to: identity.slice(0, identity.indexOf(':')) }, 'sign-in code sent to the owner');
        },
        (err: unknown) => this.deps.log.warn({ err, avatar }, "the owner's DM could not be opened: the sign-in code was not sent there"),
      );
    }
  }
}
