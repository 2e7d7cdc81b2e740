/**
 * smelt: make N more of an item in a furnace (iron ingots from raw iron, cooked beef from raw beef, glass,
 * charcoal…): walks to a furnace within 48 blocks (placing a carried one when there is none), puts the input
 * and enough fuel in, waits beside it and takes the output out. Fuel is chosen from what is carried: coal or
 * charcoal first, then planks, sticks, logs (never the item being smelted). Recipes and burn times:
 * src/game/smelting.ts.
 */
import type { Bot, Furnace } from 'mineflayer';
import type { Item } from 'prismarine-item';
import { z } from 'zod';
import { findBlockFast } from '../src/game/block-search.ts';
import type { Skill, SkillResult } from '../src/game/skill.ts';
import { COOK_TICKS, fuelTicks, smeltInputs, smeltsInto } from '../src/game/smelting.ts';
import { done, fail, goals, noWindow, onBot, readyToOpen, sleep, walk } from './common.ts';
import { itemQuery, matchesItem } from './items.ts';
import { placeItem } from './place.ts';

const params = z.object({
  item: z.string().min(1).max(64),
  count: z.number().int().min(1).max(64).default(1),
});

/** Fuels in the order they are used up. */
const FUEL_ORDER: ReadonlyArray<(name: string) => boolean> = [
  (n) => n === 'coal' || n === 'charcoal',
  (n) => n.endsWith('_planks'),
  (n) => n === 'stick',
  (n) => n.endsWith('_log') || n.endsWith('_wood'),
  (n) => n.endsWith('_sapling'),
  (n) => n === 'coal_block',
];
/** Ticks of a furnace a second. */
const TICKS_PER_SECOND = 20;

/** The output and the inputs for a query: an output (`iron_ingot`) or an input carried (`raw_iron`, `log`). */
function recipeFor(bot: Bot, query: string): { output: string; inputs: readonly string[] } | null {
  if (smeltInputs(query).length > 0) return { output: query, inputs: smeltInputs(query) };
  const carried = bot.inventory.items().find((i) => matchesItem(query, i.name) && smeltsInto(i.name));
  const name = carried?.name ?? (smeltsInto(query) ? query : undefined);
  const output = name ? smeltsInto(name) : undefined;
  if (!name || !output) return null;
  // Every input of that output will do (logs of any kind make charcoal).
  return { output, inputs: smeltInputs(output) };
}

function carried(bot: Bot, names: readonly string[]): Item[] {
  return bot.inventory.items().filter((i) => names.includes(i.name));
}

const total = (items: Item[]): number => items.reduce((n, i) => n + i.count, 0);

/** The fuel to add for `ticks` more burning, not burning the input: an item type and how many. */
function chooseFuel(bot: Bot, ticks: number, inputs: readonly string[], inSlot: Item | null): { type: number; count: number } | null {
  const usable = bot.inventory.items().filter((i) => fuelTicks(i.name) > 0 && !inputs.includes(i.name));
  // A fuel already in the slot can only be topped up with the same kind.
  const candidates = inSlot ? usable.filter((i) => i.type === inSlot.type) : usable;
  for (const fits of FUEL_ORDER) {
    const item = candidates.find((i) => fits(i.name));
    if (!item) continue;
    const count = Math.min(total(candidates.filter((i) => i.type === item.type)), Math.ceil(ticks / fuelTicks(item.name)), 64 - (inSlot?.count ?? 0));
    if (count > 0) return { type: item.type, count };
  }
  return null;
}

/** A furnace to use: one within 48 blocks, or the one carried set down (`placed`: where). */
async function furnaceBlock(bot: Bot, sig: AbortSignal) {
  const id = bot.registry.blocksByName.furnace?.id ?? -1;
  // Farther than the planner's reach (30 blocks), so a furnace it counted on is found.
  let block = findBlockFast(bot, [id], 48);
  let placed: SkillResult['placed'];
  if (!block && bot.inventory.items().some((i) => i.name === 'furnace')) {
    const put = await placeItem(bot, sig, { item: 'furnace' });
    // Somewhere else there may be room: not a missing material.
    if (!put.ok) return { block: null, placed, code: 'no_target', why: `could not place my furnace: ${put.detail}` };
    placed = put.placed;
    block = findBlockFast(bot, [id], 8);
  }
  return { block, placed, code: 'missing_material', why: 'no furnace within 48 blocks and none carried' };
}

/** The `smelt` skill. */
export const smelt: Skill<typeof params> = {
  id: 'smelt',
  description: 'Smelt count more of item (iron_ingot, cooked_beef…) in a furnace, placing a carried one if none is near.',
  params,
  timeoutMs: 64 * 11_000 + 60_000,
  run(game, { item, count }, signal) {
    // Counted from the first attempt: a run a reflex interrupted makes only what is still missing.
    let target: number | undefined;
    // A furnace set down stays, whatever the run comes to: its result says where.
    let placedFurnace: SkillResult['placed'];
    return onBot(game, 'smelt', signal, async (bot, sig) => {
      const recipe = recipeFor(bot, itemQuery(item));
      if (!recipe) return fail('bad_params', `${item} cannot be smelted in a furnace`);
      const { output, inputs } = recipe;
      const outputId = bot.registry.itemsByName[output]?.id;
      if (outputId === undefined) return fail('bad_params', `there is no item called ${output} here`);
      const held = (): number => bot.inventory.count(outputId, null);
      target ??= held() + count;
      const { block, placed, code, why } = await furnaceBlock(bot, sig);
      placedFurnace ??= placed;
      if (!block) return fail(code, why);
      if (bot.entity.position.distanceTo(block.position.offset(0.5, 0.5, 0.5)) > 3.5) {
        await walk(bot, new goals.GoalNear(block.position.x, block.position.y, block.position.z, 2), sig, 'to the furnace');
      }
      await readyToOpen(bot, block);
      const window = await bot.openFurnace(block).catch((err: unknown) => {
        if (noWindow(err)) return null;
        throw err;
      });
      // Somewhere else a furnace may open (the engine looks around before it tries again): not a missing material.
      if (!window) return fail('no_target', `the furnace at ${block.position.x} ${block.position.y} ${block.position.z} did not open`);
      try {
        if (window.outputItem()) await window.takeOutput();
        let left = target - held();
        if (left <= 0) return done(`smelted ${count} ${output}`);
        const there = window.inputItem();
        if (there && !inputs.includes(there.name)) await window.takeInput();
        const inSlot = window.inputItem();
        const own = carried(bot, inSlot ? [inSlot.name] : inputs);
        const put = Math.min(Math.max(0, left - (inSlot?.count ?? 0)), total(own), 64 - (inSlot?.count ?? 0));
        if (put === 0 && !inSlot) return fail('missing_material', `I have no ${inputs[0]} to smelt into ${output}`);
        const first = own[0];
        if (put > 0 && first) await window.putInput(first.type, null, put);
        const smelting = (window.inputItem()?.count ?? 0);
        // Enough fuel for what is in: what burns now and what lies in the fuel slot count already.
        // mineflayer reads the fuel left into fuelSeconds (its types leave it out); null before the first update.
        const burning = ((window as Furnace & { fuelSeconds?: number | null }).fuelSeconds ?? 0) * TICKS_PER_SECOND;
        const fuelItem = window.fuelItem();
        const inFuelSlot = fuelItem ? fuelTicks(fuelItem.name) * fuelItem.count : 0;
        const ticks = smelting * COOK_TICKS - burning - inFuelSlot;
        if (ticks > 0) {
          const fuel = chooseFuel(bot, ticks, inputs, fuelItem);
          if (fuel) await window.putFuel(fuel.type, null, fuel.count);
          else if (burning <= 0 && !fuelItem) return fail('missing_material', 'I have nothing to burn in the furnace');
        }
        // Wait beside it, taking the output out as it comes.
        let quietSince = Date.now();
        let lastOut = -1;
        const deadline = Date.now() + smelting * (COOK_TICKS / TICKS_PER_SECOND) * 1000 * 1.2 + 10_000;
        while (Date.now() < deadline) {
          const out = window.outputItem()?.count ?? 0;
          const input = window.inputItem()?.count ?? 0;
          if (input === 0 && out === 0) break;
          if (out !== lastOut) {
            lastOut = out;
            quietSince = Date.now();
          }
          if (out > 0 && (out >= left || input === 0)) {
            await window.takeOutput();
            left = target - held();
            lastOut = -1;
            if (left <= 0 || (window.inputItem()?.count ?? 0) === 0) break;
          }
          // Nothing came for 15 s with input still in: the fuel ran out.
          if (input > 0 && Date.now() - quietSince > 15_000) break;
          await sleep(250, sig);
        }
      } finally {
        window.close();
      }
      const made = held() - (target - count);
      if (held() >= target) return done(`smelted ${made} ${output} (now carrying ${held()})`);
      if (made > 0) return fail('missing_material', `smelted ${made} of ${count} ${output}: I ran out of input or fuel`);
      return fail('missing_material', `the furnace made no ${output}: I ran out of fuel`);
    }).then((r) => (placedFurnace ? { ...r, placed: placedFurnace } : r));
  },
};
