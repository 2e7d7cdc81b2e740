/**
 * craft: craft an item from the inventory, placing a crafting table when the recipe needs one.
 *
 * On a server without crafting (capabilities) the skill refuses at once with `unsupported_by_server`;
 * the embedded world crafts through mindlink's server plugin (src/game/embedded/crafting.cjs). Each click is
 * answered by the server before the next is planned (craft-clicks.ts), so an item picked up meanwhile cannot
 * spoil a craft.
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import { z } from 'zod';
import { findBlockFast } from '../src/game/block-search.ts';
import type { Skill, SkillResult } from '../src/game/skill.ts';
import { checkAborted, done, fail, goals, onBot, walk, withinReach } from './common.ts';
import { craftByClicks } from './craft-clicks.ts';
import { itemQuery } from './items.ts';
import { settleInventory } from './inventory-settle.ts';
import { placeItem } from './place.ts';

const params = z.object({
  item: z.string().min(1).max(64),
  count: z.number().int().min(1).max(256).default(1),
});

/** Crafts tried in one run: one that falls short (an ingredient gone, a click unanswered) is tried again. */
const CRAFT_ATTEMPTS = 3;

/** How far the skill looks for a crafting table to walk to. */
const TABLE_SEARCH = 48;
/** A table farther than this is not walked to when one is carried (the planner's own reach for a table, `TABLE_REACH`). */
const CARRIED_TABLE_FIRST = 12;

/** A concrete item for a group name: `planks` → the planks of a log species carried, `log` → oak_log. */
function concreteItem(bot: Bot, query: string): string {
  if (query === 'planks') {
    const log = bot.inventory.items().find((i) => i.name.endsWith('_log'));
    return log ? log.name.replace(/_log$/, '_planks') : 'oak_planks';
  }
  if (query === 'log') return 'oak_log';
  return query;
}

/** The `craft` skill. */
export const craft: Skill<typeof params> = {
  id: 'craft',
  description: 'Craft count of an item (planks, stick, crafting_table, wooden_pickaxe…) from the inventory; places a crafting table if needed.',
  params,
  timeoutMs: 60_000,
  preconditions(game) {
    if (!game.capabilities.crafting) return fail('unsupported_by_server', 'this server does not support crafting');
    return null;
  },
  run(game, { item, count }, signal) {
    if (!game.capabilities.crafting) return Promise.resolve(fail('unsupported_by_server', 'this server does not support crafting'));
    // Counted from the first attempt: a run a reflex interrupted crafts only what is still missing.
    let target: number | undefined;
    // A table set down stays, whatever the run comes to: its result says where.
    let placedTable: SkillResult['placed'];
    const withTable = (r: SkillResult): SkillResult => (placedTable ? { ...r, placed: placedTable } : r);
    return onBot(game, 'craft', signal, async (bot, sig) => {
      const name = concreteItem(bot, itemQuery(item));
      const def = bot.registry.itemsByName[name];
      if (!def) return fail('bad_params', `there is no item called ${item}`);
      target ??= bot.inventory.count(def.id, null) + count;
      const missing = target - bot.inventory.count(def.id, null);
      if (missing <= 0) return done(`crafted ${count} ${name}`);
      // Farther than the planner's reach, so a table it counted on is found; but a table carried is placed here rather
      // than walking far (up out of a mine, say) to one.
      let table: Block | null = findBlockFast(bot, [bot.registry.blocksByName.crafting_table?.id ?? -1], TABLE_SEARCH);
      const carried = bot.inventory.items().some((i) => i.name === 'crafting_table');
      if (table && carried && table.position.distanceTo(bot.entity.position) > CARRIED_TABLE_FIRST) table = null;
      let recipe = bot.recipesFor(def.id, null, 1, null)[0] ?? (table ? bot.recipesFor(def.id, null, 1, table)[0] : undefined);
      if (!recipe) {
        const needsTable = bot.recipesAll(def.id, null, true).length > 0;
        if (needsTable && !table && carried && bot.recipesFor(def.id, null, 1, true as unknown as Block).length > 0) {
          // Placed within this skill's turn at the gate (running the place skill here would wait for this one to end).
          const placed = await placeItem(bot, sig, { item: 'crafting_table' });
          if (!placed.ok) return fail('no_target', `could not place a crafting table: ${placed.detail}`);
          placedTable = placed.placed;
          // The table just set down, where it was set (a search could pick another, or none while the world lags).
          const at = placed.placed ? bot.blockAt(bot.entity.position.floored().set(placed.placed.x, placed.placed.y, placed.placed.z)) : null;
          table = at?.name === 'crafting_table' ? at : findBlockFast(bot, [bot.registry.blocksByName.crafting_table?.id ?? -1], 8);
          if (!table) return fail('not_placed', 'the crafting table I set down is gone');
          recipe = bot.recipesFor(def.id, null, 1, table)[0];
        }
        if (!recipe) {
          if (bot.recipesAll(def.id, null, null).length === 0 && !needsTable) return fail('bad_params', `${name} cannot be crafted`);
          return fail('missing_material', `I lack the ingredients for ${name}`);
        }
      }
      const useTable = recipe.requiresTable ? table : null;
      if (useTable && !withinReach(bot, useTable)) {
        await walk(bot, new goals.GoalNear(useTable.position.x, useTable.position.y, useTable.position.z, 2), sig, 'to the crafting table');
      }
      await settleInventory(bot, sig);
      const before = bot.inventory.count(def.id, null);
      let failure: unknown;
      for (let attempt = 1; attempt <= CRAFT_ATTEMPTS; attempt++) {
        checkAborted(sig);
        const left = target - bot.inventory.count(def.id, null);
        const now = bot.recipesFor(def.id, null, 1, useTable)[0];
        if (left <= 0 || !now) break;
        try {
          await craftByClicks(bot, now, Math.ceil(left / now.result.count), useTable, sig);
          failure = undefined;
        } catch (err) {
          // A click the server did not answer, or an ingredient gone: the settled inventory says what is left to do.
          failure = err;
        }
      }
      const made = bot.inventory.count(def.id, null) - before;
      if (made <= 0 && failure) throw failure;
      if (made <= 0) return fail('missing_material', `crafting ${name} made nothing`);
      return done(`crafted ${made} ${name}`);
    }).then(withTable);
  },
};
