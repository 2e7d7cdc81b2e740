/**
 * The dashboard over plain HTTP for tests: the real core with the console bridge and the web bridge on a
 * free loopback port, fake games, and sign-in the way a page does it.
 */
import { WebBridge } from '../../bridges/web/web-bridge.ts';
import type { ChatContext } from '../../src/chat.ts';
import type { EngineProvider } from '../../src/engines/engine.ts';
import { silentLogger } from '../../src/logger.ts';
import { PeopleMcp } from '../../src/mcp/people-server.ts';
import { startConsoleCore, type ConsoleCore } from '../core/console-harness.ts';

export interface WebCore extends ConsoleCore {
  web: WebBridge;
  origin: string;
  /** The people's MCP server at `/mcp`, with `MCP: 'on'` in the env. */
  mcp: PeopleMcp | undefined;
  /** Sign in as the sender of `chat` (a link asked for there, redeemed as the login page does): the cookie header and CSRF token. */
  signIn(chat: ChatContext): Promise<Session>;
  /** Open a sign-in link as the login page does: the cookie header and CSRF token (throws when refused). */
  redeemLink(url: string): Promise<Session>;
  /** A request as the page makes it (same origin, JSON, the session's cookie and CSRF token when given). */
  request(path: string, opts?: { method?: 'GET' | 'POST'; session?: Session; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  stop(): Promise<void>;
}

export interface Session {
  cookie: string;
  csrf: string;
}

/** What else a test may choose: the engine. */
export interface WebCoreOptions {
  engines?: EngineProvider;
}

/**
 * Start the core and the dashboard on `dataDir` (its clock `now` when given; the people's MCP server too with
 * `MCP: 'on'`); the caller calls `stop()`.
 */
export async function startWebCore(dataDir: string, env: Record<string, string> = {}, now?: () => Date, opts: WebCoreOptions = {}): Promise<WebCore> {
  const con = await startConsoleCore(dataDir, { env, ...(now ? { now } : {}), ...(opts.engines ? { engines: opts.engines } : {}) });
  const mcp = env.MCP === 'on' ? new PeopleMcp({ tokens: con.core.mcpTokens, host: con.core.router, log: silentLogger() }) : undefined;
  const web = new WebBridge({ access: con.core.web, dashboard: con.core.dashboard, log: silentLogger(), host: '127.0.0.1', port: 0, ...(mcp ? { mcp } : {}) });
  await con.core.addBridge(web);
  const origin = web.origin;
  const request: WebCore['request'] = (path, opts = {}) =>
    fetch(origin + path, {
      method: opts.method ?? 'GET',
      headers: {
        ...(opts.method === 'POST' ? { 'Content-Type': 'application/json', Origin: origin } : {}),
        ...(opts.session ? { Cookie: opts.session.cookie, 'X-CSRF-Token': opts.session.csrf } : {}),
        ...opts.headers,
      },
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
  const redeemLink = async (url: string): Promise<Session> => {
    const res = await request('/api/login', { method: 'POST', body: { token: url.slice(url.indexOf('#') + 1) } });
    if (res.status !== 200) throw new Error(`sign-in refused: ${res.status} ${await res.text()}`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const me = (await (await request('/api/me', { session: { cookie, csrf: '' } })).json()) as { csrf: string };
    return { cookie, csrf: me.csrf };
  };
  return {
    ...con,
    web,
    origin,
    mcp,
    request,
    async signIn(chat) {
      return redeemLink(con.core.web.signInLink(chat));
    },
    redeemLink,
    stop: () => con.core.stop(),
  };
}

/** The console's chat (an admin). */
export const CONSOLE_CHAT: ChatContext = { platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null };
