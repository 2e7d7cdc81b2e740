/**
 * What a dashboard page shows, by who looks: a server's name for everyone, its address for admins only
 * (as `/servers`); an avatar's "Latest" lines include the replies that tell a change made to it (a goal
 * set, /play, /stop), wherever it was made.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/chat.ts';
import { CONSOLE_CHAT, startWebCore, type Session, type WebCore } from './web-helpers.ts';
import { filesOf } from '../../src/store/files.ts';

/** A member of a Telegram group that only watches what is linked there. */
const watcherGroup: ChatContext = { platform: 'telegram', from: 'telegram:43', fromName: 'Wes', dest: 'telegram:-500', chatKind: 'group', messageId: null };

describe('what the dashboard shows to whom', () => {
  let dir = '';
  let w: WebCore;
  let admin: Session;
  let watcher: Session;

  const rows = async (session: Session): Promise<Array<{ name: string; server: string }>> => (await (await w.request('/api/rows', { session })).json()) as Array<{ name: string; server: string }>;
  const news = async (session: Session, name = 'demo'): Promise<string[]> =>
    ((await (await w.request(`/api/avatars/${name}`, { session })).json()) as { news: { text: string }[] }).news.map((n) => n.text);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-shown-'));
    w = await startWebCore(dir);
    await w.line(/^\[demo\] New goal \(my choice\): explore/);
    // `/server add` pings a real server; the games here are stand-ins, so the entry is stored as it would be.
    filesOf(w.core.store).state.update((s) => s.servers.push({ id: 'survival', host: '127.0.0.1', port: 25601, version: '1.21.1', auth: 'offline' }));
    w.send('/avatar create zed survival');
    await w.line(/^\[zed\] Created zed on survival/);
    w.core.people.ensurePerson('telegram:43', 'Wes');
    w.core.links.link('demo', 'telegram:-500', 'watch');
    w.core.links.link('zed', 'telegram:-500', 'watch');
    admin = await w.signIn(CONSOLE_CHAT);
    watcher = await w.signIn(watcherGroup);
  }, 60_000);

  afterAll(async () => {
    await w?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN an avatar on an external server THEN a watcher sees the server’s name and version, never its address; an admin sees the address too', async () => {
    expect((await rows(watcher)).map((r) => [r.name, r.server])).toEqual([
      ['demo', 'embedded (1.21.4)'],
      ['zed', 'survival (1.21.1)'],
    ]);
    for (const path of ['/api/rows', '/api/avatars/zed', '/api/avatars/zed/world']) {
      const body = await (await w.request(path, { session: watcher })).text();
      expect(body, path).not.toMatch(/127\.0\.0\.1|25601/);
    }
    expect((await rows(admin)).map((r) => [r.name, r.server])).toEqual([
      ['demo', 'embedded (1.21.4)'],
      ['zed', 'survival · 127.0.0.1:25601 (1.21.1)'],
    ]);
  });

  it('GIVEN a goal set on the console, a stop and a play THEN demo’s Latest shows those lines, to the admin and to a watcher', async () => {
    w.send('demo: Goal: collect 3 oak logs');
    await w.line(/^\[demo\] New goal from console: collect 3 oak logs\.$/);
    w.send('/stop demo');
    await w.line(/^\[demo\] Stopped\. My goal is kept/);
    w.send('/stop demo');
    await w.line(/^\[demo\] Already stopped\./);
    w.send('/play demo');
    await w.line(/^\[demo\] Playing\. Resuming my goal: collect 3 oak logs$/);
    const lines = ['New goal from console: collect 3 oak logs.', 'Stopped. My goal is kept: /play resumes it.', 'Playing. Resuming my goal: collect 3 oak logs'];
    // The loop's own lines (`Stuck on …`) may come in between; a reply that changed nothing is not news.
    for (const session of [admin, watcher]) {
      const latest = await news(session);
      expect(latest.filter((l) => lines.includes(l))).toEqual(lines);
      expect(latest).not.toContain('Already stopped. /play starts me again.');
    }
    expect(await news(admin, 'zed')).toEqual([]);
  });

  it('GIVEN a goal set from the page and a refused stop THEN Latest shows the goal, not the refusal', async () => {
    const res = await w.request('/api/avatars/demo/goal', { method: 'POST', session: admin, body: { text: 'go to 5 64 5' } });
    expect(await res.json()).toMatchObject({ refused: false });
    const refused = await w.request('/api/avatars/demo/stop', { method: 'POST', session: watcher });
    expect(await refused.json()).toMatchObject({ refused: true });
    const latest = await news(admin);
    expect(latest.at(-1)).toBe('New goal from console: go to 5 64 5.');
    expect(latest.filter((l) => /can't control|Stopped/.test(l))).toEqual(['Stopped. My goal is kept: /play resumes it.']);
  });
});
