/**
 * Furnace recipes and fuels (vanilla Java 1.21.4), for the planner and the smelt skill. The table itself is
 * `smelting.json`, which the embedded world's furnace reads too; minecraft-data ships crafting recipes only,
 * so it is written out from vanilla's rules for minecraft-data's item names (see its `about`).
 */
import { own } from '../keyed.ts';
import table from './smelting.json' with { type: 'json' };

/** Ticks one item takes in a furnace (10 s). */
export const COOK_TICKS: number = table.cookTicks;

const recipes = table.recipes as Readonly<Record<string, { from: readonly string[]; xp: number }>>;
const fuels = table.fuels as Readonly<Record<string, number>>;
const outputOf = new Map<string, string>();
for (const [output, { from }] of Object.entries(recipes)) for (const input of from) outputOf.set(input, output);

/**
 * What an item smelts into, or undefined.
 *
 * @example
 * smeltsInto('raw_iron'); // 'iron_ingot'
 * smeltsInto('dirt');     // undefined
 */
export function smeltsInto(input: string): string | undefined {
  return outputOf.get(input);
}

/**
 * The items that smelt into `output` (the first is the usual one), or an empty list.
 *
 * @example
 * smeltInputs('cooked_beef'); // ['beef']
 */
export function smeltInputs(output: string): readonly string[] {
  return own(recipes, output)?.from ?? [];
}

/** How many ticks an item burns as fuel (0: it is no fuel). */
export function fuelTicks(item: string): number {
  return own(fuels, item) ?? 0;
}
