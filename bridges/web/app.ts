/**
 * The dashboard's HTTP routes (Hono). Pages and the API need a session: without
 * one every page and API path answers 401 with the same body, whatever the path
 * names. POSTs carry the session's CSRF token and come from the page's own
 * origin; every response carries a strict Content-Security-Policy (scripts and
 * styles from this origin only, Trusted Types so no script can write HTML).
 * What is done on a page goes to the core as a chat would send it: commands
 * through `answerCommand`, a direction as a message (`handleMessage`). `/mcp`
 * is the people's MCP server (`src/mcp/people-server.ts`), with its own tokens.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { secureHeaders } from 'hono/secure-headers';
import { streamSSE } from 'hono/streaming';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { BridgeHost, ChatContext } from '../../src/chat.ts';
import type { Dashboard } from '../../src/dashboard.ts';
import { UserError } from '../../src/errors.ts';
import { MCP_PATH, type PeopleMcp } from '../../src/mcp/people-server.ts';
import { SESSION_TTL_MS, type NewSession, type WebAccess, type WebSession } from '../../src/web-access.ts';
import type { Assets } from './assets.ts';
import type { LivePages } from './live.ts';
import type { Replies } from './replies.ts';
import type { LiveScenes } from './scenes.ts';

/** The session cookie's name. */
export const SESSION_COOKIE = 'mindlink_session';

/** What the routes work with. */
export interface AppParts {
  access: WebAccess;
  dashboard: Dashboard;
  live: LivePages;
  scenes: LiveScenes;
  replies: Replies;
  assets: Assets;
  /** The core, once the bridge started. */
  host: () => BridgeHost | undefined;
  /** Host headers the dashboard answers to (`127.0.0.1:4780` …); null: any (it listens beyond loopback on purpose). */
  allowedHosts: () => ReadonlySet<string> | null;
  /** The people's MCP server (docs/mcp.md), when MCP=on. */
  mcp?: PeopleMcp;
  log: Logger;
}

const NOT_SIGNED_IN = 'Not signed in. Send /web to mindlink in a chat for a sign-in link.';
const AVATAR_NAME = /^[A-Za-z0-9_]{1,16}$/;
const TextBody = z.object({ text: z.string().max(10_000) });
const TokenBody = z.object({ token: z.string().min(1).max(200) });

type Env = { Variables: { session: WebSession; cookie: string } };

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The Hono app of the dashboard. */
export function createApp(parts: AppParts): Hono<Env> {
  const { access, dashboard, live, scenes, replies, assets } = parts;
  const app = new Hono<Env>();

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
        requireTrustedTypesFor: ["'script'"],
        trustedTypes: ["'none'"],
      },
      referrerPolicy: 'no-referrer',
      xFrameOptions: 'DENY',
      // Plain HTTP on loopback: a browser ignores HSTS there, so none is sent.
      strictTransportSecurity: false,
      crossOriginResourcePolicy: 'same-origin',
      crossOriginOpenerPolicy: 'same-origin',
      permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
    }),
  );
  // A page on another name that resolves here (DNS rebinding) gets nothing.
  app.use(async (c, next) => {
    const allowed = parts.allowedHosts();
    if (allowed && !allowed.has((c.req.header('host') ?? '').toLowerCase())) return c.text('Unknown host.', 421);
    c.header('Cache-Control', 'no-store');
    await next();
  });
  app.use(bodyLimit({ maxSize: 32 * 1024, onError: (c) => c.json({ error: 'That is too long.' }, 413) }));

  app.get('/assets/:file', (c) => {
    const file = assets.get(c.req.param('file'));
    if (!file) return c.text('Not found.', 404);
    return c.body(file.body, 200, { 'Content-Type': file.type });
  });
  // The people's MCP server: its own bearer tokens, no cookie, no CSRF token (no browser sends its header on its own).
  app.all(MCP_PATH, async (c) => (parts.mcp ? await parts.mcp.handle(c.req.raw) : c.json({ error: 'The MCP server is off here (MCP=off).' }, 404)));
  // The sign-in page is the page itself (it reads the token from the link); without a session it shows only that.
  app.get('/login', (c) => c.html(assets.page('index.html')));

  // Everything from here on needs a session; a POST also the page's own origin and its CSRF token.
  const sameOrigin = (c: Context): boolean => c.req.header('origin') === access.origin || c.req.header('origin') === `http://${c.req.header('host')}`;
  app.post('/api/login', async (c) => {
    if (!sameOrigin(c)) return c.json({ error: 'Sign in from the link itself.' }, 403);
    const body = TokenBody.safeParse(await c.req.json().catch(() => null));
    let made: NewSession | null = null;
    try {
      made = body.success ? access.redeem(body.data.token) : null;
    } catch (err) {
      // Every page is taken by other people's live sessions: the link stays good for a later try.
      if (err instanceof UserError) return c.json({ error: err.message }, 503);
      throw err;
    }
    if (!made) return c.json({ error: 'This sign-in link was used already or has expired. Send /web again for a new one.' }, 401);
    setCookie(c, SESSION_COOKIE, made.cookie, { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: Math.floor(SESSION_TTL_MS / 1000) });
    return c.json({ ok: true });
  });

  app.use(async (c, next) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    const session = access.session(cookie);
    if (!session || !cookie) {
      if (c.req.path.startsWith('/api/')) return c.json({ error: NOT_SIGNED_IN }, 401);
      return c.html(assets.page('index.html'), 401);
    }
    if (c.req.method === 'POST') {
      const token = c.req.header('x-csrf-token') ?? '';
      if (!sameOrigin(c) || !sameSecret(token, session.csrf)) return c.json({ error: 'This page is out of date: reload it.' }, 403);
    }
    c.set('session', session);
    c.set('cookie', cookie);
    await next();
  });

  for (const path of ['/', '/avatar/:name', '/avatar/:name/world']) app.get(path, (c) => c.html(assets.page('index.html')));

  app.get('/api/me', (c) => {
    const s = c.get('session');
    return c.json({ name: s.chat.fromName, from: s.chat.platform, csrf: s.csrf });
  });
  app.post('/api/logout', (c) => {
    access.end(c.get('cookie'));
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.json({ ok: true });
  });

  const viewer = (c: Context<Env>, messageId = randomUUID()): ChatContext => access.chatOf(c.get('session'), messageId);
  const avatarName = (c: Context): string | null => {
    const name = c.req.param('name') ?? '';
    return AVATAR_NAME.test(name) ? name : null;
  };

  app.get('/api/rows', (c) => c.json(dashboard.rows(viewer(c))));
  // An avatar the viewer may not see gets the chat's own words (which name nothing they may not know).
  app.get('/api/avatars/:name', async (c) => {
    const name = avatarName(c);
    return name ? c.json(await dashboard.details(viewer(c), name)) : c.json({ error: 'No such avatar.' }, 404);
  });
  app.get('/api/avatars/:name/world', (c) => {
    const name = avatarName(c);
    return name ? c.json(dashboard.world(viewer(c), name)) : c.json({ error: 'No such avatar.' }, 404);
  });
  app.onError((err, c) => {
    if (err instanceof UserError) return c.json({ error: err.message }, 404);
    parts.log.error({ err, path: c.req.path }, 'web: a request failed');
    return c.json({ error: 'Something went wrong; the log says what.' }, 500);
  });

  /** An SSE stream for the page's session: `open` starts what feeds it and returns what ends it. */
  const stream = <E extends { event: string; data: string }>(c: Context<Env>, open: (send: (e: E) => void, close: () => void) => () => void): Response =>
    streamSSE(c, async (sse) => {
      let ended = false;
      let wake: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (wake = resolve));
      // Events go out in order; closing waits for those already sent (a page signed out is told so before the end).
      let written: Promise<void> = Promise.resolve();
      const end = open(
        (e) => {
          if (!ended) written = written.then(() => sse.writeSSE(e)).catch(() => wake());
        },
        () => void written.then(() => wake()),
      );
      sse.onAbort(() => wake());
      await closed;
      ended = true;
      end();
    });

  app.get('/api/events', (c) => {
    const session = c.get('session');
    const cookie = c.get('cookie');
    const avatar = c.req.query('avatar');
    return stream(c, (send, close) =>
      live.add({
        viewer: viewer(c),
        dest: session.dest,
        avatar: avatar && AVATAR_NAME.test(avatar) ? avatar : null,
        world: c.req.query('world') === '1',
        valid: () => access.session(cookie) !== undefined,
        send,
        close,
      }),
    );
  });
  // The 3D view: its own stream, so that nothing is read for it unless a page shows it.
  app.get('/api/avatars/:name/scene', (c) => {
    const name = avatarName(c);
    if (!name) return c.json({ error: 'No such avatar.' }, 404);
    const cookie = c.get('cookie');
    return stream(c, (send, close) => scenes.add({ viewer: viewer(c), dest: c.get('session').dest, avatar: name, valid: () => access.session(cookie) !== undefined, send, close }));
  });

  /** Run a command as the page's viewer; the chat's own answer, refusals included. */
  const command = async (c: Context<Env>, name: string, options: Record<string, unknown> = {}): Promise<Response> => {
    const host = parts.host();
    const avatar = avatarName(c);
    if (!avatar) return c.json({ error: 'No such avatar.' }, 404);
    if (!host) return c.json({ error: 'mindlink is starting or stopping; try again in a moment.' }, 503);
    const answer = await host.answerCommand({ ...viewer(c), name, options: { ...options, avatar } });
    return c.json({ avatar: answer.avatar, text: answer.text, refused: answer.refused });
  };
  app.post('/api/avatars/:name/play', (c) => command(c, 'play'));
  app.post('/api/avatars/:name/stop', (c) => command(c, 'stop'));
  app.post('/api/avatars/:name/goal', async (c) => {
    const body = TextBody.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'Say what the goal is.' }, 400);
    return command(c, 'goal', { text: body.data.text });
  });
  // A direction is a chat message to the avatar, classified as chat classifies it; its reply comes to the page.
  app.post('/api/avatars/:name/direction', async (c) => {
    const host = parts.host();
    const avatar = avatarName(c);
    if (!avatar) return c.json({ error: 'No such avatar.' }, 404);
    if (!host) return c.json({ error: 'mindlink is starting or stopping; try again in a moment.' }, 503);
    const body = TextBody.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json({ error: 'Say what the direction is.' }, 400);
    const messageId = randomUUID();
    const answered = replies.wait(messageId);
    await host.handleMessage({ ...viewer(c, messageId), text: `${avatar}: ${body.data.text}` });
    const reply = await answered;
    return c.json({ messageId, id: reply?.id ?? null, avatar: reply?.avatar ?? null, text: reply?.text ?? null });
  });

  app.notFound((c) => (c.req.path.startsWith('/api/') ? c.json({ error: 'Not found.' }, 404) : c.html(assets.page('index.html'), 404)));
  return app;
}
