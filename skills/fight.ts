/**
 * fight: attack the nearest hostile (or a named mob or player) until it is gone.
 */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import { z } from 'zod';
import type { Skill } from '../src/game/skill.ts';
import { done, fail, goals, onBot, sleep } from './common.ts';
import { isHostile } from '../src/game/snapshot.ts';

const params = z.object({ target: z.string().min(1).max(32).optional().describe('mob name (zombie) or player name; default the nearest hostile') });

/** How far fight looks for a target. */
const RANGE = 16;
/** Melee reach. */
const REACH = 3;

const WEAPONS = ['netherite_sword', 'diamond_sword', 'iron_sword', 'stone_sword', 'golden_sword', 'wooden_sword', 'netherite_axe', 'diamond_axe', 'iron_axe', 'stone_axe', 'wooden_axe'];

async function equipWeapon(bot: Bot): Promise<void> {
  for (const name of WEAPONS) {
    const item = bot.inventory.items().find((i) => i.name === name);
    if (item) {
      if (bot.heldItem?.type !== item.type) await bot.equip(item, 'hand');
      return;
    }
  }
}

function findTarget(bot: Bot, target: string | undefined): Entity | null {
  const me = bot.entity.position;
  return bot.nearestEntity(
    (e) =>
      e !== bot.entity &&
      e.position.distanceTo(me) <= RANGE &&
      (target === undefined ? isHostile(e) : e.name === target || e.username === target),
  );
}

/** The `fight` skill. */
export const fight: Skill<typeof params> = {
  id: 'fight',
  description: 'Attack the nearest hostile mob within 16 blocks (or the named mob/player) until it is gone.',
  params,
  timeoutMs: 60_000,
  run(game, { target }, signal) {
    return onBot(game, 'fight', signal, async (bot, sig) => {
      const foe = findTarget(bot, target);
      if (!foe) return fail('no_target', target ? `no ${target} within ${RANGE} blocks` : `no hostile within ${RANGE} blocks`);
      const name = foe.username ?? foe.name ?? 'target';
      await equipWeapon(bot);
      bot.pathfinder.setGoal(new goals.GoalFollow(foe, 2), true);
      let hits = 0;
      try {
        while (bot.entities[foe.id] && foe.isValid !== false) {
          const d = foe.position.distanceTo(bot.entity.position);
          if (d > RANGE * 2) return fail('no_target', `${name} got away`);
          if (d <= REACH) {
            await bot.lookAt(foe.position.offset(0, (foe.height ?? 1.6) * 0.8, 0), true);
            bot.attack(foe);
            hits++;
          }
          await sleep(600, sig);
        }
      } finally {
        bot.pathfinder.setGoal(null);
      }
      return done(`${name} is gone after ${hits} hits`);
    });
  },
};
