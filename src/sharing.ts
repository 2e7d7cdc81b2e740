/**
 * Guild sharing (docs/servers.md "Sharing a server's avatars"): the shares of `state.json`, written
 * here only ({@link Sharing}; the draft helpers below change the draft it hands them). Who may share is
 * decided in `rights.ts`.
 */
import type { ChatContext } from './chat.ts';
import { UserError } from './errors.ts';
import type { People } from './people/people.ts';
import { mayShare } from './rights.ts';
import type { DeepReadonly } from './store/readonly.ts';
import type { Server, Share, StateFile } from './store/schema.ts';
import type { Store } from './store/store.ts';
import { sharesWriter } from './store/writers/shares.ts';

/** The shares of a draft of `state.json`. */
type SharesDraft = Pick<StateFile, 'shares'>;

/** The option value of a Discord role: its id, or its mention `<@&id>`. Null when it is neither. */
export function roleIdOf(value: string): string | null {
  const m = /^(?:<@&(\d{1,25})>|(\d{1,25}))$/.exec(value.trim());
  return m?.[1] ?? m?.[2] ?? null;
}

/** The server a share means when none is named: the embedded one, else the only one; null when that is ambiguous. */
export function defaultServer<S extends DeepReadonly<Server>>(servers: readonly S[]): S | null {
  return servers.find((s) => s.host === null) ?? (servers.length === 1 ? (servers[0] ?? null) : null);
}

/** Two shares grant the same thing (same guild, role, server, avatar and owner). */
function sameGrant(a: DeepReadonly<Share>, b: DeepReadonly<Share>): boolean {
  return a.guild === b.guild && a.role === b.role && a.server === b.server && a.avatar?.toLowerCase() === b.avatar?.toLowerCase() && a.owner === b.owner;
}

/** Add a share; one that grants the same thing is replaced, so sharing twice keeps one. Returns whether it was new. */
export function addShare(state: SharesDraft, share: Share): boolean {
  const before = state.shares.length;
  state.shares = state.shares.filter((s) => !sameGrant(s, share));
  state.shares.push(share);
  return state.shares.length > before;
}

/** Remove the shares that `match` selects; returns them. */
export function removeShares(state: SharesDraft, match: (s: Share) => boolean): Share[] {
  const removed = state.shares.filter(match);
  state.shares = state.shares.filter((s) => !match(s));
  return removed;
}

/** What `/share` asks for: a Discord role (id or mention), and a server or one avatar. */
export interface ShareRequest {
  role: string;
  server?: string | undefined;
  avatar?: string | undefined;
}

/** What `/unshare` narrows to; nothing named ends every share the sender may end. */
export interface UnshareRequest {
  role?: string | undefined;
  server?: string | undefined;
  avatar?: string | undefined;
}

/** A share made: what it covers. */
export interface ShareMade {
  roleId: string;
  server: string;
  /** The one avatar shared, or null for a server's avatars. */
  avatar: string | null;
  /** Whether only the sender's own avatars of the server are shared (an owner, not an admin). */
  ownOnly: boolean;
}

/**
 * Sharing a Discord guild's pilot role: checks (through `rights.ts`) and
 * stores shares, and ends them.
 *
 * @example
 * const sharing = new Sharing(store, people, config.ADMINS, () => new Date());
 * sharing.share(chat, { role: '<@&42>' }); // every avatar of the embedded server, for members with role 42
 */
export class Sharing {
  /** `state.json` `shares`: written here only. */
  private readonly shares;

  constructor(
    private readonly store: Store,
    private readonly people: People,
    private readonly admins: readonly string[],
    private readonly now: () => Date,
    /** The server a share means when none is named (the default server). */
    private readonly defaultServerId: () => string | undefined = () => defaultServer(this.store.state.data.servers)?.id,
  ) {
    this.shares = sharesWriter(store);
  }

  /** A removed avatar: the shares of it alone end. Returns how many. */
  removeAllFor(avatar: string): number {
    return this.end((s) => s.avatar?.toLowerCase() === avatar.toLowerCase()).length;
  }

  /** A renamed avatar: the shares of it alone follow it. */
  renameAvatar(from: string, to: string): void {
    if (!this.shares.value.shares.some((s) => s.avatar?.toLowerCase() === from.toLowerCase())) return;
    this.shares.update((d) => {
      for (const s of d.shares) if (s.avatar?.toLowerCase() === from.toLowerCase()) s.avatar = to;
    });
  }

  /** A removed server: its shares end. */
  serverRemoved(server: string): void {
    this.end((s) => s.server === server);
  }

  /** End the shares that match; those ended. */
  private end(match: (s: DeepReadonly<Share>) => boolean): Share[] {
    if (!this.shares.value.shares.some(match)) return [];
    return this.shares.update((d) => removeShares(d, match));
  }

  /** Share a server's avatars (present and future) or one avatar with a role of the chat's guild. Throws UserError when not allowed. */
  share(chat: ChatContext, req: ShareRequest): ShareMade {
    const roleId = roleIdOf(req.role);
    if (!roleId) throw new UserError('bad_args', 'role: choose a role of this server.');
    if (req.server && req.avatar) throw new UserError('bad_args', 'Share either a server or one avatar, not both.');
    const state = this.store.state.data;
    const one = req.avatar ? this.people.rightsOf(chat).resolve(req.avatar) : undefined;
    const serverId = one ? one.server : (req.server?.trim().toLowerCase() ?? this.defaultServerId());
    if (!serverId || !state.servers.some((s) => s.id === serverId)) {
      throw new UserError('unknown_server', `Name the server: ${state.servers.map((s) => s.id).join(', ')}.`);
    }
    const may = mayShare(state, chat, this.admins, one ? { avatar: one } : { server: serverId });
    if (!may.ok) throw new UserError('not_allowed', may.reason, one?.name);
    const by = this.people.ensurePerson(chat.from, chat.fromName);
    const guild = chat.guild as string; // mayShare refuses outside a guild
    this.shares.update((s) =>
      addShare(s, {
        guild,
        role: roleId,
        server: serverId,
        ...(one ? { avatar: one.name } : {}),
        ...(may.owner ? { owner: may.owner } : {}),
        by: by.id,
        createdAt: this.now().toISOString(),
      }),
    );
    return { roleId, server: serverId, avatar: one?.name ?? null, ownOnly: may.owner !== undefined };
  }

  /** End the chat's guild shares that match (all when nothing is named) and the sender may end. Throws UserError when none may be. */
  unshare(chat: ChatContext, req: UnshareRequest): Share[] {
    const roleId = req.role === undefined ? undefined : roleIdOf(req.role);
    if (roleId === null) throw new UserError('bad_args', 'role: choose a role of this server.');
    const one = req.avatar ? this.people.rightsOf(chat).resolve(req.avatar) : undefined;
    const state = this.store.state.data;
    const selected = (s: Share): boolean =>
      s.guild === chat.guild &&
      (roleId === undefined || s.role === roleId) &&
      (req.server === undefined || s.server === req.server) &&
      (one === undefined || s.avatar?.toLowerCase() === one.name.toLowerCase());
    const candidates = state.shares.filter(selected);
    if (candidates.length === 0) return [];
    const allowed = (s: Share): boolean => {
      const target = s.avatar ? state.avatars.find((a) => a.name.toLowerCase() === s.avatar?.toLowerCase()) : undefined;
      const may = mayShare(state, chat, this.admins, target ? { avatar: target } : { server: s.server });
      // An owner ends the server shares they made for their own avatars, not an admin's.
      return may.ok && (s.avatar !== undefined || s.owner === may.owner || may.owner === undefined);
    };
    const mine = candidates.filter(allowed);
    if (mine.length === 0) {
      const first = mayShare(state, chat, this.admins, one ? { avatar: one } : { server: candidates[0]?.server ?? '' });
      throw new UserError('not_allowed', first.ok ? 'Only an admin can end these shares.' : first.reason, one?.name);
    }
    return this.end((x) => mine.some((m) => sameGrant(m, x)));
  }
}
