/**
 * Looking at a Minecraft server before an avatar goes there: the status ping
 * (what the server list shows: version, players, message of the day) through
 * minecraft-protocol, and a login probe that tells online mode from offline
 * mode — an online-mode server answers a login with an encryption request,
 * an offline one lets the player in (the probe leaves at once) or refuses it
 * (a whitelist). Every failure is a {@link ServerProbeError} whose message is
 * words for a chat line.
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import type mcProtocol from 'minecraft-protocol';
import { leanProtocol } from './lean-protocol.cjs';
import { reasonText, serverWords } from './refusals.ts';
import { detectVersion, playableVersion, protocolOf } from './versions.ts';

/** minecraft-protocol, loaded by the first probe (mindlink starts without it: its avatars join from their hosts). */
let protocolLib: Promise<typeof mcProtocol> | undefined;
function minecraftProtocol(): Promise<typeof mcProtocol> {
  protocolLib ??= Promise.resolve()
    .then(() => leanProtocol(fileURLToPath(import.meta.url)))
    .then(() => import('minecraft-protocol'))
    .then((m) => m.default);
  return protocolLib;
}

/** Where a server listens. */
export interface ServerAddress {
  host: string;
  port: number;
}

/** What a status ping found. */
export interface ServerStatus {
  /** What it runs, for people: `Paper 1.21.4`, or `Minecraft 1.20.4` when the server names only the version. */
  software: string;
  /** The version avatars play there (minecraft-data's name). */
  version: string;
  /** The protocol number the server answered with. */
  protocol: number;
  players: { online: number; max: number };
  /** The message of the day, plain text on one line. */
  motd: string;
  /** Where the server answered: the address given, or where its DNS SRV record points. */
  reachedAt: ServerAddress;
}

/** Why a probe failed; stable codes for tests and logs. */
export type ProbeCode = 'unreachable' | 'no_answer' | 'unknown_host' | 'not_minecraft' | 'asleep' | 'unsupported_version';

/** A probe that failed, with words for the chat. */
export class ServerProbeError extends Error {
  readonly code: ProbeCode;
  /** The connection error's code (`ECONNREFUSED`), when a connection failed. */
  readonly errno: string | undefined;
  constructor(code: ProbeCode, message: string, errno?: string) {
    super(message);
    this.name = 'ServerProbeError';
    this.code = code;
    this.errno = errno;
  }
}

/** What a login probe saw. */
export type LoginProbe = { mode: 'online' } | { mode: 'offline' } | { mode: 'refused'; reason: string };

/** The name the login probe logs in with (offline-mode servers see it join and leave at once). */
export const PROBE_NAME = 'mindlink_check';

/** Words for a connection error (`the server refuses connections (ECONNREFUSED)`). */
function connectionProblem(address: ServerAddress, err: unknown): ServerProbeError {
  const message = (err as Error | undefined)?.message ?? '';
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? (message === 'ETIMEDOUT' ? 'ETIMEDOUT' : '');
  const where = `${address.host}:${address.port}`;
  const fail = (kind: ProbeCode, words: string): ServerProbeError => new ServerProbeError(kind, words, code || undefined);
  if (code === 'ECONNREFUSED') return fail('unreachable', `${where} refuses connections (ECONNREFUSED): no Minecraft server listens there, or a firewall says no.`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return fail('unknown_host', `${address.host} is not a host name mindlink can find (${code}).`);
  if (code === 'ETIMEDOUT') return fail('no_answer', `${where} does not answer (no reply in time): the host is down, or the address is wrong.`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return fail('unreachable', `${where} cannot be reached from here (${code}).`);
  if (code === 'ECONNRESET' || /closed before|status response/i.test(message)) return fail('not_minecraft', `${where} closed the connection without answering like a Minecraft server.`);
  return fail('unreachable', `${where} could not be reached (${code || 'connection error'}).`);
}

/** A server list entry that says the server is asleep (hosted servers started on demand answer for it meanwhile). */
export function asleepIn(versionName: string, motd: string): boolean {
  const sleepy = /\b(offline|asleep|sleeping|hibernat\w*|starting|waking|start it)\b/i;
  if (sleepy.test(versionName)) return true;
  return !/\d+\.\d+/.test(versionName) && sleepy.test(motd);
}

/**
 * The status ping: what the server says it runs and who plays there, asked as a client of `speaking`
 * (minecraft-protocol's newest version when absent). A server of one version answers with its own; one
 * that takes several (ViaVersion, a proxy) answers a client of a version it takes with that version.
 * Throws {@link ServerProbeError} for a host that does not answer, a sleeping server, or a version avatars cannot play.
 *
 * @example
 * const status = await statusPing({ host: 'play.example.net', port: 25565 }, 10_000);
 * // { software: 'Paper 1.21.4', version: '1.21.4', protocol: 769, players: { online: 3, max: 20 }, motd: 'Welcome' }
 */
export async function statusPing(address: ServerAddress, timeoutMs: number, speaking?: string): Promise<ServerStatus> {
  const options = { host: address.host, port: address.port, closeTimeout: timeoutMs, noPongTimeout: Math.min(timeoutMs, 5000), ...(speaking ? { version: speaking } : {}) };
  const mc = await minecraftProtocol();
  let reply: unknown;
  try {
    reply = await mc.ping(options);
  } catch (err) {
    throw connectionProblem(address, err);
  }
  const r = reply as { version?: { name?: unknown; protocol?: unknown }; players?: { online?: unknown; max?: unknown }; description?: unknown };
  if (!r || typeof r !== 'object' || !r.version) {
    throw new ServerProbeError('not_minecraft', `${address.host}:${address.port} answered, but not with a Minecraft server's status.`);
  }
  const versionName = serverWords(String(r.version.name ?? '')).slice(0, 80);
  const protocol = Number(r.version.protocol ?? -1);
  const motd = serverWords(reasonText(r.description)).slice(0, 200);
  if (asleepIn(versionName, motd)) {
    throw new ServerProbeError('asleep', `the server is asleep (it says "${versionName || motd}"): hosted servers that start on demand answer like this until someone starts them from the host's panel. Start it there, then try again.`);
  }
  const verdict = detectVersion(protocol, versionName);
  if (!verdict.ok) throw new ServerProbeError('unsupported_version', `it runs ${versionName || `protocol ${protocol}`}, and ${verdict.reason}.`);
  const software = /^\d/.test(versionName) ? `Minecraft ${versionName}` : versionName || `Minecraft ${verdict.version}`;
  return {
    software,
    version: verdict.version,
    protocol,
    players: { online: Number(r.players?.online ?? 0) || 0, max: Number(r.players?.max ?? 0) || 0 },
    motd,
    // minecraft-protocol's ping follows a DNS SRV record by changing the options it was given.
    reachedAt: { host: options.host, port: options.port },
  };
}

/** The UUID an offline-mode server gives a name (`OfflinePlayer:<name>`, as a version 3 UUID). */
export function offlineUuid(name: string): string {
  const b = createHash('md5').update(`OfflinePlayer:${name}`, 'utf8').digest();
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x30;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Start a login as {@link PROBE_NAME} and see what the server does: ask for encryption (online mode),
 * let the player in (offline mode; the probe leaves at once), or refuse it with a reason (a whitelist).
 *
 * @example
 * const seen = await loginProbe({ host: '127.0.0.1', port: 25565 }, '1.21.4', 10_000); // { mode: 'online' }
 */
export async function loginProbe(address: ServerAddress, version: string, timeoutMs: number): Promise<LoginProbe> {
  const verdict = playableVersion(version);
  if (!verdict.ok) throw new ServerProbeError('unsupported_version', `${verdict.reason}.`);
  const protocolVersion = protocolOf(verdict.version);
  const mc = await minecraftProtocol();
  return new Promise<LoginProbe>((resolve, reject) => {
    const client = new mc.Client(false, verdict.version);
    let settled = false;
    const finish = (outcome: LoginProbe | ServerProbeError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.end('probe done');
      client.socket?.destroy();
      if (outcome instanceof ServerProbeError) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(() => finish(connectionProblem(address, new Error('ETIMEDOUT'))), timeoutMs);
    client.on('connect', () => {
      client.write('set_protocol', { protocolVersion, serverHost: address.host, serverPort: address.port, nextState: 2 });
      client.state = mc.states.LOGIN;
      client.write('login_start', { username: PROBE_NAME, signature: null, playerUUID: offlineUuid(PROBE_NAME) });
    });
    client.on('encryption_begin', (packet: { shouldAuthenticate?: boolean }) => finish({ mode: packet.shouldAuthenticate === false ? 'offline' : 'online' }));
    client.on('compress', (packet: { threshold: number }) => {
      (client as unknown as { compressionThreshold: number }).compressionThreshold = packet.threshold;
    });
    client.on('success', () => finish({ mode: 'offline' }));
    client.on('disconnect', (packet: { reason?: unknown }) => finish({ mode: 'refused', reason: serverWords(reasonText(packet.reason)).slice(0, 300) }));
    client.on('error', (err: Error) => finish(connectionProblem(address, err)));
    client.on('end', () => finish(new ServerProbeError('not_minecraft', `${address.host}:${address.port} closed the connection during the login.`)));
    client.setSocket(net.connect(address.port, address.host));
  });
}
