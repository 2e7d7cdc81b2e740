/**
 * eat: eat the most filling food carried. Food that can make the eater ill in vanilla (rotten flesh, raw
 * chicken, spider eyes, poisonous potatoes, pufferfish) is eaten only when nothing else is carried and food
 * is at 6 or less.
 */
import type { Bot } from 'mineflayer';
import type { Item } from 'prismarine-item';
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, onBot } from './common.ts';

const params = z.object({});

/** Foods with a chance of a bad effect in vanilla. */
export const RISKY_FOODS: ReadonlySet<string> = new Set(['rotten_flesh', 'chicken', 'spider_eye', 'poisonous_potato', 'pufferfish', 'suspicious_stew']);
/** At or below this food level, risky food is eaten when there is nothing else. */
export const STARVING_AT = 6;

/** The food the bot would eat now, or undefined: the most filling safe one, or a risky one when starving. */
export function foodToEat(bot: Bot): Item | undefined {
  const foods = bot.registry.foodsByName;
  const edible = bot.inventory
    .items()
    .filter((i) => foods[i.name])
    .sort((a, b) => (foods[b.name]?.foodPoints ?? 0) - (foods[a.name]?.foodPoints ?? 0));
  return edible.find((i) => !RISKY_FOODS.has(i.name)) ?? (bot.food <= STARVING_AT ? edible[0] : undefined);
}

/** The `eat` skill. */
export const eat: Skill<typeof params> = {
  id: 'eat',
  description: 'Eat the most filling food in the inventory (when hungry).',
  params,
  timeoutMs: 10_000,
  run(game, _params, signal) {
    return onBot(game, 'eat', signal, async (bot) => {
      const food = foodToEat(bot);
      if (!food) {
        const risky = bot.inventory.items().find((i) => bot.registry.foodsByName[i.name]);
        return fail('no_food', risky ? `I only have ${risky.name}, which I eat only when starving` : 'I have nothing to eat');
      }
      if (bot.food >= 20) return { ok: true, code: 'not_hungry', detail: 'I am not hungry' };
      await bot.equip(food, 'hand');
      await bot.consume();
      return done(`ate ${food.name} (food ${bot.food}/20)`);
    });
  },
};
