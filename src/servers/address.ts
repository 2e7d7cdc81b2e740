/**
 * A server's address as typed in `/server add`: `host`, `host:port`,
 * `[v6 address]:port`; the port is 25565 unless given.
 */
import net from 'node:net';
import { UserError } from '../errors.ts';
import type { ServerAddress } from '../game/server-probe.ts';

/** Minecraft's default port. */
export const DEFAULT_PORT = 25565;

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/**
 * Read `host[:port]`. Throws UserError for anything that is not a host name or an IP address and a port.
 *
 * @example
 * parseAddress('play.example.net')     // { host: 'play.example.net', port: 25565 }
 * parseAddress('127.0.0.1:25566')      // { host: '127.0.0.1', port: 25566 }
 * parseAddress('[::1]:25570')          // { host: '::1', port: 25570 }
 */
export function parseAddress(text: string): ServerAddress {
  const t = text.trim();
  let host = t;
  let portText: string | undefined;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  if (v6) {
    host = v6[1] ?? '';
    portText = v6[2];
  } else if (!net.isIPv6(t)) {
    const i = t.lastIndexOf(':');
    if (i >= 0) {
      host = t.slice(0, i);
      portText = t.slice(i + 1);
    }
  }
  const validHost = net.isIP(host) !== 0 || HOST_NAME.test(host);
  if (!validHost) throw new UserError('bad_address', `"${t.slice(0, 80)}" is not a server address: give a host name or IP address, and a port after ":" if it is not ${DEFAULT_PORT} (play.example.net, 192.168.1.20:25566).`);
  let port = DEFAULT_PORT;
  if (portText !== undefined) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= 1 && port <= 65535)) throw new UserError('bad_address', `"${portText.slice(0, 20)}" is not a port: a port is a number from 1 to 65535.`);
  }
  return { host: host.replace(/\.$/, '').toLowerCase(), port };
}

/**
 * How an address is shown: `host:port`, with brackets around an IPv6 address.
 *
 * @example
 * formatAddress({ host: '::1', port: 25565 }) // '[::1]:25565'
 */
export function formatAddress(address: ServerAddress): string {
  return `${net.isIPv6(address.host) ? `[${address.host}]` : address.host}:${address.port}`;
}
