/**
 * The craft skill while items arrive: an item picked up (here given by the server) while the skill's clicks
 * are on their way changes the inventory under them. Whatever click it lands before, in the 2×2 grid or at a
 * crafting table, the skill makes what was asked, nothing is left in the grid or on the cursor, and the bot's
 * inventory is the server's.
 */
import { describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { runSkill } from '../../skills/index.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { held, skillNamed, slotsOnBothSides, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('craft-arrivals');

/**
 * From the `at`-th window click on, every packet the bot sends waits in line; the `at`-th waits until the
 * server has given `item`, so the click was made before the bot could know of it (a pickup racing a click).
 * `clicks()` says how many clicks were sent, so a case can check that its click came.
 */
function arrivalAtClick(bot: Bot, username: string, at: number, item: string): { clicks: () => number; restore: () => void } {
  const client = bot._client;
  const write = client.write.bind(client);
  let clicks = 0;
  let line: Promise<unknown> | null = null;
  client.write = (name: string, params: unknown) => {
    if (name === 'window_click') {
      clicks += 1;
      if (clicks === at) line = shared.world.give(username, item, 1);
    }
    if (!line) return write(name, params);
    line = line.then(() => write(name, params));
  };
  return { clicks: () => clicks, restore: () => (client.write = write) };
}

/** Run the crafts with `item` arriving before click `at`; each must succeed, and click `at` must have come. */
async function craftsInRace(game: MineflayerGame, at: number, item: string, crafts: Array<[string, number]>): Promise<void> {
  const race = arrivalAtClick(game.bot!, game.username, at, item);
  try {
    for (const [made, count] of crafts) {
      const r = await runSkill(skillNamed('craft'), game, { item: made, count }, new AbortController().signal);
      expect(r, r.detail).toMatchObject({ ok: true });
    }
  } finally {
    race.restore();
  }
  expect(race.clicks()).toBeGreaterThanOrEqual(at);
}

/** Once the server's answers have arrived: nothing on the cursor or in the 2×2 grid, and the bot's slots are the server's. */
async function expectSettled(game: MineflayerGame): Promise<void> {
  const sides = await slotsOnBothSides(shared.world, game.bot!, game.username, 1);
  expect(sides.cursor).toBeNull();
  expect(Object.keys(sides.server).filter((s) => Number(s) <= 4)).toEqual([]);
  expect(sides.bot).toEqual(sides.server);
}

describe('craft while items arrive', () => {
  // Planks twice (two crafts of a shapeless recipe), then sticks (a shaped one): about 16 clicks in all. A log
  // joins the stack the recipe takes from; dirt takes the first empty slot, where a result was to go.
  const cases = (['oak_log', 'dirt'] as const).flatMap((item) => Array.from({ length: 16 }, (_, i) => [item, i + 1] as const));
  for (const [item, at] of cases) {
    it(`GIVEN a ${item} arriving before click ${at} THEN planks and sticks are made and the grid and cursor are empty`, async () => {
      const name = `arr${item === 'dirt' ? 'd' : 'l'}${at}`;
      const { game, bot } = await shared.avatar(name, 0, 0, [['oak_log', 3]]);
      await craftsInRace(game, at, item, [['oak_planks', 8], ['stick', 4]]);
      expect(held(bot, 'stick')).toBeGreaterThanOrEqual(4);
      await expectSettled(game);
      await game.stop();
    });
  }
});

describe('craft at a table while items arrive', () => {
  // A wooden pickaxe at a table: three planks and two sticks laid out in the 3×3 grid, about 12 clicks. A plank
  // joins the stack the recipe takes from.
  for (let at = 1; at <= 12; at++) {
    it(`GIVEN a plank arriving before click ${at} THEN the pickaxe is made and the inventories agree`, async () => {
      const name = `tbl${at}`;
      const x = 10 + 6 * at;
      const { game, bot } = await shared.avatar(name, x, 20, [['oak_planks', 3], ['stick', 2]]);
      await shared.world.setBlock({ x: x + 1, y: 64, z: 20 }, 'crafting_table');
      const tableId = bot.registry.blocksByName.crafting_table!.id;
      await waitFor(() => bot.findBlock({ matching: tableId, maxDistance: 3 }) !== null, 10_000, `${name}'s table`);
      await craftsInRace(game, at, 'oak_planks', [['wooden_pickaxe', 1]]);
      expect(held(bot, 'wooden_pickaxe')).toBe(1);
      await expectSettled(game);
      await game.stop();
    });
  }
});
