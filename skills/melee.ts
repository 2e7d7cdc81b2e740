/**
 * Melee for skills: the best weapon in hand, hits paced by its attack cooldown (a hit before the cooldown has
 * run deals a fraction of the damage, on vanilla and on the embedded world), chasing the target until it dies
 * or gets away, then picking up what it dropped.
 */
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import type { Vec3 } from 'vec3';
import { goals, sleep } from './common.ts';

/** Weapons, best first (vanilla attack damage; an axe hits harder but slower than a sword of its tier). */
const WEAPONS = [
  'netherite_sword', 'diamond_sword', 'iron_sword', 'stone_sword', 'golden_sword', 'wooden_sword',
  'netherite_axe', 'diamond_axe', 'iron_axe', 'stone_axe', 'golden_axe', 'wooden_axe',
];
/** Attack speed (hits a second at full strength) by kind of held item; anything else hits like a fist. */
const ATTACK_SPEED: ReadonlyArray<[RegExp, number]> = [
  [/_sword$/, 1.6],
  [/^(wooden|stone)_axe$/, 0.8],
  [/^iron_axe$/, 0.9],
  [/_axe$/, 1.0],
  [/_pickaxe$/, 1.2],
  [/_(shovel|hoe)$/, 1.0],
];
const FIST_SPEED = 4;
/** Melee reach from the eyes, in blocks. */
const REACH = 3;

/** Whether the bot carries a sword or an axe. */
export function hasWeapon(bot: Bot): boolean {
  return bot.inventory.items().some((i) => WEAPONS.includes(i.name));
}

/** Hold the best weapon carried (nothing changes when there is none). */
export async function equipWeapon(bot: Bot): Promise<void> {
  for (const name of WEAPONS) {
    const item = bot.inventory.items().find((i) => i.name === name);
    if (item) {
      if (bot.heldItem?.type !== item.type) await bot.equip(item, 'hand');
      return;
    }
  }
}

/** Milliseconds the held item's attack cooldown lasts. */
export function cooldownMs(bot: Bot): number {
  const name = bot.heldItem?.name ?? '';
  const speed = ATTACK_SPEED.find(([re]) => re.test(name))?.[1] ?? FIST_SPEED;
  return Math.ceil(1000 / speed) + 50;
}

/** How a fight ended. */
export interface MeleeOutcome {
  killed: boolean;
  hits: number;
  /** Where the target was last seen (its drops fall there). */
  where: Vec3;
}

/**
 * Chase `foe` and hit it at full strength until it dies, is gone, or gets more than `giveUpAt` blocks away.
 * Rejects with the abort reason when `signal` aborts.
 */
export async function fightUntilGone(bot: Bot, foe: Entity, signal: AbortSignal, giveUpAt = 32): Promise<MeleeOutcome> {
  let dead = false;
  const onDead = (e: Entity): void => {
    if (e.id === foe.id) dead = true;
  };
  bot.on('entityDead', onDead);
  await equipWeapon(bot);
  bot.pathfinder.setGoal(new goals.GoalFollow(foe, 1.5), true);
  let hits = 0;
  let lastHit = Date.now(); // equipping starts the cooldown again
  const where = foe.position.clone();
  try {
    while (!dead && bot.entities[foe.id] && foe.isValid !== false) {
      where.set(foe.position.x, foe.position.y, foe.position.z);
      const eyes = bot.entity.position.offset(0, 1.62, 0);
      const aim = foe.position.offset(0, (foe.height ?? 1.6) * 0.6, 0);
      const d = eyes.distanceTo(aim);
      if (d > giveUpAt) return { killed: false, hits, where };
      if (d <= REACH && Date.now() - lastHit >= cooldownMs(bot)) {
        await bot.lookAt(aim, true);
        bot.attack(foe);
        hits++;
        lastHit = Date.now();
      }
      await sleep(100, signal);
    }
  } finally {
    bot.off('entityDead', onDead);
    bot.pathfinder.setGoal(null);
  }
  return { killed: true, hits, where };
}

/**
 * Walk over the dropped items within 4 blocks of `at` until none is left or `ms` has passed (an item is picked up
 * within about 1.5 blocks). Rejects with the abort reason when `signal` aborts.
 */
export async function pickUpAround(bot: Bot, at: Vec3, signal: AbortSignal, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  let chasing: Entity | undefined;
  try {
    // Drops appear a moment after the death.
    await sleep(300, signal);
    while (Date.now() < deadline) {
      const drop = bot.nearestEntity((e) => e.name === 'item' && e.position.distanceTo(at) < 4);
      if (!drop) return;
      if (drop !== chasing) {
        chasing = drop;
        bot.pathfinder.setGoal(new goals.GoalNear(drop.position.x, drop.position.y, drop.position.z, 0));
      }
      await sleep(100, signal);
    }
  } finally {
    if (chasing) bot.pathfinder.setGoal(null);
  }
}
