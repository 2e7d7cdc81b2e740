/**
 * Furnaces in the embedded shared.world, with real mineflayer: the vanilla window and properties `openFurnace` reads,
 * smelting with fuel, the output taken out, a furnace that keeps burning with its window closed and across a
 * world restart, and one that is broken dropping what it held.
 */
import { describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import { Vec3 } from 'vec3';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { connectedGame, held, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('furnace');
const { log, games } = shared;

const id = (bot: Bot, name: string): number => bot.registry.itemsByName[name]!.id;

/** A bot at (x, 64, z) with these items, and a furnace placed next to it. */
async function atFurnace(name: string, x: number, z: number, items: Array<[string, number]>): Promise<{ game: MineflayerGame; bot: Bot; furnace: Vec3 }> {
  const { game, bot } = await shared.avatar(name, x, z, items);
  const furnace = new Vec3(x + 1, 64, z);
  await shared.world.setBlock(furnace, 'furnace');
  await waitFor(() => bot.blockAt(furnace)?.name === 'furnace', 10_000, 'the furnace');
  return { game, bot, furnace };
}

describe('furnaces in the embedded world', () => {
  it('GIVEN a furnace, iron ore and coal WHEN the bot puts them in THEN the furnace burns, reports its progress, and the bot takes out an iron ingot', async () => {
    const { bot, furnace } = await atFurnace('fern', -4, -3, [['iron_ore', 1], ['coal', 1]]);
    const window = await bot.openFurnace(bot.blockAt(furnace)!);
    expect(window.type).toBe('minecraft:furnace');
    await window.putInput(id(bot, 'iron_ore'), null, 1);
    await window.putFuel(id(bot, 'coal'), null, 1);
    let sawProgress = false;
    window.on('update', () => {
      if ((window.progress ?? 0) > 0 && (window.fuel ?? 0) > 0) sawProgress = true;
    });
    await waitFor(() => window.outputItem()?.name === 'iron_ingot', 20_000, 'an iron ingot in the output slot');
    expect(sawProgress).toBe(true);
    // What mineflayer's openFurnace reads from the properties (its types leave these out).
    const totals = window as unknown as { totalFuelSeconds: number; totalProgressSeconds: number };
    expect(totals.totalFuelSeconds).toBe(80); // coal burns 1600 ticks
    expect(totals.totalProgressSeconds).toBe(10); // 200 ticks an item
    expect(window.inputItem()).toBeFalsy();
    expect(window.fuelItem()).toBeFalsy();
    expect(bot.blockAt(furnace)?.getProperties().lit).toBe(true);
    await window.takeOutput();
    window.close();
    await waitFor(() => held(bot, 'iron_ingot') === 1, 10_000, 'the ingot in the inventory');
    const server = await shared.world.inventory('fern');
    expect(Object.values(server.slots).filter((i) => i.name === 'iron_ingot')).toEqual([{ name: 'iron_ingot', count: 1 }]);
    expect((await shared.world.furnace(furnace))?.output ?? null).toBeNull();
  });

  it('GIVEN a player placing items by hand THEN the output slot takes nothing and the fuel slot takes only fuel', async () => {
    const { bot, furnace } = await atFurnace('gus', -1, -3, [['dirt', 2]]);
    const window = await bot.openFurnace(bot.blockAt(furnace)!);
    const dirtSlot = window.findInventoryItem(id(bot, 'dirt'), null, false)!.slot;
    await bot.clickWindow(dirtSlot, 0, 0); // pick the dirt up
    await bot.clickWindow(2, 0, 0); // onto the output slot: refused
    await bot.clickWindow(1, 0, 0); // onto the fuel slot: refused
    await bot.clickWindow(0, 0, 0); // onto the input slot: taken
    window.close();
    await waitFor(() => held(bot, 'dirt') === 0, 10_000, 'the dirt gone from the inventory');
    const state = await shared.world.furnace(furnace);
    expect(state).toMatchObject({ input: { name: 'dirt', count: 2 }, fuel: null, output: null });
    const inv = await shared.world.inventory('gus');
    expect(inv.cursor).toBeNull();
  });

  it('GIVEN a burning furnace whose window was closed WHEN the world restarts before it is done THEN it carries on, its output is there after the restart, and the clock goes on from where it was', async () => {
    const { game, bot, furnace } = await atFurnace('hal', 2, -3, [['raw_iron', 3], ['coal', 1]]);
    const window = await bot.openFurnace(bot.blockAt(furnace)!);
    await window.putInput(id(bot, 'raw_iron'), null, 3);
    await window.putFuel(id(bot, 'coal'), null, 1);
    window.close();
    // Nobody watches: it burns on.
    const burning = async (): Promise<boolean> => ((await shared.world.furnace(furnace))?.cook ?? 0) > 20;
    for (let i = 0; i < 200 && !(await burning()); i++) await new Promise((r) => setTimeout(r, 50));
    const before = await shared.world.furnace(furnace);
    expect(before?.lit).toBe(true);
    expect(before?.input?.count ?? 0).toBeGreaterThan(0);

    // The clock is kept across the restart too.
    await shared.world.command('time set 14000');
    await game.stop();
    const port = shared.world.port;
    await shared.world.stop();
    await shared.startAgain(port);
    const after = await shared.world.furnace(furnace);
    expect(after?.burn ?? 0).toBeGreaterThan(0);
    expect((after?.input?.count ?? 0) + (after?.output?.count ?? 0)).toBe(3);

    const again = await connectedGame(shared.world, 'hal', log);
    games.push(again);
    const b = again.bot!;
    await waitFor(() => b.blockAt(furnace)?.name === 'furnace', 10_000, 'the furnace after the restart');
    await waitFor(() => b.time.timeOfDay >= 14_000, 10_000, 'the clock where it was');
    expect(b.time.timeOfDay).toBeLessThan(17_000);
    const w = await b.openFurnace(b.blockAt(furnace)!);
    await waitFor(() => w.outputItem()?.count === 3, 60_000, 'three iron ingots');
    await w.takeOutput();
    w.close();
    await waitFor(() => held(b, 'iron_ingot') === 3, 10_000, 'the ingots in the inventory');
    await waitFor(() => b.blockAt(furnace)?.getProperties().lit === true, 10_000, 'the furnace lit while coal is left');
  }, 180_000);

  it('GIVEN a furnace holding items WHEN it is broken THEN what it held drops where it stood', async () => {
    const { bot, furnace } = await atFurnace('ida', -4, 3, [['sand', 4], ['oak_planks', 1], ['wooden_pickaxe', 1]]);
    const window = await bot.openFurnace(bot.blockAt(furnace)!);
    await window.putInput(id(bot, 'sand'), null, 4);
    window.close();
    await waitFor(() => held(bot, 'sand') === 0, 10_000, 'the sand in the furnace');
    await bot.equip(bot.inventory.items().find((i) => i.name === 'wooden_pickaxe')!, 'hand');
    await bot.dig(bot.blockAt(furnace)!);
    await waitFor(() => held(bot, 'sand') === 4 && held(bot, 'furnace') === 1, 15_000, 'the sand and the furnace picked up');
    expect(await shared.world.furnace(furnace)).toBeNull();
  });
});
