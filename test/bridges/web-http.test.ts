/**
 * The dashboard's HTTP side on the real core: who gets in, what each person may see and do (the same
 * rights as chat, seen from the chat the sign-in link was asked in), CSRF, the security headers, and what
 * a page does reaching the core as a chat message would.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/chat.ts';
import { STRANGER_REFUSAL } from '../../src/people/people.ts';
import { CONSOLE_CHAT, startWebCore, type Session, type WebCore } from './web-helpers.ts';

const watcherGroup: ChatContext = { platform: 'telegram', from: 'telegram:43', fromName: 'Wes', dest: 'telegram:-500', chatKind: 'group', messageId: null };
const stranger: ChatContext = { platform: 'telegram', from: 'telegram:44', fromName: 'Sam', dest: 'telegram:44', chatKind: 'private', messageId: null };

/** Every page and API path of the dashboard, naming an avatar that exists and one that does not. */
const PAGES = ['/', '/avatar/demo', '/avatar/demo/world', '/avatar/nobody', '/avatar/nobody/world', '/no/such/page'];
const API_GETS = ['/api/me', '/api/rows', '/api/avatars/demo', '/api/avatars/demo/world', '/api/avatars/nobody', '/api/events', '/api/events?avatar=demo&world=1', '/api/avatars/demo/scene', '/api/avatars/nobody/scene'];
const API_POSTS = ['/api/logout', '/api/avatars/demo/play', '/api/avatars/demo/stop', '/api/avatars/demo/goal', '/api/avatars/demo/direction', '/api/avatars/nobody/stop'];

describe('the dashboard over HTTP', () => {
  let dir = '';
  let w: WebCore;
  let admin: Session;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-http-'));
    w = await startWebCore(dir);
    await w.line(/^\[demo\] New goal \(my choice\): explore/);
    w.core.people.ensurePerson('telegram:43', 'Wes');
    w.core.links.link('demo', 'telegram:-500', 'watch');
    admin = await w.signIn(CONSOLE_CHAT);
  }, 60_000);

  afterAll(async () => {
    await w?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN no session THEN every page and API path answers 401 with one body that names nothing', async () => {
    const bodies = new Set<string>();
    for (const path of PAGES) {
      const res = await w.request(path);
      expect(res.status, path).toBe(401);
      bodies.add(`page ${await res.text()}`);
    }
    for (const path of API_GETS) {
      const res = await w.request(path);
      expect(res.status, path).toBe(401);
      bodies.add(`api ${await res.text()}`);
    }
    for (const path of API_POSTS) {
      const res = await w.request(path, { method: 'POST', body: { text: 'stop' } });
      expect(res.status, path).toBe(401);
      bodies.add(`api ${await res.text()}`);
    }
    expect([...bodies]).toHaveLength(2);
    for (const body of bodies) expect(body).not.toMatch(/demo|nobody|explore/);
    // A made-up cookie is no session either.
    expect((await w.request('/api/rows', { session: { cookie: 'mindlink_session=forged', csrf: 'x' } })).status).toBe(401);
    expect(w.core.avatars.isPlaying('demo')).toBe(true);
  });

  it('GIVEN any answer THEN it carries a strict Content-Security-Policy and is not cached or framed', async () => {
    for (const res of [await w.request('/'), await w.request('/login'), await w.request('/api/rows', { session: admin }), await w.request('/assets/app.js')]) {
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("require-trusted-types-for 'script'");
      expect(csp).not.toContain('unsafe');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('GIVEN a request under another host name (DNS rebinding) THEN it gets nothing', async () => {
    // fetch may not set Host; a plain HTTP request can, as a rebinding page's browser does.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const url = new URL(`${w.origin}/api/rows`);
      request({ host: url.hostname, port: url.port, path: url.pathname, headers: { Host: `evil.example:${url.port}`, Cookie: admin.cookie } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(421);
  });

  it('GIVEN a POST without the CSRF token or from another origin THEN it is refused and nothing changes', async () => {
    const noToken = await w.request('/api/avatars/demo/goal', { method: 'POST', session: { ...admin, csrf: '' }, body: { text: 'collect 1 dirt' } });
    expect(noToken.status).toBe(403);
    const wrongToken = await w.request('/api/avatars/demo/stop', { method: 'POST', session: { ...admin, csrf: `${admin.csrf.slice(1)}x` } });
    expect(wrongToken.status).toBe(403);
    const elsewhere = await w.request('/api/avatars/demo/stop', { method: 'POST', session: admin, headers: { Origin: 'http://evil.example' } });
    expect(elsewhere.status).toBe(403);
    const login = await w.request('/api/login', { method: 'POST', body: { token: 'x' }, headers: { Origin: 'http://evil.example' } });
    expect(login.status).toBe(403);
    expect(w.core.avatars.isPlaying('demo')).toBe(true);
    expect(w.core.avatars.get('demo')?.goal?.text).toBe('explore');
  });

  it('GIVEN the admin signed in from the console THEN the row shows demo, its goal and who chose it, and the details show its notes', async () => {
    const rows = (await (await w.request('/api/rows', { session: admin })).json()) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'demo', state: 'working', status: 'working', goal: { line: 'explore', text: 'explore', by: 'Chosen by the avatar' }, mayControl: true, engine: 'scripted' });
    const details = (await (await w.request('/api/avatars/demo', { session: admin })).json()) as Record<string, unknown>;
    expect(details.notes).toContain('## Goal');
    expect(details.thoughts).toEqual(expect.any(Array));
    expect(details.news).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'new_goal', text: 'New goal (my choice): explore' })]));
    expect(details.schedules).toEqual([]);
  });

  it('GIVEN a Telegram member of a chat that watches demo THEN the page shows demo but not what only its controllers see, and Stop is refused in chat’s words', async () => {
    const watcher = await w.signIn(watcherGroup);
    const rows = (await (await w.request('/api/rows', { session: watcher })).json()) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.name, r.mayControl])).toEqual([['demo', false]]);
    const details = (await (await w.request('/api/avatars/demo', { session: watcher })).json()) as Record<string, unknown>;
    expect(details).toMatchObject({ name: 'demo', thoughts: null, notes: null, usage: null, schedules: null });
    const stop = await w.request('/api/avatars/demo/stop', { method: 'POST', session: watcher });
    expect(await stop.json()).toEqual({ avatar: 'demo', text: "You can't control demo: ask its owner.", refused: true });
    expect(w.core.avatars.isPlaying('demo')).toBe(true);
    // Unlinked there, the same page sees nothing any more.
    w.core.links.unlink('demo', 'telegram:-500');
    expect(await (await w.request('/api/rows', { session: watcher })).json()).toEqual([]);
    w.core.links.link('demo', 'telegram:-500', 'watch');
  });

  it('GIVEN someone who may see no avatar THEN the page lists none and an avatar’s path tells them nothing about it', async () => {
    const session = await w.signIn(stranger);
    expect(await (await w.request('/api/rows', { session })).json()).toEqual([]);
    for (const name of ['demo', 'nobody']) {
      const res = await w.request(`/api/avatars/${name}`, { session });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: STRANGER_REFUSAL });
    }
  });

  it('GIVEN the admin sends a direction from the page THEN it is stored as from chat and the page gets the chat’s reply', async () => {
    const res = await w.request('/api/avatars/demo/direction', { method: 'POST', session: admin, body: { text: 'stay near the river' } });
    expect(await res.json()).toMatchObject({ avatar: 'demo', text: 'Noted as direction #1.' });
    expect(w.core.avatars.get('demo')?.directions.open.map((d) => d.text)).toEqual(['stay near the river']);
  });

  it('GIVEN the admin sets a goal from the page THEN it is acknowledged there and on the console the page was opened from', async () => {
    const res = await w.request('/api/avatars/demo/goal', { method: 'POST', session: admin, body: { text: 'go to 5 64 5' } });
    expect(await res.json()).toEqual({ avatar: 'demo', text: 'New goal from console: go to 5 64 5.', refused: false });
    await w.line(/^\[demo\] New goal from console: go to 5 64 5\.$/);
    expect(w.core.avatars.get('demo')?.goal?.text).toBe('go to 5 64 5');
  });

  it('GIVEN odd requests from a signed-in page THEN each gets a plain refusal and nothing changes', async () => {
    const before = JSON.stringify(w.core.avatars.get('demo'));
    const weird = await w.request('/api/avatars/..%2F..%2Fstate/stop', { method: 'POST', session: admin });
    expect(weird.status).toBe(404);
    expect((await w.request('/api/avatars/demo/goal', { method: 'POST', session: admin, body: ['collect 1 dirt'] })).status).toBe(400);
    expect((await w.request('/api/avatars/demo/goal', { method: 'POST', session: admin, body: { text: 'x'.repeat(40_000) } })).status).toBe(413);
    const tooLong = await w.request('/api/avatars/demo/goal', { method: 'POST', session: admin, body: { text: 'x'.repeat(2001) } });
    expect(await tooLong.json()).toMatchObject({ refused: true, text: expect.stringMatching(/2000 characters/) });
    expect(JSON.stringify(w.core.avatars.get('demo'))).toBe(before);
  });

  it('GIVEN a page that signed out THEN its cookie no longer works and a post to it is dropped, not kept', async () => {
    const session = await w.signIn(CONSOLE_CHAT);
    expect((await w.request('/api/logout', { method: 'POST', session })).status).toBe(200);
    expect((await w.request('/api/rows', { session })).status).toBe(401);
    const outcome = await w.web.deliver({ id: 'p9', dest: 'web:gone', avatar: null, text: 'hi', ping: null, replyTo: null, kind: 'info', createdAt: '', attempts: 0, notBefore: 0 }, ['hi']);
    expect(outcome).toMatchObject({ ok: false, retry: false, keepLink: true });
  });
});
