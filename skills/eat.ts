/**
 * eat: eat the most filling food carried.
 */
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, onBot } from './common.ts';

const params = z.object({});

/** The `eat` skill. */
export const eat: Skill<typeof params> = {
  id: 'eat',
  description: 'Eat the most filling food in the inventory (when hungry).',
  params,
  timeoutMs: 10_000,
  run(game, _params, signal) {
    return onBot(game, 'eat', signal, async (bot) => {
      const foods = bot.registry.foodsByName;
      const food = bot.inventory
        .items()
        .filter((i) => foods[i.name])
        .sort((a, b) => (foods[b.name]?.foodPoints ?? 0) - (foods[a.name]?.foodPoints ?? 0))[0];
      if (!food) return fail('no_food', 'I have nothing to eat');
      if (bot.food >= 20) return { ok: true, code: 'not_hungry', detail: 'I am not hungry' };
      await bot.equip(food, 'hand');
      await bot.consume();
      return done(`ate ${food.name} (food ${bot.food}/20)`);
    });
  },
};
