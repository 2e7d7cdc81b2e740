/**
 * The dashboard's 3D view in a real headless Chromium (WebGL on SwiftShader), against the real process
 * (`src/main.ts`: the embedded world, demo on the scripted engine): it draws demo's surroundings, and
 * what it draws changes as demo walks. With SCREENSHOT_DIR set, the world page is saved there as
 * `world-3d-light.png` (the picture in docs/dashboard.md).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMindlink, type MindlinkProcess } from '../e2e/process.ts';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.ts';

if (!hasChromium) process.stderr.write(`${NO_CHROMIUM}\n`);

const LINK = /(http:\/\/127\.0\.0\.1:\d+\/login#[A-Za-z0-9_-]+)/;
const CAPTION = /^demo at (-?\d+) (-?\d+) (-?\d+) · facing /;

/** What the 3D view's canvas shows, read in the page: the share of pixels that are not sky, the colours used, and a 64 × 48 grey thumbnail. */
interface Pixels {
  ground: number;
  colours: number;
  thumb: number[];
}

const READ_PIXELS = `(() => {
  const canvas = document.querySelector('canvas.scene');
  const small = document.createElement('canvas');
  small.width = 64;
  small.height = 48;
  const ctx = small.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(canvas, 0, 0, 64, 48);
  const data = ctx.getImageData(0, 0, 64, 48).data;
  const colours = new Set();
  const thumb = [];
  let ground = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    colours.add((r >> 3) * 1024 + (g >> 3) * 32 + (b >> 3));
    // The sky (and fog) is a light blue: r 158, g 199, b 242.
    if (Math.abs(r - 158) + Math.abs(g - 199) + Math.abs(b - 242) > 24) ground++;
    thumb.push(Math.round((r + g + b) / 3));
  }
  return { ground: ground / (64 * 48), colours: colours.size, thumb };
})()`;

/** The share of thumbnail pixels that differ clearly between two readings. */
function changed(a: Pixels, b: Pixels): number {
  let n = 0;
  for (let i = 0; i < a.thumb.length; i++) if (Math.abs((a.thumb[i] ?? 0) - (b.thumb[i] ?? 0)) > 12) n++;
  return n / a.thumb.length;
}

async function position(page: Page): Promise<{ x: number; y: number; z: number }> {
  const caption = (await page.locator('[data-scene-caption]').textContent()) ?? '';
  const m = CAPTION.exec(caption);
  if (!m) throw new Error(`the 3D view says: ${caption}`);
  return { x: Number(m[1]), y: Number(m[2]), z: Number(m[3]) };
}

describe.skipIf(!hasChromium)('the 3D view in Chromium, on the real process', () => {
  let dir = '';
  let m: MindlinkProcess;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-view3d-'));
    m = startMindlink({ DATA_DIR: dir });
    await m.line(/^\[mindlink\] ready — playing: demo$/, 120_000);
    browser = await launchChromium();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 760 } });
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`error: ${e.message}`));
    page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGTERM');
      await m.exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN the world view open THEN the 3D view draws demo’s surroundings, and its pixels change as demo walks', async () => {
    await m.line(/^\[demo\] New goal \(my choice\): /, 60_000);
    m.send('/web');
    const link = LINK.exec(await m.line(/^\[mindlink\] Your dashboard: /))?.[1] ?? '';
    const origin = new URL(link).origin;
    await page.goto(link);
    await page.waitForURL(`${origin}/`, { timeout: 30_000 });
    await page.goto(`${origin}/avatar/demo/world`);
    await expect.poll(() => page.locator('[data-scene-caption]').textContent(), { timeout: 30_000 }).toMatch(CAPTION);

    // Drawn: mostly ground, trees and sky, in many shades (not one flat colour, not blank).
    const drawn = async (): Promise<Pixels> => (await page.evaluate(READ_PIXELS)) as Pixels;
    await expect.poll(async () => ((p) => p.ground > 0.2 && p.colours > 12)(await drawn()), { timeout: 30_000, interval: 250 }).toBe(true);
    const before = await drawn();
    const start = await position(page);

    m.send(`Goal: go to ${start.x + 9} ${start.y} ${start.z + 5}`);
    await m.line(/^\[demo\] New goal from console: go to /);
    await expect.poll(async () => {
      const p = await position(page);
      return Math.hypot(p.x - start.x, p.z - start.z);
    }, { timeout: 60_000, interval: 250 }).toBeGreaterThanOrEqual(4);
    await expect.poll(async () => changed(before, await drawn()), { timeout: 15_000, interval: 250 }).toBeGreaterThan(0.1);

    // From behind, the camera moves back: the picture changes again, and still shows the world.
    const eyes = await drawn();
    await page.locator('button[data-camera="behind"]').click();
    await expect.poll(async () => changed(eyes, await drawn()), { timeout: 15_000, interval: 250 }).toBeGreaterThan(0.05);
    expect((await drawn()).ground).toBeGreaterThan(0.2);
    if (process.env.SCREENSHOT_DIR) await page.locator('section.world').screenshot({ path: join(process.env.SCREENSHOT_DIR, 'world-3d-light.png') });
    expect(problems).toEqual([]);
  }, 240_000);
});
