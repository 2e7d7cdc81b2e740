// @ts-check
'use strict';
/*
 * Crafting for the embedded world: the crafting table (the player's own 2×2 grid is part of its inventory
 * window, windows.cjs).
 *
 * A crafting table opens a `minecraft:crafting` window whose 3×3 grid computes its result from
 * minecraft-data's recipes (recipes.cjs); it closes (items back into the inventory, the overflow dropped)
 * when its player closes it, walks more than 8 blocks away, the table is gone, or the player leaves.
 */
const { guard } = require('./guard.cjs');
const { known } = require('./registry-util.cjs');

/**
 * @typedef {import('./types.cjs').Item} Item
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 */

/**
 * Install the crafting table on a flying-squid server.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Registry, windows: ReturnType<typeof import('./windows.cjs').createWindows> }} ctx
 */
function crafting(serv, { registry, windows }) {
  const craftingType = windows.typeOf('minecraft:crafting');
  const tableId = known(registry.blocksByName, 'crafting_table', 'block').id;

  /** @param {Player} player @param {import('vec3').Vec3} position */
  function openTable(player, position) {
    /** @type {Array<Item | null>} */
    const grid = Array(9).fill(null);
    return windows.open(player, {
      inventoryType: craftingType,
      title: 'container.crafting',
      slots: 10,
      position: position.clone(),
      blockType: tableId,
      resultSlot: 0,
      width: 3,
      grid: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      // Slot 0 is the result (computed by the click rules); 1–9 the grid.
      get: (s) => (s >= 1 && s <= 9 ? (grid[s - 1] ?? null) : null),
      set: (s, item) => {
        if (s >= 1 && s <= 9) grid[s - 1] = item;
      },
      onClose: () => grid.splice(0, 9).filter((i) => i !== null),
    });
  }

  serv.onBlockInteraction('crafting_table', guard('crafting: opening a table', (/** @type {{ block: any, player: Player }} */ { block, player }) => {
    const held = player.inventory.slots[36 + player.heldItemSlot];
    if (player.crouching && held) return false; // sneaking with an item in hand places it instead
    return openTable(player, block.position) !== null;
  }));

  return {
    /** Whether a player has a crafting table open (for tests and the operator). @param {Player} player */
    tableOpen(player) {
      return windows.containerOf(player)?.blockType === tableId;
    },
  };
}

module.exports = crafting;
