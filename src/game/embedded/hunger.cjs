// @ts-check
'use strict';
/*
 * Hunger for the embedded world, with vanilla's numbers (Java 1.21).
 *
 * flying-squid 1.12.0 keeps a food number it never changes and cannot eat.
 * Here each player has food (0–20), saturation (starts at 5) and exhaustion:
 *   - exhaustion from sprinting (0.1 per metre), swimming (0.01 per metre), jumping (0.05; 0.2 sprinting),
 *     breaking a block (0.005), attacking (0.1), taking damage (0.1), and healing (6 per health point);
 *     walking costs nothing in vanilla Java and costs nothing here;
 *   - every 4 exhaustion takes one saturation point, or one food point when saturation is gone;
 *   - with full food and saturation left, health regenerates every 10 ticks; with food ≥ 18, every 80 ticks;
 *     with no food, starvation hurts every 80 ticks (down to 10 health on easy, 1 on normal, 0 on hard);
 *   - eating (the use-item packet with food held, 32 ticks, 16 for dried kelp) restores minecraft-data's food
 *     points and saturation, takes one item (soups leave a bowl, honey a bottle) and is answered with
 *     entity status 9, which mineflayer's `bot.consume()` waits for;
 *   - a respawn restores food 20 and saturation 5.
 */
const { giveOrDrop } = require('./inventory-util.cjs');
const { guard } = require('./guard.cjs');

const EXHAUSTION_PER_POINT = 4;
const MAX_EXHAUSTION = 40;
const SPRINT_PER_METRE = 0.1;
const SWIM_PER_METRE = 0.01;
const WALK_PER_METRE = 0;
const JUMP = 0.05;
const SPRINT_JUMP = 0.2;
const DIG = 0.005;
const ATTACK = 0.1;
const DAMAGE = 0.1;
const HEAL = 6;
const EAT_TICKS = 32;
const FAST_FOOD = new Set(['dried_kelp']);
const ALWAYS_EDIBLE = new Set(['golden_apple', 'enchanted_golden_apple', 'chorus_fruit']);
/** @type {Record<string, string>} */
const LEAVES = { mushroom_stew: 'bowl', beetroot_soup: 'bowl', rabbit_stew: 'bowl', suspicious_stew: 'bowl', honey_bottle: 'glass_bottle' };

/**
 * Install hunger and eating on a flying-squid server.
 *
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Item} Item
 * @typedef {import('./ipc.ts').ServerHunger} ServerHunger
 * @typedef {{ slot: number, type: number, ticks: number, needed: number }} Eating
 * @typedef {{ exhaustion: number, timer: number, eating: Eating | null, sprinting: boolean }} HungerState
 *
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Registry }} ctx
 * @returns {{ stateOf(player: Player): ServerHunger, set(player: Player, values: Partial<ServerHunger>): void }}
 */
function hunger(serv, { registry }) {
  const Item = /** @type {import('./types.cjs').ItemLoader} */ (/** @type {unknown} */ (require('prismarine-item')))(registry);
  /** @type {WeakMap<Player, HungerState>} */
  const states = new WeakMap();
  const difficulty = () => serv.difficulty ?? 1;

  /** @param {Player} player */
  function send(player) {
    player._client.write('update_health', { health: player.health, food: player.food, foodSaturation: player.foodSaturation });
  }

  /**
   * @param {Player} player
   * @param {number} amount
   */
  function exhaust(player, amount) {
    const st = states.get(player);
    if (!st || player.gameMode !== 0 || amount <= 0) return;
    st.exhaustion = Math.min(MAX_EXHAUSTION, st.exhaustion + amount);
  }

  /**
   * @param {Player} player
   * @param {number} amount
   */
  function heal(player, amount) {
    player.health = Math.min(20, player.health + amount);
  }

  /**
   * @param {Player} player
   * @param {HungerState} st
   */
  function tick(player, st) {
    let changed = false;
    if (st.exhaustion > EXHAUSTION_PER_POINT) {
      st.exhaustion -= EXHAUSTION_PER_POINT;
      if (player.foodSaturation > 0) player.foodSaturation = Math.max(player.foodSaturation - 1, 0);
      else if (difficulty() !== 0) player.food = Math.max(player.food - 1, 0);
      changed = true;
    }
    const hurt = player.health > 0 && player.health < 20;
    if (player.foodSaturation > 0 && hurt && player.food >= 20) {
      if (++st.timer >= 10) {
        const f = Math.min(player.foodSaturation, 6);
        heal(player, f / 6);
        exhaust(player, f);
        st.timer = 0;
        changed = true;
      }
    } else if (player.food >= 18 && hurt) {
      if (++st.timer >= 80) {
        heal(player, 1);
        exhaust(player, HEAL);
        st.timer = 0;
        changed = true;
      }
    } else if (player.food <= 0) {
      if (++st.timer >= 80) {
        const d = difficulty();
        if (player.health > 10 || d === 3 || (player.health > 1 && d === 2)) {
          st.timer = 0;
          player.takeDamage({ damage: 1, death: { key: 'death.attack.starve', with: [] } });
          return; // takeDamage sends the health packet
        }
        st.timer = 0;
      }
    } else st.timer = 0;

    if (st.eating) {
      const e = st.eating;
      const held = player.inventory.slots[e.slot];
      if (!held || held.type !== e.type) st.eating = null;
      else if (++e.ticks >= e.needed) {
        st.eating = null;
        finishEating(player, e.slot, held);
        return;
      }
    }
    if (changed) send(player);
  }

  /**
   * @param {Player} player
   * @param {number} slot
   * @param {Item} held
   */
  function finishEating(player, slot, held) {
    const name = registry.items[held.type]?.name;
    const food = name === undefined ? undefined : registry.foodsByName[name];
    if (!food) return;
    player.food = Math.min(20, player.food + (food.foodPoints ?? 0));
    player.foodSaturation = Math.min(player.food, player.foodSaturation + (food.saturation ?? 0));
    if (held.count > 1) {
      held.count -= 1;
      player.inventory.updateSlot(slot, held);
    } else player.inventory.updateSlot(slot, null);
    const left = name === undefined ? undefined : LEAVES[name];
    const rest = left && registry.itemsByName[left];
    if (rest) giveOrDrop(serv, player, new Item(rest.id, 1));
    player._client.write('entity_status', { entityId: player.id, entityStatus: 9 });
    send(player);
  }

  serv.on('newPlayer', (/** @type {Player} */ player) => {
    /** @type {HungerState} */
    const st = { exhaustion: 0, timer: 0, eating: null, sprinting: false };
    states.set(player, st);
    if (typeof player.foodSaturation !== 'number') player.foodSaturation = 5;
    if (typeof player.food !== 'number') player.food = 20;

    const client = player._client;
    // 1.21.4 names the action ('start_sprinting'); older versions number it.
    client.on('entity_action', (/** @type {{ actionId: number | string }} */ { actionId }) => {
      if (actionId === 3 || actionId === 'start_sprinting') st.sprinting = true;
      else if (actionId === 4 || actionId === 'stop_sprinting') st.sprinting = false;
    });
    /** @typedef {{ position: import('vec3').Vec3, onGround: boolean, teleport?: boolean }} Move */
    player.on('move', guard('hunger: a move', (/** @type {Move} */ { position, onGround, teleport }) => {
      if (teleport || !player.position) return;
      const dx = position.x - player.position.x;
      const dy = position.y - player.position.y;
      const dz = position.z - player.position.z;
      const horizontal = Math.sqrt(dx * dx + dz * dz);
      if (horizontal > 10) return; // a teleport, not a step
      const inWater = player.inWater === true;
      if (inWater) exhaust(player, SWIM_PER_METRE * Math.sqrt(horizontal * horizontal + dy * dy));
      else if (st.sprinting) exhaust(player, SPRINT_PER_METRE * horizontal);
      else exhaust(player, WALK_PER_METRE * horizontal);
      if (player.onGround && !onGround && dy > 0) exhaust(player, st.sprinting ? SPRINT_JUMP : JUMP);
    }));
    player.on('dug', (/** @type {unknown} */ _data, /** @type {boolean} */ cancelled) => {
      if (!cancelled) exhaust(player, DIG);
    });
    client.on('use_entity', (/** @type {{ mouse: number }} */ { mouse }) => {
      if (mouse === 1) exhaust(player, ATTACK);
    });
    const takeDamage = player.takeDamage;
    /** @param {Parameters<Player['takeDamage']>[0]} opts */
    player.takeDamage = (opts) => {
      exhaust(player, DAMAGE);
      return takeDamage(opts);
    };

    client.on('use_item', guard('hunger: using an item', (/** @type {{ hand: number }} */ { hand }) => {
      if (player.gameMode !== 0 && player.gameMode !== 2) return;
      const slot = hand === 1 ? 45 : 36 + player.heldItemSlot;
      const held = player.inventory.slots[slot];
      const name = held && registry.items[held.type]?.name;
      const food = name && registry.foodsByName[name];
      if (!held || !name || !food || !(food.foodPoints > 0)) return;
      if (player.food >= 20 && !ALWAYS_EDIBLE.has(name)) return;
      st.eating = { slot, type: held.type, ticks: 0, needed: FAST_FOOD.has(name) ? EAT_TICKS / 2 : EAT_TICKS };
    }));
    client.on('held_item_slot', () => {
      st.eating = null;
    });
    client.on('block_dig', (/** @type {{ status: number }} */ { status }) => {
      if (status === 5) st.eating = null; // released the use key
    });
    // Before the respawn (respawn.cjs) sends the health packet, which carries the food.
    player.on('requestRespawn', () => {
      player.food = 20;
      player.foodSaturation = 5;
      st.exhaustion = 0;
      st.timer = 0;
      st.eating = null;
    });
  });

  serv.on('tick', guard('hunger: a tick', () => {
    for (const player of serv.players) {
      const st = states.get(player);
      if (st && player.gameMode === 0 && player.health > 0 && !player.disconnected) tick(player, st);
    }
  }));

  return {
    stateOf(player) {
      const st = states.get(player);
      return { food: player.food, saturation: player.foodSaturation, exhaustion: st ? st.exhaustion : 0, health: player.health };
    },
    set(player, { food, saturation, exhaustion, health }) {
      const st = states.get(player);
      if (typeof food === 'number') player.food = Math.max(0, Math.min(20, food));
      if (typeof saturation === 'number') player.foodSaturation = Math.max(0, Math.min(player.food, saturation));
      if (typeof exhaustion === 'number' && st) st.exhaustion = Math.max(0, Math.min(MAX_EXHAUSTION, exhaustion));
      if (typeof health === 'number') player.health = Math.max(0, Math.min(20, health));
      send(player);
    },
  };
}

module.exports = hunger;
