// @ts-check
'use strict';
/*
 * Furnaces for the embedded world, with vanilla's rules (Java 1.21.4).
 *
 * flying-squid 1.12.0 places a furnace but does nothing with it. Here a placed furnace opens the vanilla
 * furnace window (slot 0 input, 1 fuel, 2 output; properties 0 fuel left, 1 fuel total, 2 progress,
 * 3 progress total, which mineflayer's `openFurnace` reads) and smelts every tick, watched or not:
 *   - when it is not burning and its input can be smelted into a free (or matching) output slot, one fuel
 *     item is burnt for its burn time (a lava bucket leaves a bucket);
 *   - while burning with a smeltable input, progress rises by one per tick; at 200 the input item becomes
 *     its output; without a smeltable input progress is lost; when the fuel is gone, it falls by two per tick;
 *   - the block shows `lit` while it burns;
 *   - the output slot takes nothing, the fuel slot only fuel (or a bucket); a shift-click sends smeltable items
 *     to the input and fuel to the fuel slot.
 * Recipes and fuels: `../smelting.json`. Broken, a furnace drops what it held. Contents and progress are saved
 * in `<world>/furnaces.json` every few seconds and on shutdown (a temp file, then a rename), so a furnace keeps
 * smelting across a restart. No experience is given for smelted items.
 */
const fs = require('node:fs');
const path = require('node:path');
const { Vec3 } = require('vec3');
const table = require('../smelting.json');
const { dropAt } = require('./inventory-util.cjs');
const { guard } = require('./guard.cjs');
const { known } = require('./registry-util.cjs');

const INPUT = 0;
const FUEL = 1;
const OUTPUT = 2;
/** Fuel that leaves something behind when burnt. */
const FUEL_REMAINDER = /** @type {Record<string, string>} */ ({ lava_bucket: 'bucket' });
/** How often changed furnaces are written to disk. */
const SAVE_EVERY_MS = 5000;
/** How often the window properties of a working furnace are sent to its viewers. */
const PROPERTY_EVERY_TICKS = 5;

/**
 * @typedef {import('./types.cjs').Item} Item
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 * @typedef {import('./windows.cjs').OpenContainer} OpenContainer
 * @typedef {{ name: string, count: number } | null} SavedItem
 * @typedef {{ x: number, y: number, z: number, input: SavedItem, fuel: SavedItem, output: SavedItem, burn: number, burnTotal: number, cook: number }} SavedFurnace
 * @typedef {object} Furnace
 * @property {string} key `x,y,z`
 * @property {Vec3} position
 * @property {Array<Item | null>} slots input, fuel, output
 * @property {number} burn fuel ticks left
 * @property {number} burnTotal the burn time of the fuel item burning now
 * @property {number} cook progress of the item in the input slot, in ticks
 * @property {number | null} inputType the input's type when `cook` was counted (another item starts over)
 * @property {boolean} lit what the block shows (or should show once its chunk is loaded)
 * @property {boolean} litShown whether the block was set to `lit`
 * @property {boolean} working whether it ticked last tick (its viewers get its properties while it works, and once after)
 * @property {Map<Player, OpenContainer>} viewers players with its window open
 */

/**
 * Install furnaces on a flying-squid server.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Registry, Item: any, windows: ReturnType<typeof import('./windows.cjs').createWindows>, worldFolder: string }} ctx
 */
function furnaces(serv, { registry, Item, windows, worldFolder }) {
  // prismarine-block's types want a prismarine-registry Registry, which flying-squid's registry is (typed here by its minecraft-data part).
  const Block = require('prismarine-block')(/** @type {Parameters<typeof import('prismarine-block')>[0]} */ (/** @type {unknown} */ (registry)));
  const furnaceBlock = known(registry.blocksByName, 'furnace', 'block');
  const furnaceType = windows.typeOf('minecraft:furnace');
  const file = path.join(worldFolder, 'furnaces.json');
  const cookTicks = table.cookTicks;
  const recipes = /** @type {Record<string, { from: string[] }>} */ (table.recipes);
  const fuels = /** @type {Record<string, number>} */ (table.fuels);
  /** item type → the type it smelts into */
  const outputOf = new Map();
  for (const [out, { from }] of Object.entries(recipes)) {
    const outDef = registry.itemsByName[out];
    if (!outDef) continue;
    for (const name of from) if (registry.itemsByName[name]) outputOf.set(registry.itemsByName[name].id, outDef.id);
  }
  /** @param {Item | null} item */
  const fuelTicksOf = (item) => (item ? (fuels[registry.items[item.type]?.name ?? ''] ?? 0) : 0);
  /** @type {Map<string, Furnace>} */
  const all = new Map();
  let dirty = false;
  let saving = Promise.resolve();

  /** @param {{ x: number, y: number, z: number }} p */
  const keyOf = (p) => `${p.x},${p.y},${p.z}`;

  /** @param {Vec3} position @returns {Furnace} */
  function furnaceAt(position) {
    const key = keyOf(position);
    let f = all.get(key);
    if (!f) {
      f = { key, position: position.clone(), slots: [null, null, null], burn: 0, burnTotal: 0, cook: 0, inputType: null, lit: false, litShown: false, working: false, viewers: new Map() };
      all.set(key, f);
    }
    return f;
  }

  /** @param {Furnace} f */
  const empty = (f) => f.burn === 0 && f.cook === 0 && !f.slots.some(Boolean);

  /** @param {Furnace} f @param {number} slot */
  function slotChanged(f, slot) {
    dirty = true;
    for (const [player, c] of f.viewers) windows.sendSlot(player, c, slot);
  }

  /** @param {Furnace} f @param {Player} player @param {OpenContainer} c */
  function sendProperties(f, player, c) {
    windows.sendProperty(player, c, 1, f.burnTotal);
    windows.sendProperty(player, c, 0, f.burn);
    windows.sendProperty(player, c, 3, cookTicks);
    windows.sendProperty(player, c, 2, f.cook);
  }

  /** Show `lit` on the block when its chunk is loaded (else on a later tick). @param {Furnace} f */
  function showLit(f) {
    if (f.litShown === f.lit) return;
    const world = serv.overworld;
    if (!world.sync.getColumnAt(f.position)) return;
    const stateId = world.sync.getBlockStateId(f.position);
    if (stateId < furnaceBlock.minStateId || stateId > furnaceBlock.maxStateId) return;
    const props = Block.fromStateId(stateId, 0).getProperties();
    // prismarine-block's types allow string and number property values only; its code takes booleans as well.
    const next = Block.fromProperties('furnace', /** @type {any} */ ({ ...props, lit: f.lit }), 0).stateId;
    f.litShown = f.lit;
    if (next !== stateId) void serv.setBlock(world, f.position, next).catch((err) => process.stderr.write(`furnace: showing lit failed: ${err && err.message}\n`));
  }

  /** Whether the input can be smelted now: its output fits the output slot. @param {Furnace} f */
  function canSmelt(f) {
    const input = f.slots[INPUT];
    if (!input) return false;
    const out = outputOf.get(input.type);
    if (out === undefined) return false;
    const there = f.slots[OUTPUT];
    if (!there) return true;
    return there.type === out && there.count < (there.stackSize || 64);
  }

  /** One tick of one furnace (vanilla's order). @param {Furnace} f */
  function tickFurnace(f) {
    const wasLit = f.burn > 0;
    const input = f.slots[INPUT];
    if ((input?.type ?? null) !== f.inputType) {
      f.inputType = input?.type ?? null;
      f.cook = 0;
    }
    if (f.burn > 0) f.burn--;
    const fuel = f.slots[FUEL];
    if (f.burn > 0 || (fuel && input)) {
      const can = canSmelt(f);
      if (f.burn === 0 && can && fuel) {
        const ticks = fuelTicksOf(fuel);
        if (ticks > 0) {
          f.burn = ticks;
          f.burnTotal = ticks;
          const rest = FUEL_REMAINDER[registry.items[fuel.type]?.name ?? ''];
          if (fuel.count > 1) fuel.count -= 1;
          else f.slots[FUEL] = rest ? new Item(known(registry.itemsByName, rest, 'item').id, 1) : null;
          slotChanged(f, FUEL);
        }
      }
      if (f.burn > 0 && can && input) {
        if (++f.cook >= cookTicks) {
          f.cook = 0;
          const out = /** @type {number} */ (outputOf.get(input.type));
          const there = f.slots[OUTPUT];
          if (there) there.count += 1;
          else f.slots[OUTPUT] = new Item(out, 1);
          if (input.count > 1) input.count -= 1;
          else f.slots[INPUT] = null;
          f.inputType = f.slots[INPUT]?.type ?? null;
          slotChanged(f, INPUT);
          slotChanged(f, OUTPUT);
        }
      } else f.cook = 0;
    } else if (f.cook > 0) f.cook = Math.max(0, f.cook - 2);
    if (wasLit !== f.burn > 0 || f.burn > 0 || f.cook > 0) dirty = true;
    f.lit = f.burn > 0;
  }

  serv.on('tick', guard('furnace: a tick', (/** @type {number} */ _delta, /** @type {number} */ count) => {
    for (const f of all.values()) {
      const idle = f.burn === 0 && f.cook === 0 && !(f.slots[INPUT] && f.slots[FUEL]);
      if (!idle) tickFurnace(f);
      if (f.lit !== f.litShown) showLit(f);
      if (f.viewers.size > 0 && (!idle ? count % PROPERTY_EVERY_TICKS === 0 : f.working)) {
        for (const [player, c] of f.viewers) sendProperties(f, player, c);
      }
      f.working = !idle;
    }
  }));

  /** Drop what a furnace holds where it stood and forget it. @param {Furnace} f */
  function breakFurnace(f) {
    for (const [player] of f.viewers) windows.close(player, true);
    for (const item of f.slots) if (item) dropAt(serv, serv.overworld, f.position.offset(0.5, 0.5, 0.5), item.type, item.count, { pickupMs: 500 });
    all.delete(f.key);
    dirty = true;
  }

  // A furnace whose block is gone (dug, replaced by the operator) drops its contents; checked once a second.
  setInterval(guard('furnace: checking blocks', () => {
    const world = serv.overworld;
    if (!world) return;
    for (const f of [...all.values()]) {
      if (f.viewers.size === 0 && empty(f)) {
        all.delete(f.key);
        continue;
      }
      if (!world.sync.getColumnAt(f.position)) continue;
      const stateId = world.sync.getBlockStateId(f.position);
      if (stateId < furnaceBlock.minStateId || stateId > furnaceBlock.maxStateId) breakFurnace(f);
    }
  }), 1000).unref();

  /** @param {Player} player @param {Vec3} position */
  function openFurnace(player, position) {
    const f = furnaceAt(position);
    const c = windows.open(player, {
      inventoryType: furnaceType,
      title: 'container.furnace',
      slots: 3,
      position: f.position,
      blockType: furnaceBlock.id,
      get: (s) => f.slots[s] ?? null,
      set: (s, item) => {
        f.slots[s] = item;
        dirty = true;
      },
      mayPlace: (s, item) => s === INPUT || (s === FUEL && (fuelTicksOf(item) > 0 || registry.items[item.type]?.name === 'bucket')),
      quickMove: (s, item) => {
        if (s < 3) return [{ range: [3, 39], reverse: s === OUTPUT }];
        if (outputOf.has(item.type)) return [{ range: [INPUT, INPUT + 1], reverse: false }];
        if (fuelTicksOf(item) > 0) return [{ range: [FUEL, FUEL + 1], reverse: false }];
        return null;
      },
      afterClick: () => {
        dirty = true;
        for (const [other, oc] of f.viewers) if (other !== player) for (const s of [INPUT, FUEL, OUTPUT]) windows.sendSlot(other, oc, s);
      },
      onClose: () => {
        f.viewers.delete(player);
        return [];
      },
    });
    if (!c) return false;
    f.viewers.set(player, c);
    sendProperties(f, player, c);
    return true;
  }

  serv.onBlockInteraction('furnace', guard('furnace: opening', (/** @type {{ block: any, player: Player }} */ { block, player }) => {
    const held = player.inventory.slots[36 + player.heldItemSlot];
    if (player.crouching && held) return false; // sneaking with an item in hand places it instead
    return openFurnace(player, block.position);
  }));

  serv.on('newPlayer', (/** @type {Player} */ player) => {
    player.on('dug', (/** @type {{ position: Vec3, block: { type: number } }} */ { position, block }, /** @type {boolean} */ cancelled) => {
      if (cancelled || !block || block.type !== furnaceBlock.id) return;
      const f = all.get(keyOf(position));
      if (f) breakFurnace(f);
    });
  });

  // Saving and loading.
  /** @param {Item | null} item @returns {SavedItem} */
  const saveItem = (item) => (item ? { name: registry.items[item.type]?.name ?? String(item.type), count: item.count } : null);
  /** @param {unknown} saved @returns {Item | null} */
  const loadItem = (saved) => {
    if (!saved || typeof saved !== 'object') return null;
    const { name, count } = /** @type {{ name?: unknown, count?: unknown }} */ (saved);
    const def = typeof name === 'string' ? registry.itemsByName[name] : undefined;
    if (!def || typeof count !== 'number' || !Number.isInteger(count) || count < 1) return null;
    return new Item(def.id, Math.min(count, def.stackSize || 64));
  };
  /** @param {unknown} n */
  const ticks = (n) => (typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0);

  function load() {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return;
      throw err;
    }
    let data;
    try {
      data = JSON.parse(text);
    } catch (err) {
      // Kept as it was, beside a fresh start: nothing is thrown away.
      const aside = `${file}.unreadable-${Date.now()}`;
      fs.renameSync(file, aside);
      process.stderr.write(`furnace: ${file} is not JSON (${/** @type {Error} */ (err).message}); moved to ${aside}\n`);
      return;
    }
    for (const s of Array.isArray(data?.furnaces) ? data.furnaces : []) {
      if (![s?.x, s?.y, s?.z].every((v) => Number.isInteger(v))) continue;
      const f = furnaceAt(new Vec3(s.x, s.y, s.z));
      f.slots = [loadItem(s.input), loadItem(s.fuel), loadItem(s.output)];
      f.burn = ticks(s.burn);
      f.burnTotal = Math.max(ticks(s.burnTotal), f.burn);
      f.cook = Math.min(ticks(s.cook), cookTicks - 1);
      f.inputType = f.slots[INPUT]?.type ?? null;
      f.lit = f.burn > 0;
      f.litShown = f.lit;
    }
  }

  /** Write every furnace that holds something (one write at a time). */
  function save() {
    dirty = false;
    /** @type {SavedFurnace[]} */
    const list = [];
    for (const f of all.values()) {
      if (empty(f)) continue;
      const { x, y, z } = f.position;
      list.push({ x, y, z, input: saveItem(f.slots[INPUT] ?? null), fuel: saveItem(f.slots[FUEL] ?? null), output: saveItem(f.slots[OUTPUT] ?? null), burn: f.burn, burnTotal: f.burnTotal, cook: f.cook });
    }
    const text = `${JSON.stringify({ version: 1, furnaces: list })}\n`;
    saving = saving.then(async () => {
      const tmp = `${file}.tmp`;
      await fs.promises.writeFile(tmp, text, { mode: 0o600 });
      await fs.promises.rename(tmp, file);
    }).catch((err) => {
      dirty = true;
      process.stderr.write(`furnace: saving ${file} failed: ${err && err.message}\n`);
    });
    return saving;
  }

  load();
  setInterval(() => {
    if (dirty) void save();
  }, SAVE_EVERY_MS).unref();

  return {
    /** Save now if anything changed (on shutdown). */
    flush() {
      return dirty ? save() : saving;
    },
    /**
     * A furnace's state for tests and the operator: its slots (item names), fuel and progress ticks, whether it is lit.
     * @param {{ x: number, y: number, z: number }} p
     */
    stateAt(p) {
      const f = all.get(keyOf(p));
      if (!f) return null;
      return { input: saveItem(f.slots[INPUT] ?? null), fuel: saveItem(f.slots[FUEL] ?? null), output: saveItem(f.slots[OUTPUT] ?? null), burn: f.burn, burnTotal: f.burnTotal, cook: f.cook, lit: f.lit };
    },
  };
}

module.exports = furnaces;
