/**
 * What `src/main.ts` needs of NATS before anything is connected, without
 * loading the NATS client: the credentials to keep out of the logs, the
 * servers as logs show them, and the error of refused credentials
 * (docs/many-machines.md). The connection itself is `connect.ts`.
 */

/** How to reach the NATS servers, credentials apart. */
export interface NatsSettings {
  /** `nats://host:port` (with credentials in it or not). */
  servers: string[];
  token?: string | undefined;
  user?: string | undefined;
  pass?: string | undefined;
  /** The connection's name on the server (`mindlink core`, `mindlink host a`). */
  name: string;
}

/** A server URL without its credentials, for logs and errors. */
export function shownServer(server: string): string {
  try {
    const u = new URL(server);
    return `${u.protocol}//${u.host}`;
  } catch {
    // Not a URL (config refuses these): nothing of it is shown.
    return '(a NATS server)';
  }
}

/** The credentials of the settings, those in the URLs included (to register with the logger as secrets). */
export function natsSecrets(s: Pick<NatsSettings, 'servers' | 'token' | 'pass'>): string[] {
  const inUrls = s.servers.flatMap((server) => {
    const u = new URL(server);
    return [decodeURIComponent(u.username), decodeURIComponent(u.password)].filter(Boolean);
  });
  return [s.token, s.pass, ...inUrls].filter((v): v is string => !!v);
}

/** A NATS server that refused the connection's credentials. */
export class NatsAuthError extends Error {
  constructor(servers: string[], detail: string) {
    super(`the NATS server ${servers.map(shownServer).join(', ')} refused the credentials (${detail}): check NATS_TOKEN, or NATS_USER and NATS_PASS`);
    this.name = 'NatsAuthError';
  }
}
