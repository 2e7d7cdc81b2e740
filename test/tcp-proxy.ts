/**
 * A TCP proxy for a test, on a free 127.0.0.1 port in front of a real server
 * (nats-server, PostgreSQL), to cut one client's network while the others
 * keep theirs: `cut('reset')` drops every connection through it and refuses
 * new ones (the client sees them fail at once), `cut('silent')` lets nothing
 * through either way and answers nothing (the client waits, as behind a
 * network that drops packets); `mend()` lets new connections through again
 * (the silent ones are dropped then: the client opens new ones).
 */
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';

/** A running proxy. */
export interface TestProxy {
  /** The port to connect to instead of the server's. */
  port: number;
  /** How it is cut now (`null`: it is not). */
  readonly cutAs: 'reset' | 'silent' | null;
  cut(how?: 'reset' | 'silent'): void;
  mend(): void;
  close(): Promise<void>;
}

/**
 * @example
 * const proxy = await startProxy(nats.port);
 * // the client connects to nats://127.0.0.1:${proxy.port}
 * proxy.cut();   // its connection is lost
 * proxy.mend();  // it reconnects
 * await proxy.close();
 */
export async function startProxy(targetPort: number): Promise<TestProxy> {
  let cutAs: 'reset' | 'silent' | null = null;
  const pairs = new Set<[Socket, Socket]>();
  /** Connections held without an answer while cut silently. */
  const held = new Set<Socket>();
  const server = createServer((client) => {
    client.on('error', () => client.destroy());
    if (cutAs === 'reset') {
      client.destroy();
      return;
    }
    if (cutAs === 'silent') {
      held.add(client);
      client.on('data', () => undefined);
      client.on('close', () => held.delete(client));
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    upstream.on('error', () => client.destroy());
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const dropAll = (): void => {
    for (const [client, upstream] of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
    for (const socket of [...held]) socket.destroy();
  };
  return {
    port,
    get cutAs() {
      return cutAs;
    },
    cut(how = 'reset') {
      cutAs = how;
      if (how === 'reset') {
        dropAll();
        return;
      }
      // Silent: the connections stay open, and whatever is sent either way is dropped.
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.removeAllListeners('data');
        upstream.removeAllListeners('data');
        client.on('data', () => undefined);
        upstream.on('data', () => undefined);
        held.add(client);
        held.add(upstream);
      }
      pairs.clear();
    },
    mend() {
      cutAs = null;
      for (const socket of [...held]) socket.destroy();
      held.clear();
    },
    async close() {
      cutAs = 'reset';
      dropAll();
      server.close();
      await once(server, 'close');
    },
  };
}
