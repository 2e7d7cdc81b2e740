/**
 * The dashboard in a real headless Chromium against the real process (`src/main.ts`, the embedded world,
 * demo on the scripted engine): what the first load of the page costs (HTML, JavaScript and CSS bytes,
 * and the time from navigation to the first row drawn), and how long a goal set on the console takes to
 * show in the row of an open page (p50/p99 over 50 changes; the page is looked at every animation frame, ~16 ms);
 * then what an open 3D view costs the core (`web-3d.ts`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Response } from 'playwright-core';
import { hasChromium, launchChromium, NO_CHROMIUM } from '../test/bridges/browser.ts';
import { startMindlink } from '../test/e2e/process.ts';
import { sceneCost } from './web-3d.ts';

const LOADS = 5;
const CHANGES = 50;

function percentile(ms: number[], q: number): number {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const f = (ms: number): string => `${ms.toFixed(1)} ms`;

export default async function bench(): Promise<void> {
  if (!hasChromium) {
    console.log(NO_CHROMIUM);
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-bench-web-'));
  const m = startMindlink({ DATA_DIR: dir, LOG_LEVEL: 'warn' });
  const browser = await launchChromium();
  try {
    await m.line(/^\[mindlink\] ready/, 120_000);
    m.send('/web');
    const link = /(http:\S+\/login#\S+)/.exec(await m.line(/^\[mindlink\] Your dashboard: /))?.[1] ?? '';
    const origin = new URL(link).origin;
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(link);
    await page.waitForURL(`${origin}/`);
    await page.locator('[data-avatar="demo"]').waitFor();

    // First load: the page, its scripts and styles as the browser fetched them (no cache: every answer is no-store).
    const bytes = { document: 0, script: 0, stylesheet: 0 };
    const loads: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const seen = { document: 0, script: 0, stylesheet: 0 };
      const bodies: Promise<void>[] = [];
      const count = (res: Response): void => {
        const kind = res.request().resourceType();
        if (kind === 'document' || kind === 'script' || kind === 'stylesheet') bodies.push(res.body().then((b) => void (seen[kind] += b.length)));
      };
      page.on('response', count);
      const t0 = performance.now();
      await page.goto(`${origin}/`);
      await page.locator('[data-avatar="demo"] .goal-line').waitFor();
      loads.push(performance.now() - t0);
      page.off('response', count);
      await Promise.all(bodies);
      Object.assign(bytes, seen);
    }
    const total = bytes.document + bytes.script + bytes.stylesheet;
    console.log(`first load: ${total.toLocaleString('en-US')} bytes (HTML ${bytes.document.toLocaleString('en-US')}, JS ${bytes.script.toLocaleString('en-US')}, CSS ${bytes.stylesheet.toLocaleString('en-US')}), uncompressed, no framework`);
    console.log(`navigation → first row drawn, ${LOADS} loads: median ${f(percentile(loads, 0.5))}, max ${f(Math.max(...loads))}`);

    // Goal change on the console → the open page's row shows it.
    const delays: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const goal = `collect ${1000 + i} oak logs`;
      const t0 = performance.now();
      m.send(`Goal: ${goal}`);
      await page.waitForFunction((want) => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document.querySelector('[data-avatar="demo"] .goal-line')?.textContent === `Goal: ${want}`, goal, { polling: 'raf', timeout: 30_000 });
      delays.push(performance.now() - t0);
    }
    console.log(`goal set on the console → row updated, ${CHANGES} changes: p50 ${f(percentile(delays, 0.5))}, p99 ${f(percentile(delays, 0.99))}, max ${f(Math.max(...delays))}`);
    await ctx.close();
  } finally {
    await browser.close();
    m.child.kill('SIGTERM');
    await m.exited;
    await rm(dir, { recursive: true, force: true });
  }
  await sceneCost();
}
