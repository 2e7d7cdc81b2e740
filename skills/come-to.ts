/**
 * come_to: walk up to a player.
 */
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, goals, notMyself, onBot, walk } from './common.ts';

const params = z.object({ player: z.string().min(1).max(32) });

/** The `come_to` skill. */
export const comeTo: Skill<typeof params> = {
  id: 'come_to',
  description: 'Walk up to a player (within 2 blocks).',
  params,
  timeoutMs: 120_000,
  preconditions(game, { player }) {
    return notMyself(game, player, 'come to');
  },
  run(game, { player }, signal) {
    return onBot(game, 'come_to', signal, async (bot, sig) => {
      const target = bot.players[player]?.entity;
      if (!target) return fail('no_target', `I cannot see ${player}`);
      await walk(bot, new goals.GoalFollow(target, 2), sig, `to ${player}`);
      return done(`came to ${player}`);
    });
  },
};
