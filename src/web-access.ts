/**
 * Signing in to the web dashboard without a password (docs/dashboard.md).
 *
 * `/web` in a chat asks for a sign-in link: `<dashboard>/login#<token>`, good
 * for 10 minutes and once. Redeemed, it becomes a session (an HttpOnly cookie
 * on the page) for the person who asked, seen from the chat they asked in: the
 * page has exactly the rights they have there (`src/rights.ts`,
 * `ChatContext.openedFrom`). Tokens and session ids are kept only as SHA-256
 * hashes and only in memory: a restart signs every page out, and nothing on
 * disk or in a log can sign anyone in.
 *
 * One person can never sign anyone else out: each chat identity asks for at
 * most 3 links a minute and holds at most 3 links and 5 sessions, a new one
 * pushing out only that identity's own oldest. The tables are bounded; when
 * one is full of other people's live entries a newcomer is refused in plain
 * words until some sign out or expire, never let in by evicting them.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ChatContext } from './chat.ts';
import { UserError } from './errors.ts';
import { takeTurn } from './bounded-map.ts';
import type { Destination } from './store/schema.ts';

/** How long a sign-in link is good for. */
export const LINK_TTL_MS = 10 * 60_000;
/** How long a session lasts after sign-in. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** How many sign-in links one chat identity may ask for in {@link LINK_RATE_WINDOW_MS}. */
export const LINKS_PER_MINUTE = 3;
/** The window of {@link LINKS_PER_MINUTE}. */
export const LINK_RATE_WINDOW_MS = 60_000;
/** Unused links one identity holds; a new one beyond that replaces its own oldest. */
export const LINKS_PER_PERSON = 3;
/** Sessions one identity holds (a phone, a laptop …); a new one beyond that signs out its own oldest. */
export const SESSIONS_PER_PERSON = 5;
/** Most sign-in links waiting to be used, and most sessions, of everyone together. */
export const MAX_LINKS = 200;
export const MAX_SESSIONS = 500;
/** Most identities whose recent asks are remembered for the rate limit. */
const RATE_KEYS = 2000;

/** A signed-in dashboard: who, seen from which chat, and the page's own destination for replies. */
export interface WebSession {
  /** The chat the link was asked for in (its sender is the person signed in). */
  readonly chat: Readonly<ChatContext>;
  /** Where replies to what is done on the page go (`web:<page id>`; not a secret). */
  readonly dest: Destination;
  /** The token every POST of the page must carry. */
  readonly csrf: string;
  readonly expiresAt: number;
}

/** A session just made from a sign-in link: `cookie` is its secret, set once on the page. */
export interface NewSession {
  cookie: string;
  session: WebSession;
}

interface PendingLink {
  chat: ChatContext;
  expiresAt: number;
}

/** An entry of one of the tables: whose it is. */
interface Owned {
  readonly chat: Readonly<ChatContext>;
}

/** How a {@link WebAccess} counts time (tests move it on). */
export interface WebAccessOptions {
  now?: () => number;
}

const secret = (): string => randomBytes(32).toString('base64url');
const hash = (value: string): string => createHash('sha256').update(value).digest('base64url');

/** The parts of a chat a session keeps (never the message, never a page's own `openedFrom`). */
function originOf(chat: ChatContext): ChatContext {
  const from = chat.openedFrom ?? chat;
  return {
    platform: from.platform,
    from: from.from,
    fromName: from.fromName,
    dest: from.dest,
    chatKind: from.chatKind,
    messageId: null,
    ...(from.guild !== undefined ? { guild: from.guild } : {}),
    ...(from.roles !== undefined ? { roles: [...from.roles] } : {}),
    ...(from.canManageGuild !== undefined ? { canManageGuild: from.canManageGuild } : {}),
  };
}

/**
 * @example
 * const access = new WebAccess();
 * access.listening('http://127.0.0.1:4780');         // the web bridge, once it listens
 * const url = access.signInLink(chat);               // 'http://127.0.0.1:4780/login#…'
 * const made = access.redeem(url.split('#')[1]);     // once; null the second time
 * access.session(made.cookie)?.chat.from;            // the person who asked
 */
export class WebAccess {
  private base: string | null = null;
  private readonly links = new Map<string, PendingLink>();
  private readonly sessions = new Map<string, WebSession>();
  /** Chat identity → when it last asked for links (the rate limit). */
  private readonly asked = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(opts: WebAccessOptions = {}) {
    this.now = opts.now ?? Date.now;
  }

  /** The dashboard listens at `base` (an origin such as `http://127.0.0.1:4780`), or no longer (null). */
  listening(base: string | null): void {
    this.base = base;
  }

  /** Where the dashboard listens, or null while it does not. */
  get origin(): string | null {
    return this.base;
  }

  /**
   * A one-time sign-in link for the sender of `chat`, seen from that chat. Throws UserError while the dashboard
   * is off, when this identity asked for {@link LINKS_PER_MINUTE} links within the last minute, or when the
   * tables are full of other people's live links or sessions.
   */
  signInLink(chat: ChatContext): string {
    if (!this.base) throw new UserError('web_off', 'The dashboard is off here (WEB=off, or it could not start): the log says why.');
    const origin = originOf(chat);
    const now = this.now();
    const wait = takeTurn(this.asked, origin.from, now, { max: LINKS_PER_MINUTE, windowMs: LINK_RATE_WINDOW_MS, keys: RATE_KEYS });
    if (wait > 0) {
      throw new UserError(
        'web_too_many',
        `You asked for ${LINKS_PER_MINUTE} sign-in links in the last minute: ask again in ${Math.ceil(wait / 1000)} s. The links you have work for ${Math.round(LINK_TTL_MS / 60_000)} minutes.`,
      );
    }
    this.sweep();
    if (!this.mine(this.sessions, origin.from).length && this.sessions.size >= MAX_SESSIONS) throw this.full();
    if (!this.makeRoom(this.links, origin.from, LINKS_PER_PERSON, MAX_LINKS)) {
      throw new UserError('web_full', `${MAX_LINKS} sign-in links are waiting to be used, as many as the dashboard holds: ask again in a few minutes.`);
    }
    const token = secret();
    this.links.set(hash(token), { chat: origin, expiresAt: now + LINK_TTL_MS });
    return `${this.base}/login#${token}`;
  }

  /**
   * Use a sign-in token: a new session, or null when the token is unknown, used or expired. A new session beyond
   * {@link SESSIONS_PER_PERSON} signs out that person's own oldest one. Throws UserError (the link kept, unused)
   * when the sessions are full of other people's live ones.
   */
  redeem(token: string): NewSession | null {
    const key = hash(token);
    const link = this.links.get(key);
    if (!link || link.expiresAt <= this.now()) {
      this.links.delete(key);
      return null;
    }
    this.sweep();
    if (!this.makeRoom(this.sessions, link.chat.from, SESSIONS_PER_PERSON, MAX_SESSIONS)) throw this.full();
    this.links.delete(key);
    const cookie = secret();
    const session: WebSession = {
      chat: link.chat,
      dest: `web:${randomBytes(12).toString('base64url')}`,
      csrf: secret(),
      expiresAt: this.now() + SESSION_TTL_MS,
    };
    this.sessions.set(hash(cookie), session);
    return { cookie, session };
  }

  /** The session of a cookie, while it lasts. */
  session(cookie: string | undefined): WebSession | undefined {
    if (!cookie) return undefined;
    const key = hash(cookie);
    const s = this.sessions.get(key);
    if (s && s.expiresAt <= this.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return s;
  }

  /** Sign a page out. */
  end(cookie: string): void {
    this.sessions.delete(hash(cookie));
  }

  /** Whether a session still lasts for this page destination (a post to a page nobody has any more is dropped). */
  hasPage(dest: Destination): boolean {
    const t = this.now();
    for (const s of this.sessions.values()) if (s.dest === dest && s.expiresAt > t) return true;
    return false;
  }

  /**
   * The chat of something done on a page: the signed-in person, with the rights they have in the chat
   * the link was asked for in; replies go to the page.
   */
  chatOf(session: WebSession, messageId: string): ChatContext {
    const origin = session.chat;
    return {
      platform: 'web',
      from: origin.from,
      fromName: origin.fromName,
      dest: session.dest,
      chatKind: 'private',
      messageId,
      openedFrom: { ...origin },
    };
  }

  /** The keys of `who`'s entries in `table`, oldest first. */
  private mine(table: ReadonlyMap<string, Owned>, who: string): string[] {
    return [...table].filter(([, e]) => e.chat.from === who).map(([k]) => k);
  }

  /**
   * Room in `table` for one more entry of `who`, made only by dropping `who`'s own oldest entries: down to
   * `perPerson - 1` of theirs, and one more of theirs while the table is full. False when it is full of other
   * people's entries (nothing dropped then).
   */
  private makeRoom(table: Map<string, Owned>, who: string, perPerson: number, max: number): boolean {
    const own = this.mine(table, who);
    while (own.length > 0 && (own.length >= perPerson || table.size >= max)) table.delete(own.shift() ?? '');
    return table.size < max;
  }

  private full(): UserError {
    const hours = Math.round(SESSION_TTL_MS / 3_600_000);
    return new UserError('web_full', `The dashboard has ${MAX_SESSIONS} pages signed in, as many as it holds: try again when some sign out or expire (each lasts ${hours} hours).`);
  }

  private sweep(): void {
    const t = this.now();
    for (const [k, l] of this.links) if (l.expiresAt <= t) this.links.delete(k);
    for (const [k, s] of this.sessions) if (s.expiresAt <= t) this.sessions.delete(k);
  }
}
