/**
 * The picture of a `/status` card in docs/discord.md: mindlink (real core, real discord.js) answers
 * `/status` to the fake Discord, and the message JSON the fake received is drawn by
 * `discord-card-page.ts` in a real Chromium. The test checks the drawing shows what the card says;
 * with `MINDLINK_PICTURES=1` it also writes the screenshot to `docs/discord-status-card.png`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameProvider } from '../../src/game/game.ts';
import { FakeDiscord, option } from '../fakes/discord-api.ts';
import { FakeGame, snapshotOf } from '../fakes/fake-game.ts';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.ts';
import { cardPage } from './discord-card-page.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

if (!hasChromium) process.stderr.write(`${NO_CHROMIUM}\n`);

const PICTURE = fileURLToPath(new URL('../../docs/discord-status-card.png', import.meta.url));

/** A world where steve stands by a lake with some wood, working on a cabin. */
const games: GameProvider = {
  create: (avatar) =>
    new FakeGame(avatar.name, {
      snap: snapshotOf({ position: { x: 112, y: 71, z: -38 }, health: 18, food: 15, inventory: { oak_log: 6, oak_planks: 12, stick: 4, cobblestone: 20, crafting_table: 1 } }),
    }),
  close: async () => {},
};

describe.skipIf(!hasChromium)('the picture of a /status card (fake Discord, real Chromium)', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let browser: Browser;

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-picture-'));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await ml?.core.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN steve working on a goal alice set THEN the drawn card shows its state colour, goal and setter, position, health, food, inventory, server and buttons', async () => {
    const alice = fake.addUser('alice');
    const guild = fake.addGuild('Home', { owner: alice });
    const general = fake.addChannel(guild, 'general');
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` }, {}, { games, script: () => 'Working on it.\nSTATUS: working' });
    await fake.slash({ user: alice, channel: general, name: 'avatar', options: [option.subcommand('create', [option.string('name', 'steve')])] }).reply();
    await fake.slash({ user: alice, channel: general, name: 'play', options: [option.string('avatar', 'steve')] }).reply();
    await fake.slash({ user: alice, channel: general, name: 'goal', options: [option.string('text', 'build a cabin by the lake')] }).reply();
    const handle = fake.slash({ user: alice, channel: general, name: 'status' });
    const reply = await handle.reply();

    const page = await browser.newPage({ viewport: { width: 600, height: 480 }, deviceScaleFactor: 2 });
    await page.setContent(cardPage(reply.body, { botName: 'mindlink', time: 'Today at 14:02', caption: 'A /status card on Discord' }));
    const message = page.locator('#message');
    expect(await page.locator('.caption').innerText()).toMatch(/a rendering, not a screenshot of Discord/);
    expect(await message.locator('.title').innerText()).toBe('steve');
    // Working: the embed's colour bar is green.
    expect(await message.locator('.embed').getAttribute('style')).toBe('border-left-color:#3ba55d');
    const fields = await message.locator('.field').allInnerTexts();
    expect(fields.map((f) => f.replace(/\n+/g, ': '))).toEqual([
      'Goal: build a cabin by the lake (set by alice)',
      'Position: 112 71 -38 (overworld)',
      'Health: 18/20',
      'Food: 15/20',
      'Inventory: cobblestone×20, oak_planks×12, oak_log×6, stick×4, crafting_table×1',
      'Server: embedded',
    ]);
    expect(await message.locator('button').allInnerTexts()).toEqual(['Stop', 'Refresh', 'Goal…']);
    const shot = await page.locator('body').screenshot({ type: 'png' });
    expect(shot.subarray(1, 4).toString('latin1')).toBe('PNG');
    if (process.env.MINDLINK_PICTURES === '1') await writeFile(PICTURE, shot);
    await page.close();
  });
});
