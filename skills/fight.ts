/**
 * fight: attack the nearest hostile (or a named mob or player: `cow` hunts a cow) until it is gone, then pick
 * up its drops.
 */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { toSurface } from './climb.ts';
import { done, fail, onBot } from './common.ts';
import { fightUntilGone, pickUpAround } from './melee.ts';
import { isHostile } from '../src/game/snapshot.ts';

const params = z.object({ target: z.string().min(1).max(32).optional().describe('mob (zombie, cow) or player; default the nearest hostile') });

/** How far fight looks for a hostile, and for a target named (an animal to hunt may be farther). */
const RANGE = 16;
const NAMED_RANGE = 48;

function findTarget(bot: Bot, target: string | undefined): Entity | null {
  const me = bot.entity.position;
  const range = target === undefined ? RANGE : NAMED_RANGE;
  return bot.nearestEntity(
    (e) =>
      e !== bot.entity &&
      e.position.distanceTo(me) <= range &&
      (target === undefined ? isHostile(e) : e.name === target || e.username === target),
  );
}

/** The `fight` skill. */
export const fight: Skill<typeof params> = {
  id: 'fight',
  description: 'Attack a mob or player (by default the nearest hostile within 16 blocks) until it is gone.',
  params,
  timeoutMs: 60_000,
  run(game, { target }, signal) {
    return onBot(game, 'fight', signal, async (bot, sig) => {
      const foe = findTarget(bot, target);
      if (!foe) return fail('no_target', target ? `no ${target} within ${NAMED_RANGE} blocks` : `no hostile within ${RANGE} blocks`);
      const name = foe.username ?? foe.name ?? 'target';
      // An animal on the surface, from under ground: out of the mine first.
      if (target !== undefined && foe.position.y > bot.entity.position.y + 6) {
        const stuck = await toSurface(bot, sig);
        if (stuck) return fail('unreachable', `could not get out from under ground to the ${name}: ${stuck}`);
      }
      const outcome = await fightUntilGone(bot, foe, sig, NAMED_RANGE);
      if (!outcome.killed) return fail('no_target', `${name} got away`);
      if (foe.type !== 'player') await pickUpAround(bot, outcome.where, sig);
      return done(`${name} is gone after ${outcome.hits} hits`);
    });
  },
};
