'use strict';
/*
 * mindlink's plugins for the embedded flying-squid world, one capability per
 * file, and the admin operations they add (see OPS in server.cjs).
 *
 *   crafting.cjs  the 2×2 grid and the crafting table
 *   tools.cjs     drops and dig times that depend on the held tool; leaves drop by chance
 *   hunger.cjs    exhaustion, saturation, food, regeneration, starvation and eating
 *   moves.cjs     players' moves sent to the others at vanilla's rate and range
 */
const crafting = require('./crafting.cjs');
const tools = require('./tools.cjs');
const hunger = require('./hunger.cjs');
const moves = require('./moves.cjs');

/**
 * Install every plugin on `serv` (right after createMCServer, before anyone joins).
 *
 * @returns {{ ops: Record<string, Function> }} admin operations to merge into the IPC ops
 */
function install(serv, { registry, Item, seed, viewDistance }) {
  moves.install(serv, { viewDistance });
  const craft = crafting(serv, { registry, Item });
  tools(serv, { registry, seed });
  const food = hunger(serv, { registry });

  const player = (username) => {
    const p = serv.getPlayer(username);
    if (!p) throw new Error(`no player ${username}`);
    return p;
  };

  const ops = {
    /** A player's inventory as the server holds it: window-0 slots, cursor, held slot, open table. */
    inventory({ username }) {
      const p = player(username);
      const name = (item) => (item ? { name: registry.items[item.type]?.name ?? String(item.type), count: item.count } : null);
      const slots = {};
      p.inventory.slots.forEach((item, slot) => {
        if (item && item.count > 0) slots[slot] = name(item);
      });
      return { slots, cursor: name(craft.cursorOf(p)), heldItemSlot: p.heldItemSlot, tableOpen: craft.tableOpen(p) };
    },
    /** Clear a player's inventory (tests start from nothing). */
    clearInventory({ username }) {
      const p = player(username);
      p.inventory.slots.forEach((item, slot) => {
        if (item) p.inventory.updateSlot(slot, null);
      });
      return true;
    },
    /** A player's food, saturation, exhaustion and health. */
    hunger({ username }) {
      return food.stateOf(player(username));
    },
    /** Set any of food, saturation, exhaustion, health (tests; the operator). */
    setHunger({ username, ...values }) {
      food.set(player(username), values);
      return true;
    },
  };
  return { ops };
}

module.exports = { install };
