// @ts-check
'use strict';
/*
 * mindlink's plugins for the embedded flying-squid world, one capability per
 * file, and the admin operations they add (see OPS in server.cjs).
 *
 *   crafting.cjs  the 2×2 grid and the crafting table
 *   tools.cjs     drops and dig times that depend on the held tool; leaves drop by chance
 *   hunger.cjs    exhaustion, saturation, food, regeneration, starvation and eating
 *   furnace.cjs   furnaces that smelt (windows.cjs: the inventory windows crafting and furnaces share)
 *   mob-world.cjs the mobs: who sees them, moving (mob-movement.cjs), hurting, dying
 *   animals.cjs   cows, pigs, sheep and chickens      monsters.cjs  zombies at night
 *   combat.cjs    players hitting mobs                respawn.cjs   dying and respawning at the spawn
 *   clock.cjs     the time of day across restarts
 *   avatars.cjs   which players are mindlink's avatars, and what they are spared
 *   moves.cjs     players' moves sent to the others at vanilla's rate and range (avatars' to avatars less)
 *   teleport-chunks.cjs  a teleported player gets the chunks around where it lands
 */
const { createWindows } = require('./windows.cjs');
const { createRecipeBook } = require('./recipes.cjs');
const crafting = require('./crafting.cjs');
const tools = require('./tools.cjs');
const hunger = require('./hunger.cjs');
const furnaces = require('./furnace.cjs');
const { createMobWorld } = require('./mob-world.cjs');
const { animals } = require('./animals.cjs');
const monsters = require('./monsters.cjs');
const { combat } = require('./combat.cjs');
const respawn = require('./respawn.cjs');
const { clock } = require('./clock.cjs');
const moves = require('./moves.cjs');
const avatars = require('./avatars.cjs');
const teleportChunks = require('./teleport-chunks.cjs');

/**
 * @typedef {import('./types.cjs').Item} Item
 * @typedef {import('./ipc.ts').ServerItem} ServerItem
 */

/**
 * Install every plugin on `serv` (right after createMCServer, before anyone joins).
 *
 * @param {import('./types.cjs').Serv} serv
 * @param {{ registry: import('./types.cjs').Registry, Item: import('./types.cjs').ItemClass, seed: number, worldFolder: string, spawn: import('vec3').Vec3, viewDistance: number }} ctx
 * @returns {{ ops: import('./ipc.ts').OpHandlers<import('./ipc.ts').PluginOps>, flush: () => Promise<unknown> }}
 *   admin operations to merge into the IPC ops, and the last write before exiting
 */
function install(serv, { registry, Item, seed, worldFolder, spawn, viewDistance }) {
  const { isAvatar } = avatars.install(serv);
  moves.install(serv, { viewDistance, isAvatar });
  teleportChunks(serv);
  const windows = createWindows(serv, { registry, Item, book: createRecipeBook(registry) });
  const craft = crafting(serv, { registry, windows });
  tools(serv, { registry, seed });
  const food = hunger(serv, { registry });
  const furnace = furnaces(serv, { registry, Item, windows, worldFolder });
  const mobs = createMobWorld(serv, { registry, seed, isAvatar });
  const herds = animals(serv, { registry, mobs, seed });
  const night = monsters(serv, { registry, mobs });
  combat(serv, { registry, mobs });
  const deaths = respawn(serv, { spawn, windows });
  const time = clock(serv, { worldFolder });

  /** @param {string} username */
  const player = (username) => {
    const p = serv.getPlayer(username);
    if (!p) throw new Error(`no player ${username}`);
    return p;
  };

  /** @type {import('./ipc.ts').OpHandlers<import('./ipc.ts').PluginOps>} */
  const ops = {
    /** A player's inventory as the server holds it: window-0 slots, cursor, held slot, open table. */
    inventory({ username }) {
      const p = player(username);
      /** @param {Item | null | undefined} item @returns {ServerItem | null} */
      const name = (item) => (item ? { name: registry.items[item.type]?.name ?? String(item.type), count: item.count } : null);
      /** @type {Record<string, ServerItem>} */
      const slots = {};
      p.inventory.slots.forEach((item, slot) => {
        const named = item && item.count > 0 ? name(item) : null;
        if (named) slots[slot] = named;
      });
      return { slots, cursor: name(windows.cursorOf(p)), heldItemSlot: p.heldItemSlot, tableOpen: craft.tableOpen(p) };
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
    /** Kill a player, as the `/kill` command does (tests; the operator): it dies, then respawns when its client asks. */
    kill({ username }) {
      deaths.kill(player(username));
      return true;
    },
    /** Leave players' respawn requests unanswered, or answer them again (tests); how many were left unanswered. */
    holdRespawns({ hold }) {
      return deaths.holdRespawns(hold);
    },
    /** Spawn a mob (cow, pig, sheep, chicken, zombie) with its feet at x y z; its entity id. */
    spawnMob({ name, x, y, z }) {
      const mob = mobs.spawn(name, { x, y, z });
      if (!mob) throw new Error('too many mobs');
      return mob.id;
    },
    /** Every mob: id, name, position, health, burning, dead. */
    mobs() {
      return [...mobs.all.values()].map((m) => ({ id: m.id, name: m.kind.name, x: m.x, y: m.y, z: m.z, health: m.health, onFire: m.fireTicks > 0, dead: m.dead }));
    },
    /** Turn natural spawning of animals and/or monsters on or off (tests that want a quiet world). */
    setMobSpawning({ animals: a, monsters: m }) {
      if (typeof a === 'boolean') herds.setSpawning(a);
      if (typeof m === 'boolean') night.setSpawning(m);
      return true;
    },
    /** Take every mob out of the world (tests). */
    clearMobs() {
      for (const m of [...mobs.all.values()]) mobs.remove(m);
      return true;
    },
    /** The furnace at x y z: its slots, fuel and progress, or null when it holds nothing. */
    furnace({ x, y, z }) {
      return furnace.stateAt({ x, y, z });
    },
  };
  return {
    ops,
    /** Write what is kept outside the world's chunks (furnaces, the clock) before the server exits. */
    flush: () => Promise.all([furnace.flush(), time.flush()]),
  };
}

module.exports = { install };
