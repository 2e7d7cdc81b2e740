// @ts-check
'use strict';
/*
 * Players attacking the embedded world's mobs (the `use_entity` packet's attack), with vanilla's numbers
 * (Java 1.21.4):
 *   - the damage is the held item's attack damage (a fist 1, a wooden sword 4, a stone sword 5, an iron sword 6,
 *     a stone axe 9…, the table below) scaled by how far its cooldown has come since the last attack or change
 *     of held item: damage × (0.2 + 0.8 × progress²), the cooldown lasting 20 / attack speed ticks (a sword
 *     0.625 s, a fist 0.25 s, a stone axe 1.25 s);
 *   - a hit pushes the mob away (mob-world.cjs), and reaches at most 6 blocks (vanilla's server-side check);
 *   - creative and spectator players' hits count as well, dead mobs ignore hits.
 * Critical and sweeping hits and enchantments are left out. minecraft-data has no attack damage or speed for
 * items, so they are written here from vanilla's item attributes.
 */
const { guard } = require('./guard.cjs');

const REACH = 6;
/** Attack damage and attack speed of vanilla weapons and tools. */
const WEAPONS = /** @type {Record<string, [number, number]>} */ ({
  wooden_sword: [4, 1.6], golden_sword: [4, 1.6], stone_sword: [5, 1.6], iron_sword: [6, 1.6], diamond_sword: [7, 1.6], netherite_sword: [8, 1.6],
  wooden_axe: [7, 0.8], golden_axe: [7, 1.0], stone_axe: [9, 0.8], iron_axe: [9, 0.9], diamond_axe: [9, 1.0], netherite_axe: [10, 1.0],
  wooden_pickaxe: [2, 1.2], golden_pickaxe: [2, 1.2], stone_pickaxe: [3, 1.2], iron_pickaxe: [4, 1.2], diamond_pickaxe: [5, 1.2], netherite_pickaxe: [6, 1.2],
  wooden_shovel: [2.5, 1.0], golden_shovel: [2.5, 1.0], stone_shovel: [3.5, 1.0], iron_shovel: [4.5, 1.0], diamond_shovel: [5.5, 1.0], netherite_shovel: [6.5, 1.0],
  wooden_hoe: [1, 1.0], golden_hoe: [1, 1.0], stone_hoe: [1, 2.0], iron_hoe: [1, 3.0], diamond_hoe: [1, 4.0], netherite_hoe: [1, 4.0],
  trident: [9, 1.1], mace: [6, 0.6],
});
/** A bare hand, or any other item. */
const FIST = /** @type {[number, number]} */ ([1, 4.0]);

/**
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 * @typedef {import('./mob-world.cjs').MobWorld} MobWorld
 */

/**
 * The damage of an attack with `itemName` held, `ticks` after the cooldown started (vanilla's attack strength).
 * @param {string | undefined} itemName @param {number} ticks
 */
function attackDamage(itemName, ticks) {
  const [damage, speed] = (itemName && WEAPONS[itemName]) || FIST;
  const progress = Math.min(1, Math.max(0, (ticks + 0.5) / (20 / speed)));
  return damage * (0.2 + progress * progress * 0.8);
}

/**
 * Install player attacks on the mobs of a mob world.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Registry, mobs: MobWorld }} ctx
 */
function combat(serv, { registry, mobs }) {
  serv.on('newPlayer', (/** @type {Player} */ player) => {
    // The tick the attack cooldown last started: an attack or a change of held item starts it again.
    let cooldownFrom = -100;
    const client = player._client;
    client.on('held_item_slot', () => {
      cooldownFrom = serv.tickCount;
    });
    client.on('use_entity', guard('combat: an attack', (/** @type {{ target: number, mouse: number }} */ { target, mouse }) => {
      if (mouse !== 1) return;
      const mob = mobs.get(target);
      if (!mob || mob.dead || player.health <= 0) return;
      const eyeY = player.position.y + 1.62;
      const d = Math.hypot(mob.x - player.position.x, mob.y + mob.heightBlocks / 2 - eyeY, mob.z - player.position.z);
      if (d > REACH) return;
      const held = player.inventory.slots[36 + player.heldItemSlot];
      const name = held ? registry.items[held.type]?.name : undefined;
      const damage = attackDamage(name, serv.tickCount - cooldownFrom);
      cooldownFrom = serv.tickCount;
      mobs.hurt(mob, damage, { attacker: player, cause: 'player', from: { x: player.position.x, z: player.position.z } });
    }));
  });
}

module.exports = { combat, attackDamage };
