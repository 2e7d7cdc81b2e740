/**
 * The dashboard in a real headless Chromium, against the real process (`src/main.ts`: the embedded world,
 * demo on the scripted engine, the console) and the real Telegram bridge on our fake Bot API: sign-in
 * through `/web`, live rows, Stop, a Telegram watcher, no session, markup in a goal, a used link.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainGoal } from '../../src/text.ts';
import { startMindlink, type MindlinkProcess } from '../e2e/process.ts';
import { FakeTelegram, groupChat, user } from '../fakes/telegram-api.ts';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.ts';

if (!hasChromium) process.stderr.write(`${NO_CHROMIUM}\n`);

const ada = user(42, 'Ada');
const wes = user(43, 'Wes');
const builders = groupChat(500, 'Builders');
/** The little of the page these checks read: their callbacks run in the browser, not here. */
interface InPage {
  document: {
    querySelector(selector: string): { textContent: string | null } | null;
    querySelectorAll(selector: string): { length: number };
    getElementById(id: string): { textContent: string | null } | null;
    addEventListener(type: string, listener: (e: { violatedDirective: string; blockedURI: string }) => void): void;
  };
  __pwned?: number;
  __violations?: string[];
  __sameDocument?: boolean;
}

const LINK = /(http:\/\/127\.0\.0\.1:\d+\/login#[A-Za-z0-9_-]+)/;
const XSS_GOAL = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> collect 1 dirt';

/** A page that records CSP violations and errors from the first script on. */
async function watchedPage(ctx: BrowserContext): Promise<Page & { problems: string[] }> {
  const page = (await ctx.newPage()) as Page & { problems: string[] };
  page.problems = [];
  page.on('pageerror', (e) => page.problems.push(`error: ${e.message}`));
  page.on('dialog', (d) => {
    page.problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.addInitScript(() => {
    const w = globalThis as unknown as InPage;
    w.document.addEventListener('securitypolicyviolation', (e) => {
      w.__violations ??= [];
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return page;
}

async function signIn(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.waitForURL((u) => u.pathname === '/', { timeout: 30_000 });
  await page.locator('[data-avatar="demo"]').waitFor({ timeout: 30_000 });
}

describe.skipIf(!hasChromium)('the dashboard in Chromium, on the real process', () => {
  let dir = '';
  let tg: FakeTelegram;
  let m: MindlinkProcess;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page & { problems: string[] };
  let firstLink = '';
  let origin = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-browser-'));
    tg = await FakeTelegram.start();
    m = startMindlink({ DATA_DIR: dir, TELEGRAM_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot, ADMINS: 'telegram:42' });
    await m.line(/^\[mindlink\] ready — playing: demo$/, 120_000);
    browser = await launchChromium();
    admin = await browser.newContext();
    page = await watchedPage(admin);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGTERM');
      await m.exited;
    }
    await tg?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN /web on the console THEN its link signs the console admin in and the row shows demo with its goal line', async () => {
    await m.line(/^\[demo\] New goal \(my choice\): /, 60_000);
    m.send('/web');
    firstLink = LINK.exec(await m.line(/^\[mindlink\] Your dashboard: /))?.[1] ?? '';
    origin = new URL(firstLink).origin;
    await signIn(page, firstLink);
    const row = page.locator('[data-avatar="demo"]');
    await expect.poll(() => row.locator('.goal-line').textContent()).toMatch(/^Goal: \S/);
    expect(await row.locator('.pill').textContent()).toMatch(/^(working|choosing|wrapup)$/);
    expect(await row.textContent()).toContain('embedded (1.21.4)');
    expect(page.url()).toBe(`${origin}/`);
  }, 90_000);

  it('GIVEN a goal set on the console THEN the row shows it without a reload, and hovering it says who set it', async () => {
    await page.evaluate(() => ((globalThis as unknown as InPage).__sameDocument = true));
    m.send('Goal: collect 500 oak logs');
    await m.line(/^\[demo\] New goal from console: collect 500 oak logs\./);
    await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelector('[data-avatar="demo"] .goal-line')?.textContent === 'Goal: collect 500 oak logs', null, { timeout: 15_000 });
    expect(await page.evaluate(() => (globalThis as unknown as InPage).__sameDocument)).toBe(true);
    await page.locator('[data-avatar="demo"] .goal-line').hover();
    await expect.poll(() => page.locator('[data-avatar="demo"] .goal-full').isVisible()).toBe(true);
    expect(await page.locator('[data-avatar="demo"] .goal-full').textContent()).toBe('collect 500 oak logsSet by you');
  }, 60_000);

  it('GIVEN the world view THEN it draws the blocks around demo and says where it stands', async () => {
    await page.locator('[data-avatar="demo"] a.name').click();
    await page.locator('a', { hasText: 'World view' }).click();
    await page.waitForURL(`${origin}/avatar/demo/world`);
    await page.waitForFunction(() => /^demo at -?\d+ -?\d+ -?\d+ · /.test((globalThis as unknown as InPage).document.querySelector('[data-map-caption]')?.textContent ?? ''), null, { timeout: 20_000 });
    // The share of the map's pixels painted (a block colour, or a mark).
    const painted = (await page.evaluate(`(() => {
      const canvas = document.querySelector('canvas.map');
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let opaque = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) opaque++;
      return opaque / (pixels.length / 4);
    })()`)) as number;
    expect(painted).toBeGreaterThan(0.9);
  }, 60_000);

  it('GIVEN the admin presses Stop on the avatar page THEN the page says stopped and the console prints the stop', async () => {
    await page.goBack();
    await page.waitForURL(`${origin}/avatar/demo`);
    await page.locator('button[data-action="stop"]').click();
    await m.line(/^\[demo\] Stopped\. /);
    await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelector('.heading .pill')?.textContent === 'stopped', null, { timeout: 15_000 });
    expect(await page.locator('[data-answer="control"]').textContent()).toBe('[demo] Stopped. My goal is kept: /play resumes it.');
    // Latest shows what was done to demo, from the console and from this page.
    const latest = page.locator('section.card', { has: page.locator('h2', { hasText: 'Latest' }) }).locator('li');
    await expect
      .poll(() => latest.allTextContents(), { timeout: 15_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining('Stopped. My goal is kept: /play resumes it.'), expect.stringContaining('New goal from console: collect 500 oak logs.')]));
    await page.locator('a.back').click();
    await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelector('[data-avatar="demo"] .pill')?.textContent === 'stopped', null, { timeout: 15_000 });
  }, 60_000);

  it('GIVEN a Telegram member of a group that only watches demo THEN /web reaches them privately, the page shows demo, and Stop is refused', async () => {
    tg.sendText({ chat: builders, from: ada, text: '/link demo watch' });
    await tg.waitForMessage((x) => x.chat_id === builders.id && x.plain === '[demo] Linked to this chat (watch).', { timeoutMs: 30_000 });
    const since = tg.sent.length;
    tg.sendText({ chat: builders, from: wes, text: '/web' });
    const dm = await tg.waitForMessage((x) => x.chat_id === wes.id && LINK.test(x.plain), { since, timeoutMs: 30_000 });
    await tg.waitForMessage((x) => x.chat_id === builders.id && x.plain.includes('Wes, I sent you the answer in a private chat'), { since, timeoutMs: 30_000 });
    expect(tg.sent.filter((x) => x.chat_id === builders.id && x.plain.includes('/login#'))).toEqual([]);

    const watcher = await browser.newContext();
    const theirs = await watchedPage(watcher);
    await signIn(theirs, LINK.exec(dm.plain)?.[1] ?? '');
    expect(await theirs.locator('#who').textContent()).toBe('Wes · via telegram');
    await theirs.locator('[data-avatar="demo"] a.name').click();
    await theirs.waitForFunction(() => (globalThis as unknown as InPage).document.querySelector('.heading .pill')?.textContent === 'stopped', null, { timeout: 15_000 });
    expect(await theirs.locator('section', { hasText: 'Thought stream' }).isVisible()).toBe(false);
    await theirs.locator('button[data-action="stop"]').click();
    await expect.poll(() => theirs.locator('[data-answer="control"]').textContent()).toBe("[demo] You can't control demo: ask its owner.");
    expect(await theirs.locator('[data-answer="control"]').getAttribute('class')).toContain('refused');
    expect(theirs.problems).toEqual([]);
    await watcher.close();
  }, 90_000);

  it('GIVEN a browser without a session THEN every page and API path answers 401', async () => {
    const nobody = await browser.newContext();
    const tab = await nobody.newPage();
    for (const path of ['/', '/avatar/demo', '/avatar/demo/world', '/avatar/nobody']) {
      const res = await tab.goto(origin + path);
      expect(res?.status(), path).toBe(401);
      await expect.poll(() => tab.locator('main').textContent()).toContain('Not signed in.');
    }
    for (const path of ['/api/me', '/api/rows', '/api/avatars/demo', '/api/avatars/demo/world', '/api/events']) {
      expect((await nobody.request.get(origin + path)).status(), path).toBe(401);
    }
    for (const path of ['/api/avatars/demo/play', '/api/avatars/demo/stop', '/api/avatars/demo/goal', '/api/avatars/demo/direction', '/api/logout']) {
      expect((await nobody.request.post(origin + path, { data: { text: 'x' }, headers: { Origin: origin } })).status(), path).toBe(401);
    }
    await nobody.close();
  }, 60_000);

  it('GIVEN a goal holding <script> and <img onerror> THEN the page shows it as text and runs nothing', async () => {
    await page.locator('[data-avatar="demo"] a.name').click();
    m.send(`Goal: ${XSS_GOAL}`);
    await m.line(/^\[demo\] New goal from console: <script>/);
    await page.waitForFunction((goal) => (globalThis as unknown as InPage).document.querySelector('[data-whole-goal]')?.textContent === goal, XSS_GOAL, { timeout: 15_000 });
    await page.locator('a.back').click();
    await page.waitForFunction((line) => (globalThis as unknown as InPage).document.querySelector('[data-avatar="demo"] .goal-line')?.textContent === `Goal: ${line}`, plainGoal(XSS_GOAL), { timeout: 15_000 });
    expect(await page.locator('[data-avatar="demo"] .goal-full').textContent()).toBe(`${XSS_GOAL}Set by you`);
    const ran = await page.evaluate(() => {
      const w = globalThis as unknown as InPage;
      return { pwned: w.__pwned, injected: w.document.querySelectorAll('main script, main img, body > img').length, violations: w.__violations ?? [] };
    });
    expect(ran).toEqual({ pwned: undefined, injected: 0, violations: [] });
    expect(page.problems).toEqual([]);
  }, 60_000);

  it('GIVEN the sign-in link used already THEN it does not sign in a second time', async () => {
    const again = await browser.newContext();
    const tab = await again.newPage();
    await tab.goto(firstLink);
    await tab.waitForFunction(() => /used already or has expired/.test((globalThis as unknown as InPage).document.getElementById('status')?.textContent ?? ''), null, { timeout: 15_000 });
    expect(new URL(tab.url()).hash).toBe('');
    expect((await again.request.get(`${origin}/api/rows`)).status()).toBe(401);
    await again.close();
  }, 60_000);
});
