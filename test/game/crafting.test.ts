/**
 * Crafting in the embedded shared.world, with real mineflayer: the 2×2 grid and the crafting table, shaped (and
 * mirrored) and shapeless recipes, shift-click craft-all, leftovers, a full inventory, the table closing.
 * After each craft the bot's inventory and the server's are the same, slot for slot.
 */
import { describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Window } from 'prismarine-windows';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { botSlots, connectedGame, nextEvent, serverSlots, slotsOnBothSides, teleportAndSettle, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('crafting', { mobs: true });
const { log, games } = shared;

/** Wait until the bot and the server agree on every inventory slot, then assert it (a failure shows both). */
async function expectSameInventory(game: MineflayerGame): Promise<Record<string, string>> {
  const sides = await slotsOnBothSides(shared.world, game.bot!, game.username);
  expect(sides.bot).toEqual(sides.server);
  expect(sides.cursor).toBeNull();
  return sides.server;
}

async function avatar(name: string, items: Array<[string, number]>): Promise<MineflayerGame> {
  const game = await connectedGame(shared.world, name, log);
  games.push(game);
  for (const [item, count] of items) await shared.world.give(name, item, count);
  const want = new Map<string, number>();
  for (const [item, count] of items) want.set(item, (want.get(item) ?? 0) + count);
  await waitFor(() => [...want].every(([item, n]) => game.bot!.inventory.count(game.bot!.registry.itemsByName[item]!.id, null) === n), 10_000, `${name}'s items`);
  return game;
}

const count = (bot: Bot, name: string): number => bot.inventory.count(bot.registry.itemsByName[name]!.id, null);

function recipeFor(bot: Bot, name: string, table: Block | null) {
  const recipe = bot.recipesFor(bot.registry.itemsByName[name]!.id, null, 1, table)[0];
  if (!recipe) throw new Error(`no recipe for ${name} from ${JSON.stringify(botSlots(bot))}`);
  return recipe;
}

/** Place a crafting table next to the bot (server side) and wait until the bot sees it. */
async function tableNextTo(bot: Bot, dx = 2): Promise<Block> {
  const p = bot.entity.position.floored();
  await shared.world.setBlock({ x: p.x + dx, y: p.y, z: p.z }, 'crafting_table');
  let table: Block | null = null;
  await waitFor(() => (table = bot.findBlock({ matching: bot.registry.blocksByName.crafting_table!.id, maxDistance: 6 })) !== null, 10_000, 'the table');
  return table!;
}

async function openTable(bot: Bot, table: Block): Promise<Window> {
  const opened = nextEvent<[Window]>(bot, 'windowOpen', 10_000);
  await bot.activateBlock(table);
  const [window] = await opened;
  return window;
}

/** Put one item of `name` from the inventory into grid slot `dest` of the open window (pick up, right-click, put back). */
async function putOne(bot: Bot, name: string, dest: number): Promise<void> {
  const window = bot.currentWindow ?? bot.inventory;
  const source = window.slots.findIndex((item, slot) => item?.name === name && slot >= window.inventoryStart);
  if (source < 0) throw new Error(`no ${name} to put in the grid`);
  await bot.clickWindow(source, 0, 0);
  await bot.clickWindow(dest, 1, 0);
  await bot.clickWindow(source, 0, 0);
}

describe('crafting in the embedded world', () => {
  it('GIVEN 3 oak logs WHEN the bot crafts planks, sticks and a crafting table in its 2×2 grid THEN it has them and both inventories are equal after each', async () => {
    const game = await avatar('ada', [['oak_log', 3]]);
    const bot = game.bot!;
    await bot.craft(recipeFor(bot, 'oak_planks', null), 3);
    expect(count(bot, 'oak_planks')).toBe(12);
    expect(count(bot, 'oak_log')).toBe(0);
    await expectSameInventory(game);

    await bot.craft(recipeFor(bot, 'stick', null), 2);
    expect(count(bot, 'stick')).toBe(8);
    expect(count(bot, 'oak_planks')).toBe(8);
    await expectSameInventory(game);

    await bot.craft(recipeFor(bot, 'crafting_table', null), 1);
    expect(count(bot, 'crafting_table')).toBe(1);
    expect(count(bot, 'oak_planks')).toBe(4);
    const server = await expectSameInventory(game);
    expect(Object.values(server).sort()).toEqual(['crafting_table×1', 'oak_planks×4', 'stick×8']);
  });

  it('GIVEN planks, sticks and cobblestone WHEN the bot crafts a wooden and a stone pickaxe at a table THEN it has both, the table window is closed and the inventories are equal', async () => {
    const game = await avatar('bea', [['oak_planks', 3], ['stick', 4], ['cobblestone', 3]]);
    const bot = game.bot!;
    const table = await tableNextTo(bot);
    expect(bot.recipesFor(bot.registry.itemsByName.wooden_pickaxe!.id, null, 1, null)).toEqual([]);
    await bot.craft(recipeFor(bot, 'wooden_pickaxe', table), 1, table);
    expect(count(bot, 'wooden_pickaxe')).toBe(1);
    await expectSameInventory(game);

    await bot.craft(recipeFor(bot, 'stone_pickaxe', table), 1, table);
    expect(count(bot, 'stone_pickaxe')).toBe(1);
    expect(count(bot, 'cobblestone')).toBe(0);
    expect(count(bot, 'stick')).toBe(0);
    expect(bot.currentWindow).toBeNull();
    const server = await expectSameInventory(game);
    expect(Object.values(server).sort()).toEqual(['stone_pickaxe×1', 'wooden_pickaxe×1']);
    expect((await shared.world.inventory('bea')).tableOpen).toBe(false);
  });

  it('GIVEN a shaped recipe laid out mirrored and a shapeless one WHEN the grid is filled by hand THEN the result slot shows the item and taking it crafts it', async () => {
    const game = await avatar('cai', [['oak_planks', 3], ['stick', 2], ['iron_ingot', 1], ['flint', 1]]);
    const bot = game.bot!;
    const table = await tableNextTo(bot);
    const window = await openTable(bot, table);
    // A wooden axe is "PP / PS / _S"; mirrored it is "PP / SP / S_" (grid slots 1–9, row by row).
    await putOne(bot, 'oak_planks', 1);
    await putOne(bot, 'oak_planks', 2);
    await putOne(bot, 'stick', 4);
    await putOne(bot, 'oak_planks', 5);
    await putOne(bot, 'stick', 7);
    expect(window.slots[0]?.name).toBe('wooden_axe');
    await bot.clickWindow(0, 0, 1);
    await waitFor(() => count(bot, 'wooden_axe') === 1 || window.slots.some((i) => i?.name === 'wooden_axe' && i.slot >= 10), 10_000, 'the axe');
    expect(window.slots.slice(1, 10).every((i) => !i)).toBe(true);

    // Shapeless: flint and steel from an iron ingot and a flint, in any two slots.
    await putOne(bot, 'flint', 9);
    await putOne(bot, 'iron_ingot', 3);
    expect(window.slots[0]?.name).toBe('flint_and_steel');
    await bot.clickWindow(0, 0, 1);
    await waitFor(() => window.slots.some((i) => i?.name === 'flint_and_steel' && i.slot >= 10), 10_000, 'the flint and steel');
    bot.closeWindow(window);
    await waitFor(() => count(bot, 'flint_and_steel') === 1 && count(bot, 'wooden_axe') === 1, 10_000, 'the crafted items in the inventory');
    const server = await expectSameInventory(game);
    expect(Object.values(server).sort()).toEqual(['flint_and_steel×1', 'wooden_axe×1']);
  });

  it('GIVEN a stack of 5 logs in the 2×2 grid WHEN the result is shift-clicked THEN all 20 planks are crafted at once and the inventories are equal', async () => {
    const game = await avatar('dov', [['oak_log', 5]]);
    const bot = game.bot!;
    const source = bot.inventory.slots.findIndex((i) => i?.name === 'oak_log');
    await bot.clickWindow(source, 0, 0);
    await bot.clickWindow(1, 0, 0);
    expect(bot.inventory.slots[0]?.name).toBe('oak_planks');
    await bot.clickWindow(0, 0, 1);
    await waitFor(() => count(bot, 'oak_planks') === 20, 10_000, '20 planks');
    expect(bot.inventory.slots[1]).toBeNull();
    expect(bot.inventory.slots[0]).toBeNull();
    const server = await expectSameInventory(game);
    expect(Object.values(server)).toEqual(['oak_planks×20']);
  });

  it('GIVEN four honey bottles WHEN the bot crafts a honey block THEN the four empty bottles are left over in its inventory', async () => {
    const game = await avatar('eda', [['honey_bottle', 4]]);
    const bot = game.bot!;
    await bot.craft(recipeFor(bot, 'honey_block', null), 1);
    await waitFor(() => count(bot, 'glass_bottle') === 4, 10_000, 'the bottles');
    expect(count(bot, 'honey_block')).toBe(1);
    expect(count(bot, 'honey_bottle')).toBe(0);
    const server = await expectSameInventory(game);
    expect(Object.values(server).sort()).toEqual(['glass_bottle×4', 'honey_block×1']);
  });

  it('GIVEN a log in the table grid and a full inventory WHEN the table is closed THEN the log is dropped, and picked up again once there is room', async () => {
    const game = await avatar('fen', [['oak_log', 1]]);
    const bot = game.bot!;
    // Away from the other avatars at spawn: a dropped item goes to whoever is nearest with room.
    await teleportAndSettle(shared.world, game, { x: -4.5, y: 64, z: 4.5 });
    const table = await tableNextTo(bot);
    const window = await openTable(bot, table);
    await putOne(bot, 'oak_log', 5);
    expect(window.slots[0]?.name).toBe('oak_planks');
    await shared.world.give('fen', 'dirt', 36 * 64);
    // While the table is open the server sends the player's slots as the table window's (slots 10–45).
    await waitFor(() => window.slots.slice(10, 46).filter((i) => i?.name === 'dirt' && i.count === 64).length === 36, 10_000, 'a full inventory');
    bot.closeWindow(window);
    // The log could not go back: it lies on the ground. Make room and it is picked up again.
    await expectSameInventory(game);
    expect(count(bot, 'oak_log')).toBe(0);
    await shared.world.clearInventory('fen');
    await waitFor(() => count(bot, 'oak_log') === 1, 15_000, 'the dropped log picked up');
    const server = await expectSameInventory(game);
    expect(Object.values(server)).toEqual(['oak_log×1']);
  });

  it('GIVEN an open table with planks in its grid WHEN the player is moved away THEN the server closes the window and the planks come back', async () => {
    const game = await avatar('gus', [['oak_planks', 2]]);
    const bot = game.bot!;
    const table = await tableNextTo(bot);
    const window = await openTable(bot, table);
    await putOne(bot, 'oak_planks', 1);
    await putOne(bot, 'oak_planks', 2);
    const closed = nextEvent(bot, 'windowClose', 15_000);
    const p = bot.entity.position;
    await shared.world.teleport('gus', { x: p.x + 20, y: p.y, z: p.z });
    await closed;
    expect(bot.currentWindow).toBeNull();
    expect(window.slots[1]?.name).toBe('oak_planks');
    await waitFor(() => count(bot, 'oak_planks') === 2, 10_000, 'the planks back');
    const server = await expectSameInventory(game);
    expect(Object.values(server)).toEqual(['oak_planks×2']);
    expect((await shared.world.inventory('gus')).tableOpen).toBe(false);
  });

  it('GIVEN sticks in the grid of an open table WHEN the player leaves and comes back THEN the sticks are in its inventory', async () => {
    const game = await avatar('hal', [['stick', 3]]);
    const bot = game.bot!;
    const table = await tableNextTo(bot);
    await openTable(bot, table);
    await putOne(bot, 'stick', 5);
    await game.stop();
    const again = await connectedGame(shared.world, 'hal', log);
    games.push(again);
    await waitFor(() => count(again.bot!, 'stick') === 3, 10_000, 'three sticks after rejoining');
    await expectSameInventory(again);
  });

  it('GIVEN nonsense clicks (slots out of range, an unknown mode, a closed window, a made-up cursor) THEN nothing changes and the client is told the truth', async () => {
    const game = await avatar('ivy', [['oak_log', 2]]);
    const bot = game.bot!;
    const before = (await serverSlots(shared.world, 'ivy')).slots;
    const click = (fields: Record<string, unknown>): void =>
      bot._client.write('window_click', { windowId: 0, stateId: -1, slot: 0, mouseButton: 0, mode: 0, changedSlots: [], cursorItem: { itemCount: 0 }, ...fields });
    click({ slot: 999 });
    click({ slot: -5, mode: 1 });
    click({ slot: 36, mode: 7 });
    click({ windowId: 42, slot: 36 });
    click({ slot: 36, mode: 2, mouseButton: 40 });
    click({ slot: 10, changedSlots: [{ location: 10, item: { itemCount: 64, itemId: bot.registry.itemsByName.diamond!.id, addedComponentCount: 0, removedComponentCount: 0, components: [], removeComponents: [] } }] });
    // The last one claimed 64 diamonds in slot 10: the server's answer (the whole window) puts the client right.
    const synced = nextEvent(bot, 'setWindowItems:0', 10_000);
    click({ slot: -999, mode: 5, mouseButton: 2 });
    await synced;
    expect((await serverSlots(shared.world, 'ivy')).slots).toEqual(before);
    expect(count(bot, 'diamond')).toBe(0);
    await expectSameInventory(game);
  });
});
