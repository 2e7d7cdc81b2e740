/**
 * The places an avatar remembers on the dashboard's world view, in a real headless Chromium against the real
 * core and web bridge (fake games, whose map and position the test sets): a place on the map is a labelled pin,
 * and the list beside the map says which are on it and how far the others are.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TopDownMap } from '../../src/game/top-down.ts';
import { snapshotOf } from '../fakes/fake-game.ts';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.ts';
import { CONSOLE_CHAT, startWebCore, type WebCore } from './web-helpers.ts';

if (!hasChromium) process.stderr.write(`${NO_CHROMIUM}\n`);

/** The map's reach each way from the avatar (the dashboard's MAP_RADIUS). */
const R = 24;

/** A flat grass map around a block position, as the game draws it. */
function flatMapAround(x: number, y: number, z: number): TopDownMap {
  const size = 2 * R + 1;
  return { x0: x - R, z0: z - R, size, palette: ['grass_block'], cells: new Array<number>(size * size).fill(0), heights: new Array<number>(size * size).fill(0), avatar: { x, y, z, yaw: 0 } };
}

describe.skipIf(!hasChromium)('places on the world view, in Chromium', () => {
  let dir = '';
  let w: WebCore;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  /** Put demo at a block position, its map around it. */
  function stand(x: number, y: number, z: number): void {
    const game = w.games.get('demo');
    if (!game) throw new Error('demo has no game');
    game.snap = snapshotOf({ ...game.snap, position: { x: x + 0.5, y, z: z + 0.5 } });
    game.map = flatMapAround(x, y, z);
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-places-'));
    w = await startWebCore(dir);
    await w.line(/^\[demo\] New goal \(my choice\): explore$/);
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => problems.push(`error: ${e.message}`));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await w?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('GIVEN base near demo and far-away farm THEN the map pins base with its label, and the list says base is on the map and farm how far off', async () => {
    stand(100, 64, 100);
    w.send('/place set farm');
    await w.line(/^\[demo\] Remembered farm at 100 64 100/);
    stand(5, 64, -3);
    w.send('/place set base');
    await w.line(/^\[demo\] Remembered base at 5 64 -3/);
    stand(15, 64, 6);

    const api = (await (await w.request('/api/avatars/demo/world', { session: await w.signIn(CONSOLE_CHAT) })).json()) as { places: unknown };
    expect(api.places).toEqual([
      { name: 'farm', x: 100, y: 64, z: 100 },
      { name: 'base', x: 5, y: 64, z: -3 },
    ]);

    await page.goto(w.core.web.signInLink(CONSOLE_CHAT));
    await page.waitForURL((u) => u.pathname === '/', { timeout: 30_000 });
    await page.goto(`${w.origin}/avatar/demo/world`);
    const base = page.locator('li[data-place="base"]');
    await base.waitFor({ timeout: 20_000 });
    expect(await base.textContent()).toBe('base 5 64 -3 · on the map');
    expect(await page.locator('li[data-place="farm"]').textContent()).toBe('farm 100 64 100 · 126 blocks away, off the map');

    // The pin's colour at the centre of base's block: column 5 − x0, row −3 − z0 of the map around 15 64 6.
    const pixel = (await page.evaluate(`(() => {
      const canvas = document.querySelector('canvas.map');
      const cell = canvas.width / ${2 * R + 1};
      const x = Math.floor((5 - ${15 - R} + 0.5) * cell);
      const y = Math.floor((-3 - ${6 - R} + 0.5) * cell);
      return Array.from(canvas.getContext('2d').getImageData(x, y, 1, 1).data);
    })()`)) as number[];
    expect(pixel).toEqual([0xd9, 0x46, 0xef, 255]);
    // A grass cell far from every mark is not that colour.
    const grass = (await page.evaluate(`(() => {
      const canvas = document.querySelector('canvas.map');
      const cell = canvas.width / ${2 * R + 1};
      return Array.from(canvas.getContext('2d').getImageData(Math.floor(45.5 * cell), Math.floor(45.5 * cell), 1, 1).data);
    })()`)) as number[];
    expect(grass).not.toEqual([0xd9, 0x46, 0xef, 255]);

    // Forgotten, the pin goes without a reload.
    w.send('/place remove base');
    await w.line(/^\[demo\] Forgot base/);
    await base.waitFor({ state: 'detached', timeout: 20_000 });
    expect(problems).toEqual([]);
  }, 120_000);
});
