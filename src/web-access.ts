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
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ChatContext } from './chat.ts';
import { UserError } from './errors.ts';
import { remember } from './bounded-map.ts';
import type { Destination } from './store/schema.ts';

/** How long a sign-in link is good for. */
export const LINK_TTL_MS = 10 * 60_000;
/** How long a session lasts after sign-in. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** Most sign-in links waiting to be used, and most sessions at once; the oldest go first. */
const MAX_LINKS = 200;
const MAX_SESSIONS = 500;

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

  /** A one-time sign-in link for the sender of `chat`, seen from that chat. Throws UserError while the dashboard is off. */
  signInLink(chat: ChatContext): string {
    if (!this.base) throw new UserError('web_off', 'The dashboard is off here (WEB=off, or it could not start): the log says why.');
    this.sweep();
    const token = secret();
    remember(this.links, hash(token), { chat: originOf(chat), expiresAt: this.now() + LINK_TTL_MS }, MAX_LINKS);
    return `${this.base}/login#${token}`;
  }

  /** Use a sign-in token: a new session, or null when the token is unknown, used or expired. */
  redeem(token: string): NewSession | null {
    const key = hash(token);
    const link = this.links.get(key);
    this.links.delete(key);
    if (!link || link.expiresAt <= this.now()) return null;
    const cookie = secret();
    const session: WebSession = {
      chat: link.chat,
      dest: `web:${randomBytes(12).toString('base64url')}`,
      csrf: secret(),
      expiresAt: this.now() + SESSION_TTL_MS,
    };
    remember(this.sessions, hash(cookie), session, MAX_SESSIONS);
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

  private sweep(): void {
    const t = this.now();
    for (const [k, l] of this.links) if (l.expiresAt <= t) this.links.delete(k);
    for (const [k, s] of this.sessions) if (s.expiresAt <= t) this.sessions.delete(k);
  }
}
