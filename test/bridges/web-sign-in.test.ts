/**
 * Signing in to the dashboard against someone who keeps signing in: `/web` as a chat command through the
 * real core, links opened over HTTP as the login page opens them, on a clock the test moves. One person's
 * sign-ins push out only their own older sessions; `/web` is limited per person; a full table refuses a
 * newcomer instead of signing anyone out.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/chat.ts';
import { CONSOLE_CHAT, startWebCore, type Session, type WebCore } from './web-helpers.ts';

/** A member of a Telegram group that only watches demo. */
const watcher: ChatContext = { platform: 'telegram', from: 'telegram:43', fromName: 'Wes', dest: 'telegram:-500', chatKind: 'group', messageId: null };
/** docs/dashboard.md: 3 links a minute per person, 5 sessions each. */
const MINUTE = 60_000;
const LINKS_PER_MINUTE = 3;
const SESSIONS_PER_PERSON = 5;
const LINK = /http:\/\/127\.0\.0\.1:\d+\/login#[A-Za-z0-9_-]{43}/;

describe('dashboard sign-in against many sign-ins', () => {
  let dir = '';
  let w: WebCore;
  let admin: Session;
  let offset = 0;

  /** `/web` sent by the sender of `chat`: the answer mindlink gives in that chat. */
  const web = (chat: ChatContext): Promise<{ text: string; refused: boolean }> => w.core.router.answerCommand({ ...chat, name: 'web', options: {} });
  const link = async (chat: ChatContext): Promise<string> => {
    const answer = await web(chat);
    const url = LINK.exec(answer.text)?.[0];
    if (!url) throw new Error(`no link in: ${answer.text}`);
    return url;
  };
  const signedIn = async (session: Session): Promise<number> => (await w.request('/api/rows', { session })).status;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-sign-in-'));
    w = await startWebCore(dir, {}, () => new Date(Date.now() + offset));
    await w.line(/^\[demo\] New goal \(my choice\): explore/);
    w.core.people.ensurePerson('telegram:43', 'Wes');
    w.core.links.link('demo', 'telegram:-500', 'watch');
    admin = await w.signIn(CONSOLE_CHAT);
  }, 60_000);

  afterAll(async () => {
    await w?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a watcher signs in 600 times THEN the admin stays signed in, and only the watcher’s newest sessions still work', async () => {
    const mine: Session[] = [];
    for (let i = 0; i < 600; i++) {
      offset += MINUTE / LINKS_PER_MINUTE;
      mine.push(await w.redeemLink(await link(watcher)));
    }
    expect(await signedIn(admin)).toBe(200);
    const alive: boolean[] = [];
    for (const s of mine) alive.push((await signedIn(s)) === 200);
    expect(alive).toEqual(mine.map((_, i) => i >= mine.length - SESSIONS_PER_PERSON));
  }, 120_000);

  it('GIVEN a 4th /web within a minute THEN it is refused with a reply saying when to ask again, and no link', async () => {
    offset += MINUTE;
    for (let i = 0; i < LINKS_PER_MINUTE; i++) await link(watcher);
    const fourth = await web(watcher);
    expect(fourth).toMatchObject({ refused: true, text: 'You asked for 3 sign-in links in the last minute: ask again in 60 s. The links you have work for 10 minutes.' });
    // The console says so too, as a user sees it.
    for (let i = 0; i < LINKS_PER_MINUTE; i++) await link(CONSOLE_CHAT);
    w.send('/web');
    await w.line(/^\[mindlink\] You asked for 3 sign-in links in the last minute: ask again in 60 s\./);
    offset += MINUTE;
    expect(await web(watcher)).toMatchObject({ refused: false, text: expect.stringMatching(LINK) });
    expect(await signedIn(admin)).toBe(200);
  });

  it('GIVEN odd sign-in tokens THEN each is refused in the same words and nobody is signed in or out', async () => {
    const url = await link(CONSOLE_CHAT);
    const token = url.slice(url.indexOf('#') + 1);
    for (const body of [{ token: token.toUpperCase() }, { token: `${token}x` }, { token: '' }, { token: 'x'.repeat(201) }, { token: 42 }, ['x'], null, { token: `${token.slice(0, 10)}%00` }]) {
      const res = await w.request('/api/login', { method: 'POST', body });
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(await res.json()).toEqual({ error: 'This sign-in link was used already or has expired. Send /web again for a new one.' });
    }
    const raw = await w.request('/api/login', { method: 'POST', headers: { 'Content-Type': 'text/plain' } });
    expect(raw.status).toBe(401);
    // The right token still works once after all that.
    expect(await signedIn(await w.redeemLink(url))).toBe(200);
    expect(await signedIn(admin)).toBe(200);
  });

  it('GIVEN an open page whose session a 6th sign-in of the same person pushes out THEN its live stream says signed-out, then ends', async () => {
    const member: ChatContext = { ...watcher, from: 'telegram:90', fromName: 'Ida' };
    const sessions: Session[] = [];
    for (let i = 0; i < SESSIONS_PER_PERSON; i++) {
      offset += MINUTE / LINKS_PER_MINUTE;
      sessions.push(await w.redeemLink(await link(member)));
    }
    const res = await w.request('/api/events', { session: sessions[0]! });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while (!seen.includes('event: rows')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${seen}`);
      seen += decoder.decode(value, { stream: true });
    }
    offset += MINUTE / LINKS_PER_MINUTE;
    await w.redeemLink(await link(member));
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    expect(seen).toMatch(/event: signed-out\n/);
    expect(await signedIn(sessions[0]!)).toBe(401);
    expect(await signedIn(sessions[1]!)).toBe(200);
  });

  it('GIVEN every session taken by other people THEN a newcomer is refused in plain words, in chat and on the login page, and gets in once one signs out', async () => {
    const newcomer: ChatContext = { platform: 'telegram', from: 'telegram:77', fromName: 'Nia', dest: 'telegram:-500', chatKind: 'group', messageId: null };
    const early = await link(newcomer);
    // Other members of the group sign in (each their own identity) until the dashboard holds no more.
    const others: Session[] = [];
    let full = '';
    for (let n = 0; n < 600 && !full; n++) {
      const chat: ChatContext = { platform: 'telegram', from: `telegram:${5000 + n}`, fromName: `p${n}`, dest: 'telegram:-500', chatKind: 'group', messageId: null };
      const answer = await web(chat);
      if (answer.refused) full = answer.text;
      else others.push(await w.redeemLink(LINK.exec(answer.text)?.[0] ?? ''));
    }
    expect(full).toBe('The dashboard has 500 pages signed in, as many as it holds: try again when some sign out or expire (each lasts 12 hours).');
    expect(others.length).toBeGreaterThan(480);
    const refused = await w.request('/api/login', { method: 'POST', body: { token: early.slice(early.indexOf('#') + 1) } });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({ error: 'The dashboard has 500 pages signed in, as many as it holds: try again when some sign out or expire (each lasts 12 hours).' });
    const late = await web({ ...newcomer, from: 'telegram:78', fromName: 'Ole' });
    expect(late).toMatchObject({ refused: true, text: expect.stringMatching(/^The dashboard has 500 pages signed in/) });
    expect(await signedIn(admin)).toBe(200);
    expect(await signedIn(others[0]!)).toBe(200);
    // One signs out: the newcomer's link, kept unused, now signs in.
    expect((await w.request('/api/logout', { method: 'POST', session: others[0]! })).status).toBe(200);
    expect(await signedIn(await w.redeemLink(early))).toBe(200);
    expect(await signedIn(admin)).toBe(200);
  }, 120_000);
});
