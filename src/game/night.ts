/**
 * The night an avatar keeps under a roof (docs/world.md, "Zombies at night"): monsters spawn on the open
 * sky from dusk, and the ones the dawn catches there burn for a while before they are gone. The goals an
 * avatar picks itself and the mining it does in that time stay under ground; the same clock says when the
 * sun is up for the shelter reflex.
 */

/** Monsters spawn on the open sky from this tick of the day until {@link MONSTERS_UNTIL_TICK} (vanilla's night). */
export const MONSTERS_FROM_TICK = 13_188;
/** The end of vanilla's night: a zombie under the open sky catches fire from here. */
export const MONSTERS_UNTIL_TICK = 22_812;
/** From this tick, about a minute before monsters spawn, an avatar goes under a roof: time to dig in first. */
export const UNDER_ROOF_FROM_TICK = 12_000;
/** Until this tick the avatar stays under it: vanilla's daylight, by when a zombie caught by the sun has burnt. */
export const UNDER_ROOF_UNTIL_TICK = 23_460;

/** The tick of the day, 0–23999, of any tick count (a negative one too). */
function tickOfDay(timeOfDay: number): number {
  return ((timeOfDay % 24_000) + 24_000) % 24_000;
}

/**
 * Whether the sun is up (vanilla's daylight: from tick 23,460 to 12,542).
 *
 * @example
 * isDaytime(6000) // → true
 * isDaytime(18_000) // → false
 */
export function isDaytime(timeOfDay: number): boolean {
  const t = tickOfDay(timeOfDay);
  return t < 12_542 || t >= UNDER_ROOF_UNTIL_TICK;
}

/**
 * Whether an avatar should be under a roof at this tick of the day: from a minute before monsters spawn until
 * daylight has burnt them.
 *
 * @example
 * keepUnderRoof(12_500) // → true
 * keepUnderRoof(23_000) // → true (zombies still burning)
 * keepUnderRoof(1000) // → false
 */
export function keepUnderRoof(timeOfDay: number): boolean {
  const t = tickOfDay(timeOfDay);
  return t >= UNDER_ROOF_FROM_TICK && t < UNDER_ROOF_UNTIL_TICK;
}

/**
 * What is mined under ground (stone and what lies in it): at night it is mined from under a roof.
 * Registry names and the goal language's group names (`stone`, `coal`, `iron`).
 */
const UNDERGROUND_ITEMS: ReadonlySet<string> = new Set([
  'stone', 'cobblestone', 'coal', 'coal_ore', 'raw_iron', 'iron', 'iron_ore', 'raw_copper', 'copper_ore', 'raw_gold', 'gold_ore',
  'redstone', 'redstone_ore', 'lapis_lazuli', 'lapis_ore', 'diamond', 'diamond_ore', 'emerald', 'emerald_ore',
  'deepslate', 'cobbled_deepslate', 'andesite', 'diorite', 'granite', 'tuff',
]);

/**
 * Whether an item is mined under ground (in stone).
 *
 * @example
 * minedUnderground('raw_iron') // → true
 * minedUnderground('oak_log') // → false
 */
export function minedUnderground(item: string): boolean {
  return UNDERGROUND_ITEMS.has(item) || UNDERGROUND_ITEMS.has(item.replace(/^deepslate_/, ''));
}
