/**
 * What an open 3D view costs the core (part of `npm run bench -- web`): the real process (the embedded
 * world, demo walking back and forth) and a real headless Chromium, one page switched between the
 * dashboard's rows (no 3D view) and demo's world view (its map and its 3D view), several rounds each; the
 * core's event-loop delay from its own `health` lines. Run with the avatars in the core's process (where
 * the blocks are read on the core's event loop) and on an avatar host. Also the 3D stream's bytes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/bridges/browser.ts';
import { startMindlink, type MindlinkProcess } from '../test/e2e/process.ts';

/** How often the core logs its health (ms): one reading per health line. */
const HEALTH_MS = 2000;
/**
 * Rounds per condition; each round drops the reading taken across the switch and keeps the next two. The
 * conditions take turns none, view, view, none … so that what demo happens to be doing falls on both alike.
 */
const ROUNDS = 12;

interface Health {
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  cpuPct: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The next `health` line of the core's log from now on. */
async function nextHealth(m: MindlinkProcess): Promise<Health> {
  const line = await m.logLine(/"msg":"health"/, HEALTH_MS * 4);
  return JSON.parse(line) as Health;
}

/** Signed in: the page on the dashboard's rows. */
async function signIn(m: MindlinkProcess, page: Page): Promise<string> {
  m.send('/web');
  const link = /(http:\S+\/login#\S+)/.exec(await m.line(/^\[mindlink\] Your dashboard: /))?.[1] ?? '';
  const origin = new URL(link).origin;
  await page.goto(link);
  await page.waitForURL(`${origin}/`);
  await page.locator('[data-avatar="demo"]').waitFor();
  return origin;
}

/** The 3D stream's bytes as a page gets them: the first 2 s (the first blocks), then per second over 10 s. */
async function streamBytes(origin: string, cookie: string): Promise<{ first: number; perSecond: number }> {
  const controller = new AbortController();
  const res = await fetch(`${origin}/api/avatars/demo/scene`, { headers: { Cookie: cookie }, signal: controller.signal });
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`the 3D stream answered ${res.status}`);
  const t0 = performance.now();
  let first = 0;
  let later = 0;
  const done = new Promise<void>((resolve) => setTimeout(resolve, 12_000));
  const reading = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done || !chunk.value) return;
      if (performance.now() - t0 < 2000) first += chunk.value.length;
      else later += chunk.value.length;
    }
  })();
  await done;
  controller.abort();
  await reading;
  return { first, perSecond: later / 10 };
}

async function oneRun(browser: Browser, hosts: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-bench-web-3d-'));
  const m = startMindlink({ DATA_DIR: dir, LOG_LEVEL: 'debug', HEALTH_LOG_MS: String(HEALTH_MS), AVATAR_HOSTS: String(hosts) });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 760 } });
  try {
    await m.line(/^\[mindlink\] ready/, 120_000);
    await m.line(/^\[demo\] New goal \(my choice\): /, 60_000);
    const page = await ctx.newPage();
    const origin = await signIn(m, page);
    // demo walks back and forth 16 blocks, a new leg every reading (before it arrives), in both conditions alike.
    let leg = 0;
    const walk = (): void => m.send(`Goal: go to ${leg % 2 ? -8 : 8} 64 ${leg++ % 2 ? -3 : 3}`);
    const reading = (): Promise<Health> => {
      walk();
      return nextHealth(m);
    };
    const samples: Record<'none' | 'view', Health[]> = { none: [], view: [] };
    for (let round = 0; round < ROUNDS * 2; round++) {
      const condition = [0, 3].includes(round % 4) ? 'none' : 'view';
      if (condition === 'none') await page.goto(`${origin}/`);
      else {
        await page.goto(`${origin}/avatar/demo/world`);
        await page.locator('[data-scene-caption]').filter({ hasText: /^demo at / }).waitFor({ timeout: 30_000 });
      }
      await reading();
      samples[condition].push(await reading(), await reading());
    }
    const none = median(samples.none.map((h) => h.loopDelayP99Ms));
    const view = median(samples.view.map((h) => h.loopDelayP99Ms));
    const cpu = (c: 'none' | 'view'): string => `${median(samples[c].map((h) => h.cpuPct)).toFixed(0)}%`;
    const where = hosts > 1 ? `demo on an avatar host (AVATAR_HOSTS=${hosts})` : 'demo in the core’s process (AVATAR_HOSTS=1)';
    console.log(`3D view, ${where}: core event-loop p99 (median of ${samples.none.length} ${HEALTH_MS / 1000}-s readings each, demo walking) none ${none.toFixed(1)} ms, one view open ${view.toFixed(1)} ms: ×${(view / none).toFixed(2)}; core CPU ${cpu('none')} → ${cpu('view')}`);
    if (hosts === 1) {
      await page.goto(`${origin}/`);
      const cookie = (await ctx.cookies(origin)).map((c) => `${c.name}=${c.value}`).join('; ');
      const walking = setInterval(walk, HEALTH_MS);
      const bytes = await streamBytes(origin, cookie).finally(() => clearInterval(walking));
      console.log(`3D stream: ${bytes.first.toLocaleString('en-US')} bytes in its first 2 s (pose and every block in reach), then ${Math.round(bytes.perSecond).toLocaleString('en-US')} bytes/s while demo walks (poses and changed blocks only)`);
    }
  } finally {
    await ctx.close();
    m.child.kill('SIGTERM');
    await m.exited;
    await rm(dir, { recursive: true, force: true });
  }
}

/** Print the 3D view's cost to the core, in-process and on an avatar host, and its stream's bytes. */
export async function sceneCost(): Promise<void> {
  const browser = await launchChromium();
  try {
    await oneRun(browser, 1);
    await oneRun(browser, 2);
  } finally {
    await browser.close();
  }
}
