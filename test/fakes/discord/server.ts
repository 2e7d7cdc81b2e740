/**
 * The fake Discord's one HTTP server on 127.0.0.1 (port 0): REST requests
 * go to `rest.ts`, WebSocket upgrades to the gateway. Closing it ends every
 * connection, so no test leaves a socket behind.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FakeCore } from './core.ts';
import { FakeGateway } from './gateway.ts';
import { handleRest } from './rest.ts';

export interface ListeningFake {
  gateway: FakeGateway;
  port: number;
  /** Closes the gateway, every connection and the server. */
  close(): Promise<void>;
}

/** Starts the server for `core` and wires its gateway. */
export async function listen(core: FakeCore, heartbeatIntervalMs: number): Promise<ListeningFake> {
  const gateway = new FakeGateway({
    token: core.token,
    botId: core.world.bot.id,
    heartbeatIntervalMs,
    allowedPrivileged: () => core.allowedPrivileged,
    ready: (sessionId) => core.payloads.ready(sessionId, core.gatewayUrl),
    guilds: () => [...core.world.guilds.values()].map((g) => core.payloads.guildCreate(g)),
    membersChunks: (request, intents) => core.payloads.membersChunks(request, intents),
    changed: () => core.changed(),
  });
  core.gateway = gateway;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handleRest(core, req, res).catch((error: unknown) => {
      core.faults.push(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req, socket, head) => gateway.upgrade(req, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  core.gatewayUrl = `ws://127.0.0.1:${port}`;
  return {
    gateway,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        gateway.close();
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
      }),
  };
}
