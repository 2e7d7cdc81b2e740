/**
 * The 3D view's stream over HTTP, on the real core and dashboard with stand-in games: nothing is asked of
 * an avatar's game until a page opens its 3D view, and nothing after it closes; what it sends is decided by
 * the page's own rights (as the world view); blocks go once, then only what changed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlocksMessage } from '../../bridges/web/block-feed.ts';
import { SCENES_PER_SESSION } from '../../bridges/web/scenes.ts';
import type { ChatContext } from '../../src/chat.ts';
import { waitFor } from '../game/helpers.ts';
import { CONSOLE_CHAT, startWebCore, type Session, type WebCore } from './web-helpers.ts';

/** A member of a Telegram group that only watches what is linked there. */
const watcherGroup: ChatContext = { platform: 'telegram', from: 'telegram:43', fromName: 'Wes', dest: 'telegram:-500', chatKind: 'group', messageId: null };
/** Someone in a group nothing is linked to. */
const stranger: ChatContext = { platform: 'telegram', from: 'telegram:44', fromName: 'Sam', dest: 'telegram:-600', chatKind: 'group', messageId: null };

/** An open 3D stream, read event by event. */
interface Stream {
  next(event: string): Promise<unknown>;
  /** Every event read so far, in order. */
  seen: { event: string; data: string }[];
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

async function openScene(w: WebCore, session: Session, avatar = 'demo'): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${w.origin}/api/avatars/${avatar}/scene`, { headers: { Cookie: session.cookie }, signal: controller.signal });
  if (res.status !== 200) throw new Error(`the 3D stream answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const seen: Stream['seen'] = [];
  const waiting: { event: string; resolve: (data: unknown) => void }[] = [];
  let buffer = '';
  const ended = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
        seen.push({ event, data });
        for (const wt of [...waiting]) {
          if (wt.event === event) {
            waiting.splice(waiting.indexOf(wt), 1);
            wt.resolve(JSON.parse(data));
          }
        }
      }
    }
  })();
  let read = 0;
  return {
    seen,
    ended,
    next(event) {
      const i = seen.findIndex((e, n) => n >= read && e.event === event);
      if (i >= 0) {
        read = i + 1;
        return Promise.resolve(JSON.parse(seen[i]?.data ?? 'null'));
      }
      return new Promise((resolve) =>
        waiting.push({
          event,
          resolve: (data) => {
            read = seen.length;
            resolve(data);
          },
        }),
      );
    },
    close: () => controller.abort(),
  };
}

describe('the 3D view’s stream', () => {
  let dir = '';
  let w: WebCore;
  let admin: Session;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-scene-'));
    w = await startWebCore(dir);
    await w.line(/^\[demo\] New goal \(my choice\): explore/);
    w.core.people.ensurePerson('telegram:43', 'Wes');
    w.core.people.ensurePerson('telegram:44', 'Sam');
    w.core.links.link('demo', 'telegram:-500', 'watch');
    admin = await w.signIn(CONSOLE_CHAT);
  }, 60_000);

  afterAll(async () => {
    await w?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN no 3D view open THEN the game is never asked; WHEN one opens THEN it gets the pose and every block, and WHEN it closes THEN the asking stops', async () => {
    const demo = w.games.get('demo')!;
    // The page itself and its other streams ask nothing of the 3D kind.
    expect((await w.request('/api/avatars/demo/world', { session: admin })).status).toBe(200);
    expect(demo.sceneCalls).toBe(0);

    const view = await openScene(w, admin);
    expect(await view.next('pose')).toEqual({ name: 'demo', pose: { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0 }, entities: [] });
    expect(await view.next('blocks')).toEqual({ seq: 1, full: true, palette: ['grass_block'], set: [0, 63, 0, 0], clear: [] });
    expect(demo.blockCalls).toBeGreaterThan(0);

    view.close();
    await waitFor(() => w.web.scenes.size === 0 && w.web.scenes.watched === 0, 10_000, 'the closed view to be dropped');
    const asked = demo.sceneCalls;
    // Another avatar's view runs its own rounds; demo is asked nothing more.
    w.send('/avatar create zed');
    await w.line(/^\[zed\] Created zed/);
    w.send('/play zed');
    await waitFor(() => w.games.get('zed')?.state === 'connected', 10_000, 'zed in the game');
    const other = await openScene(w, admin, 'zed');
    await other.next('pose');
    await waitFor(() => (w.games.get('zed')?.sceneCalls ?? 0) >= 5, 10_000, 'five rounds of zed’s view');
    expect(demo.sceneCalls).toBe(asked);
    other.close();
    await waitFor(() => w.web.scenes.size === 0, 10_000, 'zed’s view to be dropped');
  });

  it('GIVEN a new reading with a block placed and one dug THEN the open view gets just those two', async () => {
    const demo = w.games.get('demo')!;
    const view = await openScene(w, admin);
    await view.next('blocks');
    demo.view = {
      ...demo.view,
      blocks: { takenAt: 2, from: { x: -16, y: 48, z: -16 }, to: { x: 16, y: 80, z: 16 }, palette: ['stone', 'grass_block'], blocks: [1, 63, 0, 1, 2, 64, 2, 0] },
    };
    const diff = (await view.next('blocks')) as BlocksMessage;
    expect(diff).toEqual({ seq: 2, full: false, palette: ['grass_block', 'stone'], set: [1, 63, 0, 0, 2, 64, 2, 1], clear: [0, 63, 0] });
    // A page opened now gets all of them at once, in the same palette.
    const late = await openScene(w, admin);
    expect(await late.next('blocks')).toEqual({ seq: 2, full: true, palette: ['grass_block', 'stone'], set: [1, 63, 0, 0, 2, 64, 2, 1], clear: [] });
    view.close();
    late.close();
    await waitFor(() => w.web.scenes.size === 0, 10_000, 'the views to be dropped');
  });

  it('GIVEN a watcher of a linked chat and a stranger THEN the watcher sees demo in 3D until unlinked, the stranger gets the chat’s refusal and no pose, and nobody without a session gets anything', async () => {
    const watcher = await openScene(w, await w.signIn(watcherGroup));
    expect(await watcher.next('pose')).toMatchObject({ name: 'demo', pose: { x: 0.5, y: 64, z: 0.5 } });
    const strangers = await w.signIn(stranger);
    const theirs = await openScene(w, strangers);
    const refused = (await theirs.next('problem')) as { text: string };
    // The same words as the world view's (and /status's) for them.
    const world = (await (await w.request('/api/avatars/demo/world', { session: strangers })).json()) as { error: string };
    expect(refused).toEqual({ text: world.error });
    expect(refused.text).toMatch(/^No avatar of yours answers here\./);
    expect(theirs.seen.map((e) => e.event)).toEqual(['problem']);
    expect((await w.request('/api/avatars/demo/scene')).status).toBe(401);
    expect((await w.request('/api/avatars/no%20such/scene', { session: admin })).status).toBe(404);
    // Unlinked from the watcher's chat: the open view is told so in the same words, and gets no more of demo.
    w.core.links.unlink('demo', 'telegram:-500');
    const lost = (await watcher.next('problem')) as { text: string };
    expect(lost.text).toMatch(/^No avatar of yours answers here\./);
    w.core.links.link('demo', 'telegram:-500', 'watch');
    watcher.close();
    theirs.close();
    await waitFor(() => w.web.scenes.size === 0, 10_000, 'the views to be dropped');
  });

  it(`GIVEN a page opening more than ${SCENES_PER_SESSION} 3D views THEN its oldest ones are ended`, async () => {
    const views: Stream[] = [];
    for (let i = 0; i <= SCENES_PER_SESSION; i++) {
      views.push(await openScene(w, admin));
      await views.at(-1)!.next('pose');
    }
    await views[0]!.ended;
    expect(w.web.scenes.size).toBe(SCENES_PER_SESSION);
    for (const v of views) v.close();
    await waitFor(() => w.web.scenes.size === 0, 10_000, 'the views to be dropped');
  });
});
