// @ts-check
'use strict';
/*
 * Helpers on a flying-squid player's inventory (window 0 slot numbers:
 * 0 craft result, 1–4 grid, 5–8 armour, 9–35 main, 36–44 hotbar, 45 offhand)
 * shared by the embedded world's plugins.
 */
const { Vec3 } = require('vec3');
const { known } = require('./registry-util.cjs');

/**
 * @typedef {import('./types.cjs').Item} Item
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 */

/** Whether two items stack together (same type and components). @param {Item | null | undefined} a @param {Item | null | undefined} b */
function stackable(a, b) {
  if (!a || !b || a.type !== b.type) return false;
  return JSON.stringify(a.nbt ?? null) === JSON.stringify(b.nbt ?? null) && (a.metadata ?? 0) === (b.metadata ?? 0);
}

/**
 * A copy of `item` with `count` (components shared: nothing here mutates them).
 * @template {Item} T
 * @param {T} item @param {number} [count]
 * @returns {T}
 */
function copyItem(item, count = item.count) {
  const c = Object.assign(Object.create(Object.getPrototypeOf(item)), item);
  c.count = count;
  return c;
}

/** Main inventory and hotbar in the order vanilla fills them: hotbar first, then the main rows. */
const FILL_ORDER = [36, 37, 38, 39, 40, 41, 42, 43, 44, ...Array.from({ length: 27 }, (_, i) => 9 + i)];

/**
 * Put `item` into the player's main inventory and hotbar: onto matching stacks first, then into empty slots.
 * `set(slot, item)` writes one slot (so callers choose whether the change is sent now or diffed later).
 * Returns how many did not fit (0 when all did).
 * @param {Player} player @param {Item} item @param {(slot: number, item: Item) => void} set
 */
function addToInventory(player, item, set) {
  let left = item.count;
  const max = item.stackSize || 64;
  for (const slot of FILL_ORDER) {
    if (left <= 0) break;
    const there = player.inventory.slots[slot];
    if (there && stackable(there, item) && there.count < max) {
      const n = Math.min(left, max - there.count);
      there.count += n;
      left -= n;
      set(slot, there);
    }
  }
  for (const slot of FILL_ORDER) {
    if (left <= 0) break;
    if (!player.inventory.slots[slot]) {
      const n = Math.min(left, max);
      left -= n;
      set(slot, copyItem(item, n));
    }
  }
  return left;
}

/**
 * Drop `count` of an item type as an item entity at a place (it can be picked up after `pickupMs`). It lies still:
 * flying-squid players do not walk to items, so one that flies off stays where it lands.
 * @param {Serv} serv @param {unknown} world @param {import('vec3').Vec3} position @param {number} type @param {number} count
 * @param {{ pickupMs?: number, metadata?: number }} [opts]
 */
function dropAt(serv, world, position, type, count, { pickupMs = 2000, metadata = 0 } = {}) {
  if (count <= 0) return;
  serv.spawnObject(known(serv.registry.entitiesByName, 'item', 'entity').id, world, position.clone(), {
    velocity: new Vec3(0, 0, 0),
    itemId: type,
    itemDamage: metadata,
    itemCount: count,
    pickupTime: pickupMs,
    deathTime: 5 * 60 * 1000,
  });
}

/**
 * Drop `count` of `item` as an item entity at the player's feet (it can be picked up again after 2 s). It is not
 * thrown forward as in vanilla: flying-squid players do not walk to items, so one that lands away stays there.
 * @param {Serv} serv @param {Player} player @param {Item | null} item @param {number} [count]
 */
function dropAtPlayer(serv, player, item, count = item ? item.count : 0) {
  if (!item || count <= 0) return;
  dropAt(serv, player.world, player.position, item.type, count, { metadata: item.metadata ?? 0 });
}

/**
 * Put `item` into the inventory, sending each changed slot; what does not fit is dropped at the player's feet.
 * @param {Serv} serv @param {Player} player @param {Item} item
 */
function giveOrDrop(serv, player, item) {
  const left = addToInventory(player, item, (slot, it) => player.inventory.updateSlot(slot, it));
  if (left > 0) dropAtPlayer(serv, player, item, left);
  return left;
}

module.exports = { stackable, copyItem, addToInventory, dropAt, dropAtPlayer, giveOrDrop, FILL_ORDER };
