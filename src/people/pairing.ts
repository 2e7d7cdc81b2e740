/**
 * Pairing (docs/commands.md "Who may do what"): while no chat admin exists and a chat bridge
 * is configured, mindlink logs a one-time code; the first person to send
 * `/pair <code>` becomes an admin. Wrong codes are rate-limited per sender.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { ChatContext } from '../chat.ts';
import type { Config } from '../config.ts';
import { UserError } from '../errors.ts';
import type { Store } from '../store/store.ts';
import type { People } from './people.ts';

const PAIR_MAX_FAILURES = 5;
const PAIR_LOCK_MS = 10 * 60_000;

/**
 * @example
 * const pairing = new Pairing(store, people, log, config); // logs the code when one is needed
 * pairing.pair(chat, '3f9a0c21be'); // → "Paired: …"
 */
export class Pairing {
  /** The one-time pairing code while no chat admin exists, else null. */
  code: string | null = null;
  private readonly failures = new Map<string, { count: number; until: number }>();

  constructor(
    store: Store,
    private readonly people: People,
    private readonly log: Logger,
    config: Config,
  ) {
    const hasChatAdmin = store.state.data.persons.some((p) => p.admin && p.identities.some((i) => !i.startsWith('console:')));
    if (!hasChatAdmin && config.ADMINS.length === 0 && (config.TELEGRAM_TOKEN || config.DISCORD_TOKEN)) {
      this.code = randomBytes(5).toString('hex');
      log.warn(`pairing code: ${this.code} — send "/pair ${this.code}" to the bot from your chat to become the admin`);
    }
  }

  /** Try a pairing code; the first right code makes the sender an admin. Returns the reply. */
  pair(chat: ChatContext, code: string): string {
    const key = chat.from;
    const now = Date.now();
    const f = this.failures.get(key);
    if (f && f.count >= PAIR_MAX_FAILURES && f.until > now) {
      throw new UserError('pair_locked', 'Too many wrong codes. Try again in a few minutes.');
    }
    if (!this.code || code.trim() !== this.code) {
      const count = (f && f.until > now ? f.count : 0) + 1;
      this.failures.set(key, { count, until: now + PAIR_LOCK_MS });
      throw new UserError('pair_wrong', 'That pairing code is not valid.');
    }
    this.code = null;
    this.failures.clear();
    this.people.makeAdmin(this.people.ensurePerson(chat.from, chat.fromName).id);
    this.log.info({ identity: chat.from }, 'paired: new admin');
    return `Paired: ${chat.fromName} is now an admin of this mindlink. /avatar create <name> makes an avatar; /help lists commands.`;
  }
}
