/**
 * Survival rules of the embedded world with real mineflayer: tools decide drops and dig times, food drains with
 * activity, eating restores it, full food heals and no food hurts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { connectedGame, nextEvent, startWorld, teleportAndSettle, tempDataDir, testLogger, waitFor } from './helpers.ts';

const log = testLogger();
const data = tempDataDir('survival');
let world: EmbeddedWorld;
const games: MineflayerGame[] = [];
/** Each test's avatar stands on its own spot inside the clear, flat square around spawn (|x|, |z| < 6). */
const SPOTS: Array<[number, number]> = [[-4, -3], [-1, -3], [2, -3], [-4, 3], [-1, 3], [2, 3], [5, 0], [-2, 0]];
let spot = 0;

beforeAll(async () => {
  world = await startWorld(data.dir, log);
});

afterAll(async () => {
  await Promise.all(games.map((g) => g.stop()));
  await world?.stop();
  data.remove();
});

async function avatar(name: string): Promise<{ game: MineflayerGame; bot: Bot; at: Vec3 }> {
  const game = await connectedGame(world, name, log);
  games.push(game);
  const [x, z] = SPOTS[spot++ % SPOTS.length]!;
  const target = new Vec3(x + 0.5, 64, z + 0.5);
  const bot = game.bot!;
  // Dig times are five times longer in the air: work from where the bot stands.
  await teleportAndSettle(world, game, target);
  const at = bot.entity.position.floored();
  return { game, bot, at };
}

/** Set a block next to the bot and wait until the bot sees it. */
async function blockAt(bot: Bot, pos: Vec3, name: string): Promise<void> {
  await world.setBlock(pos, name);
  await waitFor(() => bot.blockAt(pos)?.name === name, 10_000, `${name} at ${pos}`);
}

const count = (bot: Bot, name: string): number => bot.inventory.count(bot.registry.itemsByName[name]!.id, null);

describe('tools in the embedded world', () => {
  it('GIVEN stone WHEN dug by hand THEN it drops nothing, and WHEN dug with a wooden pickaxe THEN it drops cobblestone', async () => {
    const { bot, at } = await avatar('ivo');
    const stone = at.offset(1, 0, 0);
    const dirt = at.offset(-1, 0, 0);
    await blockAt(bot, stone, 'stone');
    await blockAt(bot, dirt, 'dirt');
    await bot.dig(bot.blockAt(stone)!);
    expect(await world.blockAt(stone)).toBe('air');
    // The dirt dug afterwards arrives; the stone's cobblestone never did.
    await bot.dig(bot.blockAt(dirt)!);
    await waitFor(() => count(bot, 'dirt') === 1, 10_000, 'the dirt');
    expect(count(bot, 'cobblestone')).toBe(0);
    expect(count(bot, 'stone')).toBe(0);

    await world.give('ivo', 'wooden_pickaxe', 1);
    await waitFor(() => count(bot, 'wooden_pickaxe') === 1, 10_000, 'the pickaxe');
    await bot.equip(bot.inventory.items().find((i) => i.name === 'wooden_pickaxe')!, 'hand');
    await blockAt(bot, stone, 'stone');
    expect(bot.digTime(bot.blockAt(stone)!)).toBeLessThan(2000);
    await bot.dig(bot.blockAt(stone)!);
    await waitFor(() => count(bot, 'cobblestone') === 1, 10_000, 'the cobblestone');
  });

  it('GIVEN a bare hand WHEN the client claims to have dug stone at once THEN the server refuses and sends the stone back', async () => {
    const { bot, at } = await avatar('jan');
    const stone = at.offset(1, 0, 0);
    await blockAt(bot, stone, 'stone');
    const restored = new Promise<void>((resolve) => {
      bot._client.on('block_change', (p: { location: { x: number; y: number; z: number }; type: number }) => {
        if (p.location.x === stone.x && p.location.y === stone.y && p.location.z === stone.z) resolve();
      });
    });
    bot._client.write('block_dig', { status: 0, location: stone, face: 5, sequence: 1 });
    bot._client.write('block_dig', { status: 2, location: stone, face: 5, sequence: 2 });
    await restored;
    expect(await world.blockAt(stone)).toBe('stone');
  });
  it('GIVEN a bare hand WHEN the world stands still while the client digs dirt for as long as it takes THEN the dig, read at once after the stall, is not refused', async () => {
    const { bot, at } = await avatar('kai');
    const dirt = at.offset(-1, 0, 0);
    await blockAt(bot, dirt, 'dirt');
    const needed = bot.digTime(bot.blockAt(dirt)!);
    const pid = world.pid!;
    const sent = Date.now();
    // The world is stopped before the start is sent: it reads the start and the end together once it runs again.
    process.kill(pid, 'SIGSTOP');
    try {
      bot._client.write('block_dig', { status: 0, location: dirt, face: 5, sequence: 1 });
      while (Date.now() - sent < needed + 200) await new Promise((r) => setTimeout(r, 50));
      bot._client.write('block_dig', { status: 2, location: dirt, face: 5, sequence: 2 });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await waitFor(() => count(bot, 'dirt') === 1, 10_000, 'the dirt');
    expect(await world.blockAt(dirt)).toBe('air');
  });
});

describe('hunger in the embedded world', () => {
  it('GIVEN no saturation and almost 4 exhaustion WHEN the avatar digs a block THEN its food drops by one, on both sides', async () => {
    const { bot, at } = await avatar('kit');
    const dirt = at.offset(1, 0, 0);
    await blockAt(bot, dirt, 'dirt');
    await world.setHunger('kit', { food: 20, saturation: 0, exhaustion: 3.999 });
    await waitFor(() => bot.food === 20 && bot.foodSaturation === 0, 10_000, 'the hunger set');
    await bot.dig(bot.blockAt(dirt)!);
    await waitFor(() => bot.food === 19, 10_000, 'food 19');
    const server = await world.hunger('kit');
    expect(server.food).toBe(19);
    expect(server.exhaustion).toBeLessThan(0.01);
  });

  it('GIVEN no saturation and some exhaustion WHEN the avatar sprints THEN its food drops', async () => {
    const { bot } = await avatar('lia');
    await world.setHunger('lia', { food: 20, saturation: 0, exhaustion: 3.9 });
    await waitFor(() => bot.food === 20 && bot.foodSaturation === 0, 10_000, 'the hunger set');
    bot.setControlState('sprint', true);
    bot.setControlState('forward', true);
    try {
      await waitFor(() => bot.food === 19, 15_000, 'food 19 after sprinting');
    } finally {
      bot.clearControlStates();
    }
  });

  it('GIVEN a hungry avatar with two apples WHEN it eats one THEN food and saturation rise by the apple\'s values and one apple is left, on both sides', async () => {
    const { bot } = await avatar('max');
    await world.setHunger('max', { food: 10, saturation: 0 });
    await world.give('max', 'apple', 2);
    await waitFor(() => bot.food === 10 && count(bot, 'apple') === 2, 10_000, 'hungry with apples');
    await bot.equip(bot.inventory.items().find((i) => i.name === 'apple')!, 'hand');
    await bot.consume();
    await waitFor(() => bot.food === 14 && count(bot, 'apple') === 1, 10_000, 'food 14 and one apple');
    expect(bot.foodSaturation).toBeCloseTo(2.4, 3);
    const server = await world.hunger('max');
    expect(server.food).toBe(14);
    expect(server.saturation).toBeCloseTo(2.4, 3);
    const inv = await world.inventory('max');
    expect(Object.values(inv.slots)).toEqual([{ name: 'apple', count: 1 }]);
  });

  it('GIVEN full food and a wound THEN health regenerates; GIVEN no food THEN starvation hurts', async () => {
    const { bot } = await avatar('ola');
    await world.setHunger('ola', { food: 20, saturation: 5, health: 10 });
    await waitFor(() => bot.health === 10, 10_000, 'health 10');
    await waitFor(() => bot.health > 11, 15_000, 'health regenerating');
    await world.setHunger('ola', { food: 0, saturation: 0, health: 20 });
    await waitFor(() => bot.food === 0 && bot.health === 20, 10_000, 'starving at full health');
    const hurt = nextEvent(bot, 'health', 15_000);
    await hurt;
    await waitFor(() => bot.health < 20, 15_000, 'starvation damage');
    await world.setHunger('ola', { food: 20, saturation: 5, health: 20 });
  });
});
