// @ts-check
'use strict';
/*
 * Tools matter in the embedded world: what a dug block drops and how fast it
 * may be dug depend on the held item, as in vanilla.
 *
 * flying-squid 1.12.0 drops every loot entry of a block at once (leaves give
 * leaves, a sapling, a stick and an apple), drops stone's cobblestone to a
 * bare hand, ignores the held tool's speed, and picks up a dropped stack as a
 * single item. Here, through its `dug_cancel` behaviour hook:
 *   - a block whose minecraft-data `harvestTools` the held item is not among drops nothing;
 *   - otherwise one of its non-silk-touch loot entries drops (alternatives by their chance,
 *     counts in their range), leaves by vanilla's chances (sapling 1/20, sticks 1/50, apple 1/200
 *     for oak and dark oak) and gravel flint 1/10;
 *   - a dig finished in much less than the held tool's dig time is refused (the block is sent back),
 *     unless this process stood still meanwhile (a busy machine): then the start and the end of a
 *     dig are read together, however long the client took, and the dig is let be;
 *   - a picked-up item entity gives its whole count.
 * Chance draws come from a generator seeded by the world seed.
 */

const { Vec3 } = require('vec3');
const { FILL_ORDER } = require('./inventory-util.cjs');
const { guard } = require('./guard.cjs');
const { seeded } = require('./random.cjs');

const LEAF_SAPLING = 1 / 20;
const LEAF_STICKS = 1 / 50;
const LEAF_APPLE = 1 / 200;
const GRAVEL_FLINT = 1 / 10;
/** A dig may finish this much sooner than the dig time (latency, the client's own rounding). */
const DIG_SLACK = 0.6;
const DIG_SLACK_MS = 300;
/** How often the world notes that its event loop runs, to tell a dig read late from a dig made too fast. */
const BEAT_MS = 50;
/** A stall this long before a dig's start counts too: after a stall, the loop may read what waited for a while. */
const STALL_LEAD_MS = 1000;
/** How long the loop's stalls are remembered (longer than any dig). */
const STALLS_KEPT_MS = 60_000;

/**
 * The world's own stalls: a timer beats every {@link BEAT_MS}; a beat that comes late by more than a beat marks
 * the time the loop stood still. `since(t)` is the longest stall since `t`, counting one still under way (the
 * packets read right after a stall may come before the late beat).
 */
function stallMeter() {
  let last = Date.now();
  /** @type {{ at: number, ms: number }[]} */
  const stalls = [];
  const timer = setInterval(() => {
    const now = Date.now();
    const gap = now - last - BEAT_MS;
    last = now;
    if (gap > BEAT_MS) stalls.push({ at: now, ms: gap });
    while (stalls.length > 0 && (stalls[0]?.at ?? now) < now - STALLS_KEPT_MS) stalls.shift();
  }, BEAT_MS);
  timer.unref();
  return {
    /** @param {number} t */
    since(t) {
      let most = Math.max(0, Date.now() - last - BEAT_MS);
      for (const s of stalls) if (s.at >= t) most = Math.max(most, s.ms);
      return most;
    },
  };
}

/**
 * @typedef {import('./types.cjs').Registry} Registry
 * @typedef {import('./types.cjs').Serv} Serv
 * @typedef {{ type: number } | null} Held
 * A dug block, as prismarine-block gives it (the part used here).
 * @typedef {object} DugBlock
 * @property {string} name
 * @property {number} stateId
 * @property {Record<string, boolean> | undefined} [harvestTools]
 * @property {(heldType: number | null, creative: boolean, inWater: boolean, notOnGround: boolean, enchantments: unknown[], effects: object) => number} digTime
 */

/**
 * The drop rules: `dropsOf(block, held)` is what a block (a minecraft-data block: name, harvestTools) drops when
 * dug in survival holding `held` (an item with `type`, or null), as `[{ id, count }]`.
 *
 * @param {{ registry: Registry, random: () => number }} ctx `random` in [0, 1)
 */
function createDropRules({ registry, random }) {
  /** @param {string} name */
  const itemId = (name) => registry.itemsByName[name]?.id;
  /** @param {Array<number | null>} [range] minecraft-data's `[min, max]` (a missing bound counts as 0) */
  const between = ([min, max] = [1, 1]) => Number(min) + Math.floor(random() * (Number(max) - Number(min) + 1));

  /**
   * @param {Pick<DugBlock, 'name' | 'harvestTools'>} block
   * @param {Held} held
   * @returns {Array<{ id: number | undefined, count: number }>}
   */
  function dropsOf(block, held) {
    if (block.harvestTools && !(held && block.harvestTools[held.type])) return [];
    const name = block.name;
    /** @param {string} n */
    const holds = (n) => held && registry.items[held.type]?.name === n;
    if (name.endsWith('_leaves')) {
      if (holds('shears')) return [{ id: itemId(name), count: 1 }];
      /** @type {Array<{ id: number | undefined, count: number }>} */
      const out = [];
      const sapling = itemId(name.replace(/_leaves$/, '_sapling'));
      if (sapling !== undefined && random() < LEAF_SAPLING) out.push({ id: sapling, count: 1 });
      if (random() < LEAF_STICKS) out.push({ id: itemId('stick'), count: between([1, 2]) });
      if ((name === 'oak_leaves' || name === 'dark_oak_leaves') && random() < LEAF_APPLE) out.push({ id: itemId('apple'), count: 1 });
      return out;
    }
    if (name === 'gravel') return [{ id: itemId(random() < GRAVEL_FLINT ? 'flint' : 'gravel'), count: 1 }];
    const loot = registry.blockLoot?.[name]?.drops?.filter((d) => !d.silkTouch) ?? [];
    if (loot.length === 0) return [];
    // minecraft-data splits one drop's chance over its alternatives (silk touch or not): one entry left drops always,
    // several are alternatives chosen by weight.
    const [only] = loot;
    if (only && loot.length === 1) return [{ id: itemId(only.item), count: between(only.stackSizeRange) }];
    const total = loot.reduce((n, d) => n + (d.dropChance ?? 1), 0);
    let r = random() * total;
    for (const d of loot) {
      r -= d.dropChance ?? 1;
      if (r <= 0) return [{ id: itemId(d.item), count: between(d.stackSizeRange) }];
    }
    const last = /** @type {(typeof loot)[number]} */ (loot[loot.length - 1]);
    return [{ id: itemId(last.item), count: between(last.stackSizeRange) }];
  }

  return { dropsOf };
}

/**
 * Install tool-dependent drops and dig times on a flying-squid server.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ registry: Registry, seed?: number }} ctx
 */
function tools(serv, { registry, seed = 1 }) {
  const Item = /** @type {import('./types.cjs').ItemLoader} */ (/** @type {unknown} */ (require('prismarine-item')))(registry);
  const random = seeded(seed ^ 0x5eed);
  const { dropsOf } = createDropRules({ registry, random });
  const stalls = stallMeter();

  serv.on('newPlayer', (/** @type {import('./types.cjs').Player} */ player) => {
    /** @type {{ at: number, x: number, y: number, z: number } | null} */
    let digStart = null;
    player._client.on('block_dig', (/** @type {{ status: number, location?: import('vec3').Vec3 }} */ { status, location }) => {
      if (status === 0 && location) digStart = { at: Date.now(), x: location.x, y: location.y, z: location.z };
    });

    /** @typedef {{ block?: DugBlock, position?: import('vec3').Vec3, drops?: unknown[] }} DugData */
    player.on('dug_cancel', guard('tools: dug block', (/** @type {DugData} */ data, /** @type {(dropped: boolean) => void} */ cancel) => {
      const { block, position } = data;
      if (!block || !position || !Array.isArray(data.drops)) return;
      const held = player.inventory.slots[36 + player.heldItemSlot] ?? null;
      if (player.gameMode === 0 && digStart && digStart.x === position.x && digStart.y === position.y && digStart.z === position.z) {
        // As if on the ground: the check is about the tool; being in the air only makes a dig slower.
        const needed = block.digTime(held ? held.type : null, false, false, false, [], {});
        const took = Date.now() - digStart.at;
        const short = needed * DIG_SLACK - DIG_SLACK_MS - took;
        if (Number.isFinite(needed) && short > 0 && stalls.since(digStart.at - STALL_LEAD_MS) < short) {
          cancel(false);
          player.sendBlock(position, block.stateId);
          return;
        }
      }
      // Drops fall where the block was (flying-squid players do not walk to items that fly off).
      const base = {
        blockDropPosition: position.offset(0.5, 0.5, 0.5),
        blockDropWorld: player.world,
        blockDropDamage: 0,
        blockDropPickup: 500,
        blockDropDeath: 5 * 60 * 1000,
      };
      const drops = dropsOf(block, held)
        .filter((d) => d.id !== undefined && d.count > 0)
        .map((d) => ({ ...base, blockDropId: d.id, blockDropCount: d.count, blockDropVelocity: new Vec3(0, 0, 0) }));
      data.drops.splice(0, data.drops.length, ...drops);
    }));

    // flying-squid adds one item per picked-up entity, whatever its count.
    player.collect = guard('tools: picking up', (/** @type {import('./types.cjs').Entity} */ entity) => {
      const type = entity.itemId;
      if (type === undefined) return;
      const def = registry.items[type];
      if (!def) return;
      let left = entity.itemCount ?? 1;
      const max = def.stackSize || 64;
      for (const slot of FILL_ORDER) {
        const item = player.inventory.slots[slot];
        if (left > 0 && item && item.type === type && item.count < max && !item.nbt) {
          const n = Math.min(left, max - item.count);
          item.count += n;
          left -= n;
          player.inventory.updateSlot(slot, item);
        }
      }
      for (const slot of FILL_ORDER) {
        if (left > 0 && !player.inventory.slots[slot]) {
          const n = Math.min(left, max);
          left -= n;
          player.inventory.updateSlot(slot, new Item(type, n));
        }
      }
      const taken = (entity.itemCount ?? 1) - left;
      if (taken <= 0) return;
      entity._writeOthersNearby('collect', { collectedEntityId: entity.id, collectorEntityId: player.id, pickupItemCount: taken });
      player.playSoundAtSelf('random.pop');
      if (left > 0) entity.itemCount = left;
      else entity.destroy();
    });
  });
}

module.exports = Object.assign(tools, { createDropRules, seeded });
