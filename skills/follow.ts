/**
 * follow: keep within range of a player for a while.
 */
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, goals, notMyself, onBot, sleep } from './common.ts';

/** The shortest time between two re-aims at a player the follower fell behind. */
const REAIM_MS = 2000;

const params = z.object({
  player: z.string().min(1).max(32),
  range: z.number().min(1).max(32).default(3),
  durationMs: z.number().int().min(1000).max(600_000).default(30_000),
});

/** The `follow` skill. */
export const follow: Skill<typeof params> = {
  id: 'follow',
  description: 'Follow a player, staying within range blocks (default 3), for durationMs (default 30 s) or until stopped.',
  params,
  timeoutMs: 610_000,
  preconditions(game, { player }) {
    return notMyself(game, player, 'follow');
  },
  run(game, { player, range, durationMs }, signal) {
    return onBot(game, 'follow', signal, async (bot, sig) => {
      const target = bot.players[player]?.entity;
      if (!target) return fail('no_target', `I cannot see ${player}`);
      bot.pathfinder.setGoal(new goals.GoalFollow(target, range), true);
      const until = Date.now() + durationMs;
      let lostSince: number | undefined;
      let aimedAt = Date.now();
      try {
        while (Date.now() < until) {
          await sleep(250, sig);
          const seen = bot.players[player]?.entity;
          if (!seen || !bot.entities[seen.id]) {
            lostSince ??= Date.now();
            if (Date.now() - lostSince > 5000) return fail('no_target', `lost sight of ${player}`);
          } else {
            // GoalFollow moves its point only once the player is `range` away from it, so a follower can come to
            // rest up to twice the range behind a player who stopped: idle and out of range of where the player is
            // now (by the goal's own measure), it aims at them again (at most every 2 s: a player it cannot reach
            // must not make it search for a path four times a second).
            const behind = !bot.pathfinder.isMoving() && bot.entity.position.floored().distanceSquared(seen.position.floored()) > range * range;
            if ((lostSince !== undefined && seen !== target) || (behind && Date.now() - aimedAt >= REAIM_MS)) {
              bot.pathfinder.setGoal(new goals.GoalFollow(seen, range), true);
              aimedAt = Date.now();
            }
            lostSince = undefined;
          }
        }
      } finally {
        bot.pathfinder.setGoal(null);
      }
      return done(`followed ${player} for ${Math.round(durationMs / 1000)} s`);
    });
  },
};
