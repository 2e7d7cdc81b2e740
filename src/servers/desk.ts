/**
 * What the server commands (`/server add|remove|test`, `/servers`,
 * `/avatar move`) may do: admins only, checked here (how many servers there
 * are is no secret).
 */
import type { ChatContext } from '../chat.ts';
import { UserError } from '../errors.ts';
import type { People } from '../people/people.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Server } from '../store/schema.ts';
import type { ServerAddRequest, ServerAdded, ServerRegistry, ServerTested, ServerView } from './registry.ts';

/** The server commands' view of mindlink. */
export interface ServerDesk {
  /** `/servers`: every server, the default first, with the avatars on it. */
  list(chat: ChatContext): ServerView[];
  /** `/server add`: ping and store. Throws UserError (nothing stored) with the reason. */
  add(chat: ChatContext, req: ServerAddRequest): Promise<ServerAdded>;
  /** `/server remove`: refuses while avatars are on it. */
  remove(chat: ChatContext, name: string): ServerView;
  /** `/server test`: ping again; `playingOn` names the avatars that keep the old version until they play again. */
  test(chat: ChatContext, name: string): Promise<ServerTested & { address: string; playingOn: string[] }>;
  /** `/avatar move`: a stopped avatar to another server; the server it is on now. */
  move(chat: ChatContext, avatar: string, server: string): Promise<ServerView>;
  /** How many servers there are (anyone may ask: `/status` names an avatar's server when there are several). */
  count(): number;
  /**
   * Resolves once a `/server add` of that name under way has ended (at once when none is): `/server add`
   * runs beside the lines typed after it, and a line that uses the server (`/avatar create bob server:x`)
   * waits for it.
   */
  settled(name: string): Promise<void>;
}

const ADMINS_ONLY = 'Only an admin can manage servers.';

/** What the desk asks of the avatars (the avatar manager): which are on a server, their games built anew, a stopped one moved. */
export interface DeskAvatars {
  /** The avatars on a server, and whether each plays. */
  onServer(serverId: string): { name: string; playing: boolean }[];
  /** Build a stopped avatar's live parts anew from its record (its server changed). */
  rebuild(name: string): Promise<void>;
  /** Put a stopped avatar on another server (it stays where it was when its game there cannot be built). */
  moveTo(name: string, serverId: string): Promise<void>;
}

/** What the desk asks of the shares: those of a removed server end. */
export interface DeskShares {
  serverRemoved(serverId: string): void;
}

/** What the desk asks of the places avatars remember: those on a removed server go. */
export interface DeskPlaces {
  serverRemoved(serverId: string): number;
}

/**
 * A server's entry changed (its address, version or auth): its stopped avatars are built anew for it.
 * Returns those that play on, with the game they had, until they are stopped and played again.
 */
async function serverChanged(avatars: DeskAvatars, serverId: string): Promise<string[]> {
  const playing: string[] = [];
  for (const a of avatars.onServer(serverId)) {
    if (a.playing) playing.push(a.name);
    else await avatars.rebuild(a.name);
  }
  return playing;
}

/**
 * @example
 * const desk = createServerDesk({ registry, people, avatars, shares: sharing, places });
 * await desk.add(chat, { name: 'survival', address: 'play.example.net' });
 */
export function createServerDesk({
  registry,
  people,
  avatars,
  shares,
  places,
}: {
  registry: ServerRegistry;
  people: People;
  avatars: DeskAvatars;
  shares: DeskShares;
  places?: DeskPlaces;
}): ServerDesk {
  const view = (server: DeepReadonly<Server>): ServerView => {
    const found = registry.list().find((v) => v.server.id === server.id);
    if (!found) throw new UserError('unknown_server', `There is no server called "${server.id}".`);
    return found;
  };
  const known = (name: string): DeepReadonly<Server> => {
    const server = registry.get(name);
    if (!server) {
      throw new UserError('unknown_server', `There is no server called "${name.slice(0, 40)}". Servers: ${registry.list().map((v) => v.server.id).join(', ') || 'none yet'}.`);
    }
    return server;
  };
  /** The `/server add`s under way, by server name, settling (never rejecting) when each ends. */
  const addsUnderWay = new Map<string, Promise<void>>();
  return {
    list(chat) {
      people.rightsOf(chat).requireAdmin(ADMINS_ONLY);
      return registry.list();
    },
    async add(chat, req) {
      people.rightsOf(chat).requireAdmin(ADMINS_ONLY);
      const name = req.name.trim().toLowerCase();
      const adding = (async () => {
        const added = await registry.add(req);
        // A server changed under its (stopped) avatars: their games are built anew for it.
        if (added.updated) await serverChanged(avatars, added.server.id);
        return added;
      })();
      const settled = adding.then(
        () => undefined,
        () => undefined,
      );
      addsUnderWay.set(name, settled);
      void settled.then(() => {
        if (addsUnderWay.get(name) === settled) addsUnderWay.delete(name);
      });
      return adding;
    },
    remove(chat, name) {
      people.rightsOf(chat).requireAdmin(ADMINS_ONLY);
      const before = view(known(name));
      registry.remove(name);
      shares.serverRemoved(before.server.id);
      places?.serverRemoved(before.server.id);
      return before;
    },
    async test(chat, name) {
      people.rightsOf(chat).requireAdmin(ADMINS_ONLY);
      await addsUnderWay.get(name.trim().toLowerCase());
      const server = known(name);
      const tested = await registry.test(server.id);
      const playingOn = tested.versionWas ? await serverChanged(avatars, server.id) : [];
      return { ...tested, address: registry.addressOf(tested.server), playingOn };
    },
    async move(chat, avatarName, serverName) {
      people.rightsOf(chat).requireAdmin('Only an admin can move avatars between servers.');
      const avatar = people.rightsOf(chat).resolve(avatarName);
      await addsUnderWay.get(serverName.trim().toLowerCase());
      const server = known(serverName);
      if (avatar.server === server.id) throw new UserError('same_server', `${avatar.name} is on ${server.id} already.`, avatar.name);
      await avatars.moveTo(avatar.name, server.id);
      return view(server);
    },
    count: () => registry.list().length,
    settled: async (name) => {
      await addsUnderWay.get(name.trim().toLowerCase());
    },
  };
}
