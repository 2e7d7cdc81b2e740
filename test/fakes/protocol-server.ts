/**
 * A Minecraft server at the protocol level (minecraft-protocol's own server,
 * which flying-squid is built on), for tests of what a real server can do to
 * a bot that the embedded world never does: kick at login for a whitelist or
 * a ban, speak an old version, answer pings as a sleeping hosted server, ask
 * for a resource pack, run a login plugin. Closed by the test that starts it.
 */
import minecraftData from 'minecraft-data';
import mc from 'minecraft-protocol';
import nbt from 'prismarine-nbt';

/** A client of the server, as minecraft-protocol gives it. */
export type ProtocolClient = mc.ServerClient;

/** Options of {@link startProtocolServer}. */
export interface ProtocolServerOptions {
  version?: string;
  /** The port to listen on (a free one when absent). */
  port?: number;
  onlineMode?: boolean;
  /**
   * Take every version minecraft-protocol knows, as a server with ViaVersion does: the server list answers
   * a client with the client's own version, and a login of any version gets in.
   */
  multiVersion?: boolean;
  /** Kick every login with these words, before letting it in (as a whitelist or a ban does). */
  kick?: string;
  /** What the server list shows instead of the real version (a sleeping hosted server). */
  advertise?: { name: string; protocol: number; motd?: string };
  /** A player got into the game (after the login packet was sent). */
  onJoin?(client: ProtocolClient): void;
}

/** A running protocol server. */
export interface ProtocolServer {
  port: number;
  version: string;
  /** Send a chat line from the server to a player. */
  say(client: ProtocolClient, text: string): void;
  close(): Promise<void>;
}

/** Start one on 127.0.0.1, on a free port. */
export async function startProtocolServer(opts: ProtocolServerOptions = {}): Promise<ProtocolServer> {
  const version = opts.version ?? '1.21.4';
  const data = minecraftData(version) as unknown as { loginPacket: Record<string, unknown>; supportFeature(f: string): boolean };
  const server = mc.createServer({
    'online-mode': opts.onlineMode ?? false,
    host: '127.0.0.1',
    port: opts.port ?? 0,
    version: opts.multiVersion ? false : version,
    hideErrors: true,
    ...(opts.advertise
      ? {
          beforePing: (response: Record<string, unknown>) => ({
            ...response,
            version: { name: opts.advertise?.name, protocol: opts.advertise?.protocol },
            description: { text: opts.advertise?.motd ?? '' },
          }),
        }
      : {}),
  } as mc.ServerOptions);
  // A client of another version is told as vanilla tells it, during the login: `Outdated client! Please use 1.21.4`.
  server.on('connection', (client) => {
    if (opts.multiVersion) return;
    const own = client.listeners('set_protocol') as ((p: { protocolVersion: number; nextState: number }) => void)[];
    client.removeAllListeners('set_protocol');
    client.once('set_protocol', (packet: { protocolVersion: number; nextState: number }) => {
      const mine = (server as unknown as { mcversion: { version: number } }).mcversion.version;
      if (packet.nextState !== 2 || packet.protocolVersion === mine) {
        for (const f of own) f.call(client, packet);
        return;
      }
      client.state = mc.states.LOGIN;
      client.removeAllListeners('login_start');
      client.once('login_start', () => client.end(`Outdated ${packet.protocolVersion < mine ? 'client' : 'server'}! Please use ${version}`));
    });
  });
  const kick = opts.kick;
  if (kick !== undefined) {
    // Vanilla refuses a whitelisted or banned name during the login, before the player is in.
    server.on('connection', (client) => {
      client.removeAllListeners('login_start');
      client.once('login_start', () => client.end(kick));
    });
  }
  server.on('playerJoin', (client) => {
    client.write('login', { ...data.loginPacket, entityId: client.id });
    opts.onJoin?.(client);
  });
  await new Promise<void>((resolve) => server.on('listening', () => resolve()));
  const port = (server as unknown as { socketServer: { address(): { port: number } } }).socketServer.address().port;
  return {
    port,
    version,
    say(client, text) {
      const content = data.supportFeature('chatPacketsUseNbtComponents') ? nbt.comp({ text: nbt.string(text) }) : JSON.stringify({ text });
      client.write('system_chat', { content, isActionBar: false });
    },
    close: () =>
      new Promise<void>((resolve) => {
        const socket = (server as unknown as { socketServer: { once(e: 'close', f: () => void): void; listening: boolean } }).socketServer;
        if (!socket.listening) return resolve();
        socket.once('close', () => resolve());
        for (const c of Object.values(server.clients)) c.end('Server closed');
        server.close();
      }),
  };
}
