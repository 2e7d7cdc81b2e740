/** A TCP port free on 127.0.0.1 now, for a test's server to listen on. */
import { once } from 'node:events';
import { createServer } from 'node:net';

/**
 * Ask the system for a free port and hand it back closed.
 *
 * @example
 * const port = await freePort(); // then start a server on 127.0.0.1:port
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}
