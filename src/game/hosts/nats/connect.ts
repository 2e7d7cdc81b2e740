/**
 * The NATS connection of the core and of each host (docs/many-machines.md):
 * the servers of `HOSTS` (or `--nats`), authenticated with `NATS_TOKEN`, or
 * `NATS_USER` and `NATS_PASS`, or the token or user and password written in
 * the URL. The client reconnects for as long as it runs; credentials never
 * reach a log line (the servers are logged without them, and
 * {@link natsSecrets} registers them with the logger).
 */
import { connect, JSONCodec, type Msg, type NatsConnection, type NatsError } from 'nats';
import type { Logger } from 'pino';
import { NatsAuthError, shownServer, type NatsSettings } from './credentials.ts';

export { NatsAuthError, natsSecrets, shownServer, type NatsSettings } from './credentials.ts';

/** The JSON codec every message travels in. */
export const codec = JSONCodec<unknown>();

/**
 * A subscription's callback that cannot throw: a message its handler fails on is logged and dropped. (nats.js
 * runs callbacks in its socket reader: one that throws would stop the connection from reading anything more.)
 *
 * @example
 * nc.subscribe(subject, { callback: guarded(log, (m) => onBeat(m.subject, m.data)) });
 */
export function guarded(log: Logger, handle: (m: Msg) => void): (err: NatsError | null, m: Msg) => void {
  return (err, m) => {
    if (err) {
      log.warn({ err }, 'NATS subscription error');
      return;
    }
    try {
      handle(m);
    } catch (error) {
      log.warn({ err: error, subject: m.subject }, 'a NATS message could not be handled; dropped');
    }
  };
}

/** The options nats.js takes: servers without credentials, the credentials apart (nats.js reads none from a URL). */
function options(s: NatsSettings) {
  let token = s.token;
  let user = s.user;
  let pass = s.pass;
  for (const server of s.servers) {
    const u = new URL(server);
    if (u.username && u.password) {
      user ??= decodeURIComponent(u.username);
      pass ??= decodeURIComponent(u.password);
    } else if (u.username) token ??= decodeURIComponent(u.username);
  }
  return {
    servers: s.servers.map((server) => {
      const u = new URL(server);
      return `${u.protocol}//${u.host}`;
    }),
    name: s.name,
    ...(token ? { token } : {}),
    ...(user ? { user, pass: pass ?? '' } : {}),
  };
}

/**
 * Connect, waiting for as long as no server answers (a line in the log every so often), and keep reconnecting
 * after; rejects with {@link NatsAuthError} when the credentials are refused.
 *
 * @example
 * const nc = await connectNats({ servers: config.HOSTS, token: config.NATS_TOKEN, name: 'mindlink core' }, log);
 */
export async function connectNats(s: NatsSettings, log: Logger): Promise<NatsConnection> {
  const shown = s.servers.map(shownServer);
  const waiting = setInterval(() => log.warn({ nats: shown }, 'NATS is not reachable yet; still trying'), 10_000);
  waiting.unref();
  let nc: NatsConnection;
  try {
    nc = await connect({ ...options(s), waitOnFirstConnect: true, maxReconnectAttempts: -1, reconnectTimeWait: 1000, pingInterval: 10_000 });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code === 'AUTHORIZATION_VIOLATION' || e.code === 'AUTHENTICATION_EXPIRED') throw new NatsAuthError(s.servers, e.message ?? e.code);
    throw new Error(`could not connect to NATS at ${shown.join(', ')}: ${e.message ?? String(err)}`);
  } finally {
    clearInterval(waiting);
  }
  log.info({ nats: shown }, 'connected to NATS');
  void watchStatus(nc, log);
  void nc.closed().then((err) => {
    // It closes on purpose (no error), or for good when the server keeps refusing it after a reconnect.
    if (err) log.error({ err, nats: shown }, 'the NATS connection closed for good');
  });
  return nc;
}

/** Log the connection's drops and returns (the client reconnects by itself). */
async function watchStatus(nc: NatsConnection, log: Logger): Promise<void> {
  for await (const s of nc.status()) {
    // `data` is the server's host:port here (the client was given no credentials in its URLs).
    if (s.type === 'disconnect') log.warn({ nats: String(s.data) }, 'lost the NATS connection; reconnecting');
    else if (s.type === 'reconnect') log.info({ nats: String(s.data) }, 'NATS connection back');
    else if (s.type === 'error') log.warn({ detail: String(s.data), ...(s.permissionContext ? { refused: s.permissionContext } : {}) }, 'NATS error');
  }
}
