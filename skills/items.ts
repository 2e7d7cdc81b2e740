/**
 * Item names for skills: what a phrase like "oak logs", "wood" or "stone"
 * means, and which blocks give it when mined.
 *
 * The naming rules themselves live in `src/game/items.ts` (the goal language
 * and the loop's completion check use them); this file accepts raw phrases and
 * adds the block side that only skills need.
 */
import type { Bot } from 'mineflayer';
import { matchesItem as matchesNormalised, normaliseItem } from '../src/game/items.ts';

/**
 * The registry-style name or group of a phrase: `oak logs` → `oak_log`, `wood` → `log`, `stone` → `cobblestone`.
 * Falls back to the phrase with spaces as underscores.
 */
export function itemQuery(phrase: string): string {
  return normaliseItem(phrase) ?? phrase.trim().toLowerCase().replace(/\s+/g, '_');
}

/**
 * Does an item (registry name) satisfy a query (a name, a group or a phrase)?
 * `log`/`logs`/`wood` → any `*_log`; `oak logs` → `oak_log`; `stone` → `cobblestone` or `stone`; plurals and spaces are fine.
 *
 * @example
 * matchesItem('logs', 'birch_log')     // → true
 * matchesItem('oak logs', 'oak_log')   // → true
 * matchesItem('stone', 'cobblestone')  // → true
 * matchesItem('oak_log', 'spruce_log') // → false
 */
export function matchesItem(query: string, itemName: string): boolean {
  return matchesNormalised(itemQuery(query), itemName.replace(/^minecraft:/, ''));
}

/** How many items matching `query` the bot carries. */
export function countCarried(bot: Bot, query: string): number {
  const q = itemQuery(query);
  let n = 0;
  for (const item of bot.inventory.items()) if (matchesNormalised(q, item.name)) n += item.count;
  return n;
}

/**
 * Block ids whose (non-silk-touch) drop matches `query`, plus blocks named like it:
 * `log` → every log, `cobblestone` → stone and cobblestone, `dirt` → dirt and grass blocks, `coal` → coal ores.
 */
export function blocksYielding(bot: Bot, query: string): number[] {
  const q = itemQuery(query);
  const loot = (bot.registry as unknown as { blockLoot?: Record<string, { drops: Array<{ item: string; silkTouch?: boolean }> }> }).blockLoot ?? {};
  const out: number[] = [];
  for (const block of Object.values(bot.registry.blocksByName)) {
    if (block.name.endsWith('_leaves')) {
      // Leaves drop saplings, sticks and apples by chance; only mine them when leaves or those are asked for by name.
      if (!matchesNormalised(q, block.name) && !['stick', 'apple'].includes(q) && !q.endsWith('_sapling')) continue;
    }
    const drops = loot[block.name]?.drops.filter((d) => !d.silkTouch).map((d) => d.item) ?? [block.name];
    if (matchesNormalised(q, block.name) || drops.some((d) => matchesNormalised(q, d))) out.push(block.id);
  }
  return out;
}
