/**
 * The web bridge: the owner's dashboard (docs/dashboard.md), served by
 * mindlink itself with Hono on Node's HTTP server, on loopback unless
 * WEB_HOST says otherwise. What a person does on a page reaches the core as a
 * chat message or command would; posts to a page's destination (`web:<id>`)
 * reach that page. It decides nothing about rights or goals: what a page
 * shows comes from the core's read model (`src/dashboard.ts`).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import type { Logger } from 'pino';
import type { Bridge, BridgeHost, DeliveryOutcome } from '../../src/chat.ts';
import type { Dashboard } from '../../src/dashboard.ts';
import type { PeopleMcp } from '../../src/mcp/people-server.ts';
import type { Post } from '../../src/store/schema.ts';
import type { WebAccess } from '../../src/web-access.ts';
import { createApp } from './app.ts';
import { Assets } from './assets.ts';
import { LivePages } from './live.ts';
import { Replies } from './replies.ts';
import { LiveScenes } from './scenes.ts';

/** The port used when WEB_PORT is not set (a free one when it is taken). */
export const DEFAULT_WEB_PORT = 4780;

/** How to start the dashboard. */
export interface WebBridgeOptions {
  access: WebAccess;
  dashboard: Dashboard;
  log: Logger;
  /** WEB_HOST */
  host: string;
  /** WEB_PORT; undefined: {@link DEFAULT_WEB_PORT}, or a free port when that one is taken. */
  port: number | undefined;
  /** The people's MCP server, served at `/mcp` (MCP=on). */
  mcp?: PeopleMcp;
}

/** The dashboard's port is taken (WEB_PORT set to a port another program holds). */
export class WebPortInUseError extends Error {
  constructor(readonly port: number) {
    super(`WEB_PORT=${port} is in use by another program: set WEB_PORT to a free port (0 picks one), or WEB=off`);
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (err: Error): void => reject(err);
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * @example
 * const web = new WebBridge({ access: core.web, dashboard: core.dashboard, log, host: '127.0.0.1', port: undefined });
 * await core.addBridge(web);
 * web.origin; // 'http://127.0.0.1:4780'
 */
export class WebBridge implements Bridge {
  readonly platform = 'web' as const;
  readonly maxMessageLength = 100_000;
  private readonly live: LivePages;
  /** The open 3D views. */
  readonly scenes: LiveScenes;
  private readonly replies = new Replies();
  private readonly server: Server;
  private core: BridgeHost | undefined;
  private port = 0;

  constructor(private readonly opts: WebBridgeOptions) {
    this.live = new LivePages(opts.dashboard, opts.log);
    this.scenes = new LiveScenes(opts.dashboard, opts.log);
    const app = createApp({
      access: opts.access,
      dashboard: opts.dashboard,
      live: this.live,
      scenes: this.scenes,
      replies: this.replies,
      assets: Assets.load(),
      host: () => this.core,
      allowedHosts: () => this.allowedHosts(),
      ...(opts.mcp ? { mcp: opts.mcp } : {}),
      log: opts.log,
    });
    this.server = createAdaptorServer({ fetch: app.fetch }) as Server;
  }

  /** Where the dashboard listens (`http://127.0.0.1:4780`). */
  get origin(): string {
    const { host } = this.opts;
    const name = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    return `http://${name}:${this.port}`;
  }

  async start(core: BridgeHost): Promise<void> {
    const { host, port, log } = this.opts;
    try {
      this.port = await listen(this.server, port ?? DEFAULT_WEB_PORT, host);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      if (port !== undefined) throw new WebPortInUseError(port);
      this.port = await listen(this.server, 0, host);
      log.warn({ port: this.port }, `web: port ${DEFAULT_WEB_PORT} is taken; the dashboard uses a free one (WEB_PORT sets one)`);
    }
    this.core = core;
    this.opts.access.listening(this.origin);
    this.opts.mcp?.listening(this.origin);
    log.info({ url: this.origin }, 'web: dashboard ready; /web in a chat gives a sign-in link');
    if (this.opts.mcp) log.info({ url: `${this.origin}/mcp` }, 'web: MCP server ready; /mcp new in a direct message gives a token');
  }

  async stop(): Promise<void> {
    this.core = undefined;
    this.opts.access.listening(null);
    this.opts.mcp?.listening(null);
    this.replies.release();
    this.live.closeAll();
    this.scenes.closeAll();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  async deliver(post: Post, parts: string[]): Promise<DeliveryOutcome> {
    // A page nobody has any more (signed out, or mindlink restarted since) cannot get it; nothing else is wrong.
    if (!this.opts.access.hasPage(post.dest)) return { ok: false, retry: false, reason: 'the page was closed', keepLink: true };
    const reply = { id: post.id, avatar: post.avatar, text: parts.join('\n') };
    this.replies.delivered(post.replyTo, reply);
    this.live.reply(post.dest, { ...reply, replyTo: post.replyTo });
    return { ok: true, messageIds: [post.id] };
  }

  /** The Host headers a request may carry: this port on loopback names and WEB_HOST; null when WEB_HOST is every address. */
  private allowedHosts(): ReadonlySet<string> | null {
    const { host } = this.opts;
    if (host === '0.0.0.0' || host === '::') return null;
    const names = new Set([...LOOPBACK, host.toLowerCase()]);
    return new Set([...names].map((n) => (n.includes(':') ? `[${n}]:${this.port}` : `${n}:${this.port}`)));
  }
}
