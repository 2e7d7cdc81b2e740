/**
 * flee: run away from the nearest hostile (or from a given position).
 */
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, goals, onBot, UnreachableError, walk } from './common.ts';
import { isHostile } from '../src/game/snapshot.ts';

const params = z.object({
  distance: z.number().min(4).max(64).default(16),
  from: z.object({ x: z.number(), y: z.number().optional(), z: z.number() }).optional(),
});

/** The `flee` skill. */
export const flee: Skill<typeof params> = {
  id: 'flee',
  description: 'Run distance blocks (default 16) away from the nearest hostile mob, or from a given position.',
  params,
  timeoutMs: 30_000,
  run(game, { distance, from }, signal) {
    return onBot(game, 'flee', signal, async (bot, sig) => {
      const me = bot.entity.position;
      let threat: { x: number; z: number; name: string } | undefined;
      if (from) threat = { x: from.x, z: from.z, name: `${from.x} ${from.z}` };
      else {
        const mob = bot.nearestEntity((e) => isHostile(e) && e.position.distanceTo(me) < 32);
        if (mob) threat = { x: mob.position.x, z: mob.position.z, name: mob.name ?? 'a hostile' };
      }
      if (!threat) return fail('no_target', 'nothing to flee from');
      let dx = me.x - threat.x;
      let dz = me.z - threat.z;
      const len = Math.hypot(dx, dz);
      if (len < 0.01) {
        const a = Math.random() * Math.PI * 2;
        dx = Math.cos(a);
        dz = Math.sin(a);
      } else {
        dx /= len;
        dz /= len;
      }
      // Straight away first; if that is blocked, try turning 45° either way.
      for (const turn of [0, Math.PI / 4, -Math.PI / 4, Math.PI / 2, -Math.PI / 2]) {
        const ax = dx * Math.cos(turn) - dz * Math.sin(turn);
        const az = dx * Math.sin(turn) + dz * Math.cos(turn);
        const x = Math.round(me.x + ax * distance);
        const z = Math.round(me.z + az * distance);
        try {
          await walk(bot, new goals.GoalNearXZ(x, z, 2), sig, `away from ${threat.name}`);
          return done(`fled ${distance} blocks from ${threat.name}`);
        } catch (err) {
          if (!(err instanceof UnreachableError)) throw err;
        }
      }
      return fail('unreachable', `no way away from ${threat.name}`);
    });
  },
};
