/**
 * go_to: walk to a position.
 */
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, goals, onBot, walk } from './common.ts';

const params = z.object({
  x: z.number(),
  y: z.number(),
  z: z.number(),
  range: z.number().min(0).max(64).default(1),
});

/** The `go_to` skill. */
export const goTo: Skill<typeof params> = {
  id: 'go_to',
  description: 'Walk to x y z (within range blocks, default 1).',
  params,
  timeoutMs: 120_000,
  run(game, { x, y, z: zz, range }, signal) {
    return onBot(game, 'go_to', signal, async (bot, sig) => {
      await walk(bot, new goals.GoalNear(x, y, zz, range), sig, `to ${x} ${y} ${zz}`);
      const d = bot.entity.position.distanceTo(bot.entity.position.clone().set(x, y, zz));
      if (d > range + 1.5) return fail('unreachable', `stopped ${d.toFixed(1)} blocks short of ${x} ${y} ${zz}`);
      return done(`arrived at ${x} ${y} ${zz}`);
    });
  },
};
