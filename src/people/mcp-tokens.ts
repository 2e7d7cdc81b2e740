/**
 * Tokens of the people's MCP server (docs/mcp.md): the one writer of
 * `state.json` `mcpTokens`.
 *
 * `/mcp new [label]`, sent to mindlink in a direct message (or typed on the
 * console), gives its sender a bearer token, shown once. A request carrying it
 * acts as that person speaking from that chat: exactly the rights they have
 * there, decided again at every call (`src/rights.ts`). Only the token's
 * SHA-256 is kept, with the person, the identity, the chat, a label, when it
 * was made and when it was last used; a lookup compares every kept hash in
 * constant time. A person holds at most {@link MCP_TOKENS_PER_PERSON} and asks
 * for at most {@link MCP_ISSUES_PER_MINUTE} a minute; `/mcp revoke` ends one
 * by its label, or all of theirs at once, and a revoked token is refused from
 * its next request on.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { takeTurn } from '../bounded-map.ts';
import type { ChatContext, Platform } from '../chat.ts';
import { UserError } from '../errors.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Identity, McpToken } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { mcpTokensWriter } from '../store/writers/mcp-tokens.ts';
import type { People } from './people.ts';

/** Tokens one person may hold at once. */
export const MCP_TOKENS_PER_PERSON = 5;
/** Tokens one chat identity may ask for in a minute. */
export const MCP_ISSUES_PER_MINUTE = 3;
/** How close to the truth a token's last use is kept (one write per token at most this often). */
export const MCP_LAST_USE_STEP_MS = 10 * 60_000;
/** What every token starts with (so a secret scanner, or a person, can tell one). */
export const MCP_TOKEN_PREFIX = 'mindlink_';

/** A label as typed: letters, digits, `_` and `-`; `all` is `/mcp revoke all`. */
const LABEL = /^[A-Za-z0-9_-]{1,32}$/;
/** Identities whose asks are remembered for the rate limit. */
const RATE_KEYS = 2000;

/** One of the sender's tokens as `/mcp list` shows it (never the token, never its hash). */
export interface McpTokenView {
  readonly label: string;
  /** ISO time it was made. */
  readonly createdAt: string;
  /** ISO time it was last used (to {@link MCP_LAST_USE_STEP_MS}), or undefined while it never was. */
  readonly lastUsedAt: string | undefined;
}

/** A token just made: the secret itself (shown once, then only its hash is kept), its label, and where to use it. */
export interface McpTokenMade {
  token: string;
  label: string;
  /** The MCP endpoint (`http://127.0.0.1:4780/mcp`). */
  url: string;
}

/** What a command may do with the sender's own tokens (the command host's `mcp`). */
export interface McpDesk {
  /**
   * A new token acting as the sender from this chat. Throws UserError outside a direct message or the
   * console, while the MCP server is off, for a bad or taken label, at the per-person cap, or when asked
   * for too often.
   */
  issue(chat: ChatContext, label?: string): McpTokenMade;
  /** The sender's tokens, oldest first. */
  list(chat: ChatContext): McpTokenView[];
  /** End the sender's token of that label (UserError when there is none), or all of theirs; the labels ended. */
  revoke(chat: ChatContext, label?: string): string[];
  /** Where the MCP server is served, or null while it is not (MCP=off, or the dashboard did not start). */
  readonly url: string | null;
}

/** How {@link McpTokens} counts time (tests move it on). */
export interface McpTokensOptions {
  now?: () => number;
}

const hashOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/** The platform of an identity (`discord:…` → `discord`). */
function platformOf(identity: Identity): Platform {
  return identity.slice(0, identity.indexOf(':')) as Platform;
}

/**
 * @example
 * const tokens = new McpTokens(store, people);
 * tokens.listening('http://127.0.0.1:4780/mcp');      // the web bridge, once it serves MCP
 * const made = tokens.issue(dm, 'laptop');             // { token: 'mindlink_…', label: 'laptop', url }
 * tokens.caller(made.token)?.from;                     // the identity that asked, e.g. 'telegram:42'
 * tokens.revoke(dm, 'laptop');                         // ['laptop']; the token is refused from now on
 */
export class McpTokens implements McpDesk {
  private endpoint: string | null = null;
  /** Chat identity → when it last asked for tokens (the rate limit). */
  private readonly asked = new Map<string, number[]>();
  private readonly now: () => number;

  /** `state.json` `mcpTokens`: written here only. */
  private readonly tokens;

  constructor(
    store: Store,
    private readonly people: People,
    opts: McpTokensOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.tokens = mcpTokensWriter(store);
  }

  /** The MCP server is served at `url`, or no longer (null). */
  listening(url: string | null): void {
    this.endpoint = url;
  }

  /** Where the MCP server is served, or null while it is not. */
  get url(): string | null {
    return this.endpoint;
  }

  issue(chat: ChatContext, label?: string): McpTokenMade {
    if (chat.platform === 'web' || chat.openedFrom || (chat.chatKind !== 'private' && chat.chatKind !== 'console')) {
      throw new UserError(
        'mcp_private_only',
        'An MCP token acts as you do in your direct messages with me, so I give one only there: send /mcp new to me in a direct message.',
      );
    }
    const url = this.endpoint;
    if (!url) throw new UserError('mcp_off', 'The MCP server is off here (MCP=off, or the dashboard could not start): the log says why.');
    const wanted = label?.trim() || undefined;
    if (wanted !== undefined && (!LABEL.test(wanted) || wanted.toLowerCase() === 'all')) {
      throw new UserError('bad_mcp_label', 'A token label is one word of up to 32 letters, digits, _ or - (not "all"), e.g. /mcp new laptop.');
    }
    const person = this.people.personOf(chat.from);
    const mine = person ? this.mine(person.id) : [];
    if (wanted !== undefined && mine.some((t) => t.label.toLowerCase() === wanted.toLowerCase())) {
      throw new UserError('bad_mcp_label', `You have a token called ${wanted} already: /mcp revoke ${wanted} ends it, or give the new one another label.`);
    }
    if (mine.length >= MCP_TOKENS_PER_PERSON) {
      throw new UserError(
        'mcp_cap',
        `You have ${MCP_TOKENS_PER_PERSON} MCP tokens, as many as one person may hold: /mcp list shows them, /mcp revoke <label> ends one.`,
      );
    }
    const now = this.now();
    const wait = takeTurn(this.asked, chat.from, now, { max: MCP_ISSUES_PER_MINUTE, windowMs: 60_000, keys: RATE_KEYS });
    if (wait > 0) throw new UserError('mcp_too_many', `You asked for ${MCP_ISSUES_PER_MINUTE} tokens in the last minute: ask again in ${Math.ceil(wait / 1000)} s.`);
    const owner = person ?? this.people.ensurePerson(chat.from, chat.fromName);
    const taken = new Set(mine.map((t) => t.label.toLowerCase()));
    let n = 1;
    while (taken.has(`token${n}`)) n++;
    const made = wanted ?? `token${n}`;
    const token = MCP_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const record: McpToken = {
      hash: hashOf(token).toString('base64url'),
      person: owner.id,
      identity: chat.from,
      dest: chat.dest,
      label: made,
      createdAt: new Date(now).toISOString(),
    };
    this.tokens.update((d) => d.mcpTokens.push(record));
    return { token, label: made, url };
  }

  list(chat: ChatContext): McpTokenView[] {
    const person = this.people.personOf(chat.from);
    return (person ? this.mine(person.id) : []).map((t) => ({ label: t.label, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt }));
  }

  revoke(chat: ChatContext, label?: string): string[] {
    const person = this.people.personOf(chat.from);
    const mine = person ? this.mine(person.id) : [];
    const typed = label?.trim() || 'all';
    if (!LABEL.test(typed)) throw new UserError('bad_mcp_label', 'Name the token by its label (/mcp list shows them), or revoke all of yours: /mcp revoke all.');
    const wanted = typed.toLowerCase();
    const ending = wanted === 'all' ? mine : mine.filter((t) => t.label.toLowerCase() === wanted);
    if (ending.length === 0 && wanted !== 'all') throw new UserError('unknown_mcp_token', `You have no MCP token called ${typed}: /mcp list shows yours.`);
    if (ending.length === 0) return [];
    const gone = new Set(ending.map((t) => t.hash));
    this.tokens.update((d) => {
      d.mcpTokens = d.mcpTokens.filter((t) => !gone.has(t.hash));
    });
    return ending.map((t) => t.label);
  }

  /**
   * The chat a request carrying `token` acts from: its person's identity speaking from the direct-message
   * chat it was asked for in. Null for a token unknown or revoked, or whose identity is no longer its
   * person's. Its last use is noted (one write per {@link MCP_LAST_USE_STEP_MS} at most).
   */
  caller(token: string): ChatContext | null {
    if (!token.startsWith(MCP_TOKEN_PREFIX) || token.length > 200) return null;
    const presented = hashOf(token);
    let found: DeepReadonly<McpToken> | undefined;
    // Every kept hash is compared, each in constant time: how long a lookup takes tells nothing of a token.
    for (const t of this.tokens.value.mcpTokens) {
      if (timingSafeEqual(Buffer.from(t.hash, 'base64url'), presented) && !found) found = t;
    }
    if (!found) return null;
    const person = this.people.personOf(found.identity);
    if (!person || person.id !== found.person) return null;
    const now = this.now();
    const last = found.lastUsedAt ? Date.parse(found.lastUsedAt) : Number.NaN;
    if (!(now - last < MCP_LAST_USE_STEP_MS)) {
      const hash = found.hash;
      this.tokens.update((d) => {
        const t = d.mcpTokens.find((x) => x.hash === hash);
        if (t) t.lastUsedAt = new Date(now).toISOString();
      });
    }
    return {
      platform: platformOf(found.identity),
      from: found.identity,
      fromName: person.name,
      dest: found.dest,
      chatKind: found.identity === 'console:local' ? 'console' : 'private',
      messageId: null,
    };
  }

  /** The tokens of a person, oldest first. */
  private mine(personId: string): readonly DeepReadonly<McpToken>[] {
    return this.tokens.value.mcpTokens.filter((t) => t.person === personId);
  }
}
