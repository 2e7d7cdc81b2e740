/**
 * explore: walk to ground the avatar has not visited recently.
 */
import type { Bot } from 'mineflayer';
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { toSurface } from './climb.ts';
import { done, fail, goals, onBot, walk } from './common.ts';

const params = z.object({ distance: z.number().min(4).max(256).default(32) });

/** Places visited, per bot, for this long. */
const MEMORY_MS = 10 * 60_000;
const visits = new WeakMap<Bot, Array<{ x: number; z: number; at: number }>>();

function remember(bot: Bot): void {
  const list = (visits.get(bot) ?? []).filter((v) => Date.now() - v.at < MEMORY_MS);
  list.push({ x: bot.entity.position.x, z: bot.entity.position.z, at: Date.now() });
  visits.set(bot, list.slice(-50));
}

/** The `explore` skill. */
export const explore: Skill<typeof params> = {
  id: 'explore',
  description: 'Walk toward ground not visited lately (about distance blocks, default 32).',
  params,
  timeoutMs: 120_000,
  run(game, { distance }, signal) {
    return onBot(game, 'explore', signal, async (bot, sig) => {
      // New ground is found on the surface: out of a mine first.
      const stuck = await toSurface(bot, sig);
      if (stuck) return fail('unreachable', `could not get out from under ground: ${stuck}`);
      remember(bot);
      const here = bot.entity.position;
      const seen = visits.get(bot) ?? [];
      // Of 12 directions (randomly turned), take the one whose end point is farthest from every recent visit.
      const turn = Math.random() * Math.PI * 2;
      let best = { x: here.x + distance, z: here.z, score: -1 };
      for (let i = 0; i < 12; i++) {
        const a = turn + (i * Math.PI * 2) / 12;
        const x = here.x + Math.cos(a) * distance;
        const z = here.z + Math.sin(a) * distance;
        const score = Math.min(...seen.map((v) => Math.hypot(v.x - x, v.z - z)));
        if (score > best.score) best = { x, z, score };
      }
      const x = Math.round(best.x);
      const z = Math.round(best.z);
      await walk(bot, new goals.GoalNearXZ(x, z, 2), sig, `to ${x} ${z}`);
      remember(bot);
      const p = bot.entity.position.floored();
      return done(`explored to ${p.x} ${p.y} ${p.z}`);
    });
  },
};
