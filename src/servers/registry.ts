/**
 * The Minecraft servers avatars play on (`servers` in `state.json`, written
 * here only): the embedded world, the one `MC_HOST` names at start, and
 * those added from chat. A server is pinged before it is stored (nothing is stored when the
 * ping refuses it), listed with the avatars on it, tested again, and removed
 * only when no avatar is on it. Rights are checked by the command host.
 */
import type { Config } from '../config.ts';
import { UserError } from '../errors.ts';
import { loginProbe, ServerProbeError, statusPing, type LoginProbe, type ServerAddress, type ServerStatus } from '../game/server-probe.ts';
import { embeddedVersion } from '../game/embedded/world-start.ts';
import { playableVersion, protocolOf } from '../game/versions.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import { ServerNameSchema, type Server } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { serversWriter } from '../store/writers/servers.ts';
import { formatAddress, parseAddress } from './address.ts';

/** The id of the embedded world's entry. */
export const EMBEDDED_ID = 'embedded';
/** The id of the server `MC_HOST` names at start. */
export const MC_HOST_ID = 'default';

/** An avatar on a server, as `/servers` and `/server remove` name it. */
export interface AvatarOnServer {
  name: string;
  playing: boolean;
}

/** One server with what is on it. */
export interface ServerView {
  server: Server;
  /** `host:port`, or `this machine (127.0.0.1:port)` for the embedded world. */
  address: string;
  avatars: AvatarOnServer[];
  isDefault: boolean;
}

/** What `/server add` asks for. */
export interface ServerAddRequest {
  name: string;
  address: string;
  version?: string | undefined;
  auth?: Server['auth'] | undefined;
}

/** What a ping and a login probe found. */
export interface ServerFound {
  server: Server;
  status: ServerStatus;
  /** Online mode (true), offline (false), or unknown when the login probe could not tell. */
  onlineMode: boolean | null;
  /** Why the server refused the probe's login (a whitelist), when it did. */
  loginRefused?: string;
}

/** What `/server add` did. */
export interface ServerAdded extends ServerFound {
  /** An existing server of that name was changed (its avatars were all stopped). */
  updated: boolean;
}

/** What `/server test` found, and what changed in the stored entry. */
export interface ServerTested extends ServerFound {
  /** The stored version before, when the test found another one and stored it. */
  versionWas?: string;
  /** The login mode stored before (true: online), when the test found the other one. */
  onlineModeWas?: boolean;
}

/** What the registry is built from. */
export interface ServerRegistryDeps {
  store: Store;
  config: Config;
  now(): Date;
  /** The avatars on a server, and whether each plays (the avatar manager). */
  avatars: { onServer(serverId: string): AvatarOnServer[] };
  /** Where the embedded world listens now, when it runs. */
  embedded(): { port: number; version: string } | undefined;
  /** How long a ping or a login probe may take (ms). */
  probeTimeoutMs?: number;
}

/**
 * @example
 * const servers = new ServerRegistry({ store, config, now, avatarsOn, embedded: () => world });
 * const added = await servers.add({ name: 'survival', address: 'play.example.net' });
 */
export class ServerRegistry {
  /** `state.json` `servers`: written here only. */
  private readonly file;

  constructor(private readonly deps: ServerRegistryDeps) {
    this.file = serversWriter(deps.store);
  }

  private get servers(): readonly DeepReadonly<Server>[] {
    return this.file.value.servers;
  }

  /**
   * At every start: the entries the environment names, in step with it — the embedded world (unless
   * `EMBEDDED=off`) and the server `MC_HOST` names. Servers added from chat are left as they are.
   */
  putFromEnvironment(): void {
    const { config } = this.deps;
    const put = (server: Server): void =>
      this.file.update((d) => {
        const i = d.servers.findIndex((x) => x.id === server.id);
        if (i < 0) d.servers.push(server);
        else d.servers[i] = server;
      });
    if (config.EMBEDDED) put({ id: EMBEDDED_ID, host: null, port: null, version: embeddedVersion(config), auth: 'offline' });
    if (!config.MC_HOST) return;
    const stored = this.get(MC_HOST_ID);
    // Without MC_VERSION the version is the one found before (by /server test), else found at each join.
    const same = stored?.host === config.MC_HOST && stored.port === (config.MC_PORT ?? 25565) ? stored : undefined;
    put({
      id: MC_HOST_ID,
      host: config.MC_HOST,
      port: config.MC_PORT ?? 25565,
      version: config.MC_VERSION ?? same?.version ?? '',
      // Offline, as MC_HOST always was, unless `/server add default … auth:microsoft` changed it.
      auth: same?.auth ?? 'offline',
      ...(config.MC_VERSION ? { versionPinned: true } : {}),
      ...(same?.software ? { software: same.software } : {}),
      ...(same?.onlineMode !== undefined ? { onlineMode: same.onlineMode } : {}),
    });
  }

  /** The server a new avatar of the environment's first start plays on: `MC_HOST`'s, else the embedded world; none when both are off. */
  homeId(): string | undefined {
    return this.deps.config.MC_HOST ? MC_HOST_ID : this.deps.config.EMBEDDED ? EMBEDDED_ID : undefined;
  }

  /** A server by name (case-insensitive). */
  get(name: string): DeepReadonly<Server> | undefined {
    const n = name.trim().toLowerCase();
    return this.servers.find((s) => s.id.toLowerCase() === n);
  }

  /** The server new avatars go to: `MC_HOST`'s, else the embedded world, else the first one. */
  defaultId(): string | undefined {
    const ids = this.servers.map((s) => s.id);
    if (this.deps.config.MC_HOST && ids.includes(MC_HOST_ID)) return MC_HOST_ID;
    if (this.deps.config.EMBEDDED && ids.includes(EMBEDDED_ID)) return EMBEDDED_ID;
    return ids[0];
  }

  /** Every server, the default first, with the avatars on it. */
  list(): ServerView[] {
    const def = this.defaultId();
    return [...this.servers]
      .sort((a, b) => Number(b.id === def) - Number(a.id === def))
      .map((server) => ({ server, address: this.addressOf(server), avatars: this.deps.avatars.onServer(server.id), isDefault: server.id === def }));
  }

  /** How a server's address is shown. */
  addressOf(server: Server): string {
    if (server.host !== null) return formatAddress({ host: server.host, port: server.port ?? 25565 });
    const world = this.deps.embedded();
    return world ? `this machine (127.0.0.1:${world.port})` : 'this machine (off: EMBEDDED=off)';
  }

  /**
   * Ping a server and store it: a new one, or an external one of that name whose avatars are all
   * stopped. Throws UserError (nothing stored) when the name, address or version is wrong, the server
   * does not answer or cannot be played, or it is in online mode while `auth:offline` was asked for.
   */
  async add(req: ServerAddRequest): Promise<ServerAdded> {
    const name = req.name.trim().toLowerCase();
    if (!ServerNameSchema.safeParse(name).success) {
      throw new UserError('bad_server_name', 'A server name is 1–32 letters, digits, - or _ (starting with a letter or digit), e.g. survival.');
    }
    const address = parseAddress(req.address);
    this.requireChangeable(name);
    const found = await this.probe(name, address, req.version, req.auth);
    if (found.onlineMode === true && req.auth === 'offline') {
      throw new UserError(
        'online_mode',
        `${name} (${formatAddress(address)}) is in online mode: it lets in only players signed in with Microsoft, so auth:offline cannot join it. Add it with auth:microsoft (each avatar's owner then signs in once, with a code mindlink sends them) or leave auth out. Nothing was stored.`,
      );
    }
    // The probe took a while: the name may have been taken or its avatars started meanwhile.
    const updated = this.requireChangeable(name);
    const server = found.server;
    this.file.update((d) => {
      d.servers = d.servers.filter((x) => x.id !== name);
      d.servers.push(server);
    });
    return { ...found, updated };
  }

  /** Remove a server no avatar is on. Throws UserError naming the avatars otherwise. */
  remove(name: string): Server {
    const server = this.require(name);
    if (server.id === EMBEDDED_ID) throw new UserError('embedded_server', 'embedded is mindlink\'s own world; EMBEDDED=off turns it off.');
    const on = this.deps.avatars.onServer(server.id);
    if (on.length > 0) {
      const names = on.map((a) => `${a.name} (${a.playing ? 'playing' : 'stopped'})`).join(', ');
      throw new UserError('server_in_use', `${server.id} still has ${on.length === 1 ? 'an avatar' : `${on.length} avatars`}: ${names}. Move ${on.length === 1 ? 'it' : 'them'} first (/avatar move <name> <server>, once stopped); nothing was removed.`);
    }
    this.file.update((d) => {
      d.servers = d.servers.filter((x) => x.id !== server.id);
    });
    return server;
  }

  /** Ping a stored server again; a version found that differs from the stored one (not pinned) is stored. */
  async test(name: string): Promise<ServerTested> {
    const server = this.require(name);
    const address = this.reachOf(server);
    const found = await this.probe(server.id, address, server.versionPinned || server.host === null ? server.version : undefined, server.auth);
    const fresh = this.get(server.id);
    if (!fresh) return found;
    const versionWas = fresh.version !== found.server.version ? fresh.version : undefined;
    const onlineModeWas = found.onlineMode !== null && fresh.onlineMode !== undefined && fresh.onlineMode !== found.onlineMode ? fresh.onlineMode : undefined;
    const tested = this.file.update((d) => {
      const entry = d.servers.find((x) => x.id === fresh.id) as Server;
      entry.version = found.server.version;
      if (entry.host !== null) {
        entry.software = found.status.software;
        if (found.onlineMode !== null) entry.onlineMode = found.onlineMode;
      }
      return entry;
    });
    return { ...found, server: tested, ...(versionWas ? { versionWas } : {}), ...(onlineModeWas !== undefined ? { onlineModeWas } : {}) };
  }

  /** Where to reach a stored server (the embedded world where it listens now). */
  private reachOf(server: Server): ServerAddress {
    if (server.host !== null) return { host: server.host, port: server.port ?? 25565 };
    const world = this.deps.embedded();
    if (!world) throw new UserError('embedded_off', 'The embedded world is off (EMBEDDED=off).');
    return { host: '127.0.0.1', port: world.port };
  }

  private require(name: string): Server {
    const server = this.get(name);
    if (!server) throw new UserError('unknown_server', `There is no server called "${name.slice(0, 40)}". Servers: ${this.servers.map((s) => s.id).join(', ') || 'none yet'}.`);
    return server;
  }

  /** Whether `name` exists already (then it must be an external server whose avatars are all stopped). */
  private requireChangeable(name: string): boolean {
    const existing = this.get(name);
    if (!existing) return false;
    if (existing.host === null) throw new UserError('embedded_server', 'embedded is mindlink\'s own world: pick another name.');
    const playing = this.deps.avatars.onServer(existing.id).filter((a) => a.playing);
    if (playing.length > 0) {
      throw new UserError('server_in_use', `${existing.id} exists and ${playing.map((a) => a.name).join(', ')} ${playing.length === 1 ? 'plays' : 'play'} there: /stop ${playing.length === 1 ? 'it' : 'them'} first to change it, or pick another name.`);
    }
    return true;
  }

  /**
   * A version given for a server that says it runs another: asked again by a client of that version, a
   * server that takes several (ViaVersion, a proxy) answers with it, one that does not answers with its
   * own. Throws UserError then (the avatars could never join).
   */
  private async requireSpoken(name: string, address: ServerAddress, status: ServerStatus, version: string, timeoutMs: number): Promise<void> {
    const wanted = protocolOf(version);
    if (status.protocol === wanted) return;
    const asked = await statusPing(address, timeoutMs, version);
    if (asked.protocol === wanted) return;
    throw new UserError(
      'version_not_spoken',
      `Could not use ${name} (${formatAddress(address)}): it runs Minecraft ${status.version}, not ${version}, and answers a ${version} client as ${asked.version} too (a server that takes several versions answers as the client's). /server add ${name} ${formatAddress(address)} adds it with the version it runs. Nothing was stored.`,
    );
  }

  /** Ping, find the version, and probe the login mode; the entry that would be stored. Throws UserError. */
  private async probe(name: string, address: ServerAddress, version: string | undefined, auth: Server['auth'] | undefined): Promise<ServerFound> {
    const timeoutMs = this.deps.probeTimeoutMs ?? 10_000;
    let pinned: string | undefined;
    if (version !== undefined) {
      const verdict = playableVersion(version.trim());
      if (!verdict.ok) throw new UserError('unsupported_version', `${verdict.reason}. Nothing was stored.`);
      pinned = verdict.version;
    }
    let status: ServerStatus;
    let login: LoginProbe | undefined;
    try {
      status = await statusPing(address, timeoutMs);
      if (pinned) await this.requireSpoken(name, address, status, pinned, timeoutMs);
      login = await loginProbe(status.reachedAt, pinned ?? status.version, timeoutMs).catch((err: unknown) => {
        if (err instanceof ServerProbeError) return undefined;
        throw err;
      });
    } catch (err) {
      if (err instanceof ServerProbeError) throw new UserError(`server_${err.code}`, `Could not use ${name} (${formatAddress(address)}): ${err.message} Nothing was stored.`);
      throw err;
    }
    const onlineMode = login === undefined || login.mode === 'refused' ? null : login.mode === 'online';
    const existing = this.get(name);
    const server: Server = {
      id: name,
      host: address.host,
      port: address.port,
      version: pinned ?? status.version,
      auth: auth ?? (onlineMode ? 'microsoft' : 'offline'),
      software: status.software,
      ...(onlineMode !== null ? { onlineMode } : {}),
      ...(pinned ? { versionPinned: true } : {}),
      addedAt: existing?.addedAt ?? this.deps.now().toISOString(),
    };
    return { server, status, onlineMode, ...(login?.mode === 'refused' ? { loginRefused: login.reason } : {}) };
  }
}
