// @ts-check
'use strict';
/*
 * Animals of the embedded world: cows, pigs, sheep and chickens (vanilla Java 1.21.4 numbers).
 *
 *   kind     health  walks (b/s)  flees (b/s)  drops
 *   cow      10      1.8          7.0          1–3 beef, 0–2 leather
 *   pig      10      2.8          4.3          1–3 porkchop
 *   sheep    8       2.3          3.6          1–2 mutton, 1 wool of its colour
 *   chicken  4       2.8          5.4          1 chicken, 0–2 feathers
 * (speeds from the movement speed attributes 0.2/0.25/0.23/0.25 and the goals' modifiers, mob-world.cjs;
 * minecraft-data's entity loot lists the items but not vanilla's counts, which are written here.)
 *
 * They stand about and now and then stroll to a spot up to 10 blocks away (vanilla's random stroll: one
 * chance in 120 a tick), keep out of water, and run from whoever hurt them for 3 seconds. A sheep's wool
 * colour follows vanilla's natural odds.
 *
 * Spawning: the first time a chunk of grass near a player is loaded, it may get a herd (one chunk in four,
 * 2–4 animals of one kind, plains weights: sheep 12, pig 10, chicken 10, cow 8), decided by the world seed and
 * the chunk's place, so the same chunk always gets the same herd. After that, animals come back slowly: every
 * 20 s a player with fewer than 10 animals within 64 blocks has one chance in five of a new herd of 2–3 on grass
 * 24–48 blocks away. Animals with nobody within 160 blocks are taken away (and may come back the same way).
 */
const { walkSpeed } = require('./mob-movement.cjs');
const { hash } = require('./random.cjs');
const { UNLOADED } = require('./mob-movement.cjs');
const { known } = require('./registry-util.cjs');

/** Chunks around a player examined for a first herd (radius, in chunks). */
const HERD_RADIUS = 3;
const HERD_CHANCE = 0.25;
/** Animals allowed within AREA blocks of a player before no more come back. */
const AREA = 64;
const AREA_CAP = 10;
const RETURN_EVERY_TICKS = 400;
const RETURN_CHANCE = 0.2;
/** Animals this far from every player are taken away. */
const DESPAWN_BEYOND = 160;
/** Vanilla's random stroll: one chance in 120 a tick; a step is five ticks. */
const STROLL_CHANCE = 5 / 120;
const STROLL_RANGE = 10;
const PANIC_TICKS = 60;

/**
 * @typedef {import('./mob-world.cjs').Mob} Mob
 * @typedef {import('./mob-world.cjs').MobWorld} MobWorld
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 */

/** Wool colours a sheep spawns with, by vanilla's odds (of 1000). */
const WOOL = [
  ['white', 818],
  ['black', 50],
  ['gray', 50],
  ['light_gray', 50],
  ['brown', 30],
  ['pink', 2],
];
/** Wool colour ids (the order of the dye colours), for the sheep's metadata. */
const DYE = ['white', 'orange', 'magenta', 'light_blue', 'yellow', 'lime', 'pink', 'gray', 'light_gray', 'cyan', 'purple', 'blue', 'brown', 'green', 'red', 'black'];

/** @param {() => number} random @param {number} min @param {number} max */
const between = (random, min, max) => min + Math.floor(random() * (max - min + 1));

/**
 * @typedef {{ name: string, health: number, speed: number, panicModifier: number, weight: number, drops(mob: Mob): Array<{ name: string, count: number }> }} AnimalSpec
 * @type {AnimalSpec[]}
 */
const ANIMALS = [
  { name: 'sheep', health: 8, speed: 0.23, panicModifier: 1.25, weight: 12, drops: (m) => [{ name: 'mutton', count: between(m.random, 1, 2) }, { name: `${m.ai.wool}_wool`, count: 1 }] },
  { name: 'pig', health: 10, speed: 0.25, panicModifier: 1.25, weight: 10, drops: (m) => [{ name: 'porkchop', count: between(m.random, 1, 3) }] },
  { name: 'chicken', health: 4, speed: 0.25, panicModifier: 1.4, weight: 10, drops: (m) => [{ name: 'chicken', count: 1 }, { name: 'feather', count: between(m.random, 0, 2) }] },
  { name: 'cow', health: 10, speed: 0.2, panicModifier: 2.0, weight: 8, drops: (m) => [{ name: 'beef', count: between(m.random, 1, 3) }, { name: 'leather', count: between(m.random, 0, 2) }] },
];
const TOTAL_WEIGHT = ANIMALS.reduce((n, a) => n + a.weight, 0);

/**
 * Install the animals on a mob world.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Registry, mobs: MobWorld, seed: number }} ctx
 */
function animals(serv, { registry, mobs, seed }) {
  const grass = known(registry.blocksByName, 'grass_block', 'block').id;
  /** Chunks that had their chance of a first herd. */
  const visited = new Set();
  let spawning = true;

  /** @param {AnimalSpec} spec @returns {import('./mob-world.cjs').MobKind} */
  const kindOf = (spec) => ({
    name: spec.name,
    category: 'passive',
    maxHealth: spec.health,
    init(mob) {
      mob.ai = { panicUntil: 0, from: null, wool: 'white' };
      if (spec.name === 'sheep') {
        let r = mob.random() * 1000;
        for (const [colour, odds] of WOOL) {
          r -= /** @type {number} */ (odds);
          if (r < 0) {
            mob.ai.wool = colour;
            break;
          }
        }
      }
    },
    metadata: (mob) => (spec.name === 'sheep' ? [{ key: 17, type: 'byte', value: Math.max(0, DYE.indexOf(mob.ai.wool)) }] : []),
    drops: (mob) => spec.drops(mob),
    hurt(mob, attacker) {
      mob.ai.panicUntil = serv.tickCount + PANIC_TICKS;
      mob.ai.from = attacker ? { x: attacker.position.x, z: attacker.position.z } : null;
      mob.goal = null;
    },
    think(mob, world) {
      if (mob.nearestDistance > DESPAWN_BEYOND) {
        world.remove(mob);
        return;
      }
      if (mob.nearestDistance > 64) return; // nobody near: it stands still and costs nothing
      if (serv.tickCount < mob.ai.panicUntil) {
        if (!mob.goal || mob.blocked > 1) {
          // Away from the attacker (or anywhere), a few blocks at a time.
          const from = mob.ai.from;
          let angle = mob.random() * Math.PI * 2;
          if (from && mob.blocked <= 1) angle = Math.atan2(mob.z - from.z, mob.x - from.x) + (mob.random() - 0.5);
          mob.goal = { x: mob.x + Math.cos(angle) * 5, z: mob.z + Math.sin(angle) * 5, speed: walkSpeed(spec.speed, spec.panicModifier) };
        }
        return;
      }
      if (mob.goal && mob.blocked > 2) mob.goal = null;
      if (mob.goal || mob.random() >= STROLL_CHANCE) {
        if (!mob.goal && mob.random() < 0.05) mob.yaw = mob.random() * 360; // looking about
        return;
      }
      const angle = mob.random() * Math.PI * 2;
      const d = 2 + mob.random() * (STROLL_RANGE - 2);
      const x = mob.x + Math.cos(angle) * d;
      const z = mob.z + Math.sin(angle) * d;
      const terrain = world.terrain();
      const y = terrain.standingY(x, z, Math.floor(mob.y) + 3, Math.floor(mob.y) - 4, mob.heightBlocks);
      if (y === null || terrain.inFluid({ x, y, z, onGround: true, heightBlocks: 1 })) return; // not into water or off a cliff
      mob.goal = { x, z, speed: walkSpeed(spec.speed, 1) };
    },
  });
  for (const spec of ANIMALS) mobs.register(kindOf(spec));

  /** A kind by weight. @param {number} r in [0, 1) */
  function pick(r) {
    let w = r * TOTAL_WEIGHT;
    for (const a of ANIMALS) {
      w -= a.weight;
      if (w < 0) return a;
    }
    return /** @type {AnimalSpec} */ (ANIMALS[ANIMALS.length - 1]);
  }

  /**
   * A herd of `n` around (x, z) on grass; returns how many stood.
   * @param {AnimalSpec} spec @param {number} x @param {number} z @param {number} n @param {() => number} random
   */
  function herd(spec, x, z, n, random) {
    const terrain = mobs.terrain();
    let placed = 0;
    for (let i = 0; i < n * 3 && placed < n; i++) {
      const px = Math.floor(x + (random() - 0.5) * 8) + 0.5;
      const pz = Math.floor(z + (random() - 0.5) * 8) + 0.5;
      const y = terrain.standingY(px, pz, 90, 40, 2);
      if (y === null || terrain.groundType(px, y, pz) !== grass) continue;
      if (!mobs.spawn(spec.name, { x: px, y, z: pz })) break;
      placed++;
    }
    return placed;
  }

  /** The chunk each player was in when its surroundings were last looked at (nothing new while it stays there). */
  /** @type {WeakMap<Player, { cx: number, cz: number, pending: boolean }>} */
  const lastChunk = new WeakMap();

  /** First herds for the chunks around a player, decided by the seed and the chunk. @param {Player} p */
  function firstHerds(p) {
    const cx = Math.floor(p.position.x / 16);
    const cz = Math.floor(p.position.z / 16);
    const last = lastChunk.get(p);
    if (last && last.cx === cx && last.cz === cz && !last.pending) return;
    let pending = false;
    for (let dx = -HERD_RADIUS; dx <= HERD_RADIUS; dx++) {
      for (let dz = -HERD_RADIUS; dz <= HERD_RADIUS; dz++) {
        const key = `${cx + dx},${cz + dz}`;
        if (visited.has(key)) continue;
        const x = (cx + dx) * 16 + 8;
        const z = (cz + dz) * 16 + 8;
        const terrain = mobs.terrain();
        if (terrain.kindAt(x, 63, z) === UNLOADED) {
          pending = true; // not loaded yet: its turn comes on a later look
          continue;
        }
        visited.add(key);
        const h = hash(seed, cx + dx, cz + dz, 0xa1);
        if (h / 0x100000000 >= HERD_CHANCE) continue;
        let n = h;
        const random = () => (n = hash(seed, n, 0xa2)) / 0x100000000;
        herd(pick(random()), x, z, 2 + Math.floor(random() * 3), random);
      }
    }
    lastChunk.set(p, { cx, cz, pending });
  }

  /** A herd coming back near a player with few animals around. @param {Player} p */
  function comeBack(p) {
    if (mobs.countNear(p.position, AREA, 'passive') >= AREA_CAP) return;
    if (mobs.random() >= RETURN_CHANCE) return;
    const angle = mobs.random() * Math.PI * 2;
    const d = 24 + mobs.random() * 24;
    herd(pick(mobs.random()), p.position.x + Math.cos(angle) * d, p.position.z + Math.sin(angle) * d, 2 + Math.floor(mobs.random() * 2), mobs.random);
  }

  serv.on('tick', (/** @type {number} */ _delta, /** @type {number} */ count) => {
    if (!spawning || !serv.overworld) return;
    if (count % 20 === 7) for (const p of mobs.players()) if (p.world === serv.overworld) firstHerds(p);
    if (count % RETURN_EVERY_TICKS === 13) for (const p of mobs.players()) if (p.world === serv.overworld && p.gameMode === 0) comeBack(p);
  });

  return {
    /** Turn natural spawning on or off (tests that want a quiet world). @param {boolean} on */
    setSpawning(on) {
      spawning = on;
    },
  };
}

module.exports = { animals, ANIMALS };
