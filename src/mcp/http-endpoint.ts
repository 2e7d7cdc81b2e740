/**
 * Serving an MCP server over Streamable HTTP (stateless: each request gets
 * a fresh SDK server and transport, so nothing is kept between calls), and
 * {@link McpEndpoint}: one such server on 127.0.0.1, on a free port, that
 * answers only requests bearing its secret. An agent engine starts one per
 * CLI run and closes it when the run ends: the secret dies with the run,
 * and closing it aborts any tool call still running.
 */
import { randomBytes, createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from 'pino';
import { createMcpServer, type McpServerSpec } from './tool-server.ts';

/** The secret a request bears (`Authorization: Bearer …`), or undefined. */
export function bearerOf(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/**
 * Whether `given` is `expected`, compared in constant time (hashes of equal length, so neither length nor
 * content leaks through timing).
 *
 * @example
 * secretMatches(bearerOf(req), endpoint.secret) // → true for the run's own CLI
 */
export function secretMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined || expected === '') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Answer one Streamable HTTP request with a fresh server for `spec` (stateless mode). When the response
 * closes (answered, or the client went away), the server closes, which aborts its running tool calls.
 *
 * @example
 * http.createServer((req, res) => void serveMcpRequest(req, res, spec, log));
 */
export async function serveMcpRequest(req: IncomingMessage, res: ServerResponse, spec: McpServerSpec, log: Logger): Promise<void> {
  const server = createMcpServer(spec);
  // No session id generator: stateless, each request stands alone.
  const transport = new StreamableHTTPServerTransport({});
  res.on('close', () => {
    void transport.close().catch((err: unknown) => log.debug({ err }, 'closing an MCP transport failed'));
    void server.close().catch((err: unknown) => log.debug({ err }, 'closing an MCP server failed'));
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (err) {
    log.warn({ err }, 'an MCP request failed');
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
    }
  }
}

/** The path an {@link McpEndpoint} serves. */
export const MCP_PATH = '/mcp';

/**
 * One MCP server on 127.0.0.1 behind a secret of its own.
 *
 * @example
 * const endpoint = await McpEndpoint.start(spec, log);
 * // the CLI is told endpoint.url and sends `Authorization: Bearer ${endpoint.secret}`
 * await endpoint.close();
 */
export class McpEndpoint {
  private constructor(
    private readonly http: HttpServer,
    /** `http://127.0.0.1:<port>/mcp` */
    readonly url: string,
    /** 256 random bits, hex. */
    readonly secret: string,
  ) {}

  /** Listen on a free port of 127.0.0.1. */
  static async start(spec: McpServerSpec, log: Logger): Promise<McpEndpoint> {
    const secret = randomBytes(32).toString('hex');
    const http = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== MCP_PATH) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      if (!secretMatches(bearerOf(req), secret)) {
        log.warn({ method: req.method }, 'an MCP request without the run secret was refused');
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
        res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'unauthorized' }, id: null }));
        return;
      }
      void serveMcpRequest(req, res, spec, log);
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
    const { port } = http.address() as AddressInfo;
    return new McpEndpoint(http, `http://127.0.0.1:${port}${MCP_PATH}`, secret);
  }

  /** Stop listening and drop every open connection (their running tool calls are aborted). */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }
}
