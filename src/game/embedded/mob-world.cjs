// @ts-check
'use strict';
/*
 * The mobs of the embedded world: what they are, who sees them, how they move, get hurt and die.
 *
 * flying-squid 1.12.0 cannot spawn mobs on 1.20.2+ (`spawnMob` throws) and gives them no AI. Here a mob is a
 * plain record outside flying-squid's entity table (whose every-tick physics and whole-table scans would cost
 * too much with many), with an entity id from flying-squid's counter. The kinds (animals.cjs, monsters.cjs)
 * decide what a mob wants each step; this file carries it out and tells the players (mob-packets.cjs):
 *   - a player within 64 blocks is sent the mob; past 72 it is taken away again; a death shows for a second
 *     before the entity is destroyed, as in vanilla;
 *   - mobs think four times a second, only with a player within 64 blocks (visibility: twice a second); at most 300;
 *   - a hurt mob is invulnerable for 10 ticks except to a harder hit (which deals the difference), as in vanilla;
 *     fire hurts 1 a second; a knockback pushes it about 0.9 blocks.
 * Mobs are not saved: a restarted world spawns new ones. Randomness comes from the world seed (random.cjs).
 */
const { Vec3 } = require('vec3');
const { createMover } = require('./mob-movement.cjs');
const { dropAt } = require('./inventory-util.cjs');
const { guard } = require('./guard.cjs');
const { known } = require('./registry-util.cjs');
const { seeded, hash } = require('./random.cjs');
const { createMobPackets, yawByte } = require('./mob-packets.cjs');
const { isDay, isNight } = require('./clock.cjs');

/** Server ticks between two thinking steps (4 a second). */
const THINK_EVERY = 5;
/** Seconds of one thinking step. */
const STEP_SECONDS = THINK_EVERY / 20;
/** Server ticks between two visibility passes. */
const SEE_EVERY = 10;
/** A player this close (horizontally) is sent the mob; past HIDE_AT it is taken away. */
const SHOW_WITHIN = 64;
const HIDE_AT = 72;
/** Mobs think only with a player this close. */
const ACTIVE_WITHIN = 64;
/** The most mobs at once. */
const MAX_MOBS = 300;
/** Ticks a hurt mob ignores hits no harder than the last one. */
const INVULNERABLE_TICKS = 10;
/** Ticks between a death and the entity's removal (the death animation). */
const DEATH_TICKS = 20;
/** Blocks a knockback pushes a mob, spread over two steps. */
const KNOCKBACK = 0.9;

/**
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 * @typedef {{ key: number, type: string, value: unknown }} MetadataEntry
 *
 * @typedef {object} MobKind
 * @property {string} name the registry entity name
 * @property {'passive' | 'hostile'} category
 * @property {number} maxHealth
 * @property {(mob: Mob, world: MobWorld) => void} think one step: set `mob.goal` (or leave it null to stand)
 * @property {(mob: Mob, byPlayer: boolean) => Array<{ name: string, count: number }>} drops what it drops when it dies
 * @property {(mob: Mob, attacker: Player | null, world: MobWorld) => void} [hurt] after it took damage
 * @property {(mob: Mob) => MetadataEntry[]} [metadata] kind metadata sent with the spawn
 * @property {(mob: Mob) => void} [init] set kind state at spawn (`mob.ai`)
 *
 * @typedef {object} Mob
 * @property {number} id
 * @property {string} uuid
 * @property {MobKind} kind
 * @property {number} typeId
 * @property {number} x
 * @property {number} y
 * @property {number} z
 * @property {boolean} onGround
 * @property {number} heightBlocks
 * @property {number} yaw degrees (0 = south, 90 = west)
 * @property {number} health
 * @property {boolean} dead
 * @property {number} diedAt tick of its death
 * @property {number} hurtAt tick of the last damage
 * @property {number} lastDamage
 * @property {number} fireTicks ticks it still burns
 * @property {boolean} fireShown
 * @property {{ x: number, z: number, speed: number } | null} goal where it walks now (blocks a second)
 * @property {number} pushX knockback left to apply
 * @property {number} pushZ
 * @property {number} blocked steps in a row its walk got nowhere
 * @property {number} sentX position last sent, in 1/4096 blocks
 * @property {number} sentY
 * @property {number} sentZ
 * @property {number} sentYaw
 * @property {Set<Player>} viewers players who were sent the mob
 * @property {() => number} random its own seeded draws
 * @property {number} bornTick
 * @property {Player | null} nearest the nearest ready player (any game mode), refreshed every step
 * @property {number} nearestDistance horizontal distance to it (Infinity when none)
 * @property {number} lastSeenTick the last step a player was within 32 blocks
 * @property {Record<string, any>} ai kind state
 *
 * @typedef {ReturnType<typeof createMobWorld>} MobWorld
 */

/**
 * The mob world of one server.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Registry, seed: number, isAvatar?: (player: object) => boolean }} ctx (`isAvatar`: mindlink's own players, told no mob's mere turns)
 */
function createMobWorld(serv, { registry, seed, isAvatar }) {
  /** @type {Map<string, MobKind>} */
  const kinds = new Map();
  /** @type {Map<number, Mob>} */
  const mobs = new Map();
  /** @type {WeakSet<Player>} */
  const ready = new WeakSet();
  const random = seeded(seed ^ 0x6d0b5);
  /** @type {ReturnType<typeof createMover> | null} */
  let mover = null;
  const damageTypes = registry.loginPacket?.dimensionCodec?.['minecraft:damage_type']?.entries ?? [];
  /** @param {string} key */
  const damageType = (key) => Math.max(0, damageTypes.findIndex((/** @type {{ key: string }} */ e) => e.key === key));
  const DAMAGE = { player: damageType('minecraft:player_attack'), mob: damageType('minecraft:mob_attack'), fire: damageType('minecraft:on_fire') };

  /** @returns {ReturnType<typeof createMover>} */
  const move = () => {
    if (!mover) mover = createMover(registry, serv.overworld);
    return mover;
  };

  /** A uuid from the seeded generator. */
  function uuid() {
    const hex = [];
    for (let i = 0; i < 4; i++) hex.push(Math.floor(random() * 0x100000000).toString(16).padStart(8, '0'));
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-a${s.slice(17, 20)}-${s.slice(20, 32)}`;
  }

  /** Players who may see and be seen: spawned, still here. */
  function players() {
    return serv.players.filter((p) => ready.has(p) && !p.disconnected);
  }

  const { metadataOf, tell, show, hide, sendMove } = createMobPackets(isAvatar ? { isAvatar } : {});

  // ——— life and death ———

  /**
   * Spawn a mob of a registered kind with its feet at a position. Null when the world is full.
   * @param {string} name @param {{ x: number, y: number, z: number }} at
   * @returns {Mob | null}
   */
  function spawn(name, at) {
    const kind = kinds.get(name);
    if (!kind) throw new Error(`no mob kind ${name}`);
    if (mobs.size >= MAX_MOBS) return null;
    const def = known(registry.entitiesByName, name, 'entity');
    const id = ++serv.entityMaxId;
    /** @type {Mob} */
    const mob = {
      id,
      uuid: uuid(),
      kind,
      typeId: def.id,
      x: at.x,
      y: at.y,
      z: at.z,
      onGround: true,
      heightBlocks: Math.max(1, Math.ceil(def.height ?? 0)),
      yaw: 0,
      health: kind.maxHealth,
      dead: false,
      diedAt: 0,
      hurtAt: -INVULNERABLE_TICKS,
      lastDamage: 0,
      fireTicks: 0,
      fireShown: false,
      goal: null,
      pushX: 0,
      pushZ: 0,
      blocked: 0,
      sentX: Math.round(at.x * 4096),
      sentY: Math.round(at.y * 4096),
      sentZ: Math.round(at.z * 4096),
      sentYaw: 0,
      viewers: new Set(),
      random: seeded(hash(seed, id, 0x30b)),
      bornTick: serv.tickCount,
      nearest: null,
      nearestDistance: Infinity,
      lastSeenTick: serv.tickCount,
      ai: {},
    };
    mob.yaw = Math.floor(mob.random() * 360);
    mob.sentYaw = yawByte(mob.yaw);
    kind.init?.(mob);
    mobs.set(id, mob);
    for (const p of players()) if (p.world === serv.overworld && Math.hypot(p.position.x - mob.x, p.position.z - mob.z) <= SHOW_WITHIN) show(mob, p);
    return mob;
  }

  /** Take a mob out of the world at once (despawn: no death, no drops). @param {Mob} mob */
  function remove(mob) {
    if (!mobs.delete(mob.id)) return;
    tell(mob, 'entity_destroy', { entityIds: [mob.id] });
    mob.viewers.clear();
  }

  /** @param {Mob} mob @param {boolean} byPlayer */
  function die(mob, byPlayer) {
    mob.dead = true;
    mob.diedAt = serv.tickCount;
    mob.goal = null;
    tell(mob, 'entity_metadata', { entityId: mob.id, metadata: [{ key: 9, type: 'float', value: 0 }] });
    tell(mob, 'entity_status', { entityId: mob.id, entityStatus: 3 });
    const at = new Vec3(mob.x, mob.y + 0.5, mob.z);
    for (const { name, count } of mob.kind.drops(mob, byPlayer)) {
      const item = registry.itemsByName[name];
      if (item && count > 0) dropAt(serv, serv.overworld, at, item.id, count, { pickupMs: 500 });
    }
  }

  /**
   * Hurt a mob. Returns whether it took damage (a hit during its invulnerability that is no harder does nothing).
   * @param {Mob} mob @param {number} amount
   * @param {{ attacker?: Player | null, cause: 'player' | 'fire' | 'other', from?: { x: number, z: number } }} how
   */
  function hurt(mob, amount, { attacker = null, cause, from }) {
    if (mob.dead || amount <= 0) return false;
    const now = serv.tickCount;
    let dealt = amount;
    if (now - mob.hurtAt < INVULNERABLE_TICKS) {
      if (amount <= mob.lastDamage) return false;
      dealt = amount - mob.lastDamage;
    } else mob.hurtAt = now;
    mob.lastDamage = amount;
    mob.health -= dealt;
    const source = attacker ? attacker.id + 1 : 0;
    tell(mob, 'damage_event', { entityId: mob.id, sourceTypeId: cause === 'player' ? DAMAGE.player : cause === 'fire' ? DAMAGE.fire : DAMAGE.mob, sourceCauseId: source, sourceDirectId: source });
    if (from) {
      const dx = mob.x - from.x;
      const dz = mob.z - from.z;
      const len = Math.hypot(dx, dz) || 1;
      mob.pushX = (dx / len) * KNOCKBACK;
      mob.pushZ = (dz / len) * KNOCKBACK;
    }
    if (mob.health <= 0) die(mob, cause === 'player');
    else {
      tell(mob, 'entity_metadata', { entityId: mob.id, metadata: [{ key: 9, type: 'float', value: mob.health }] });
      mob.kind.hurt?.(mob, attacker, api);
    }
    return true;
  }

  /** Set a mob burning for at least `ticks`. @param {Mob} mob @param {number} ticks */
  function ignite(mob, ticks) {
    mob.fireTicks = Math.max(mob.fireTicks, ticks);
  }

  // ——— steps ———

  /** @param {Mob} mob @param {Player[]} here */
  function findNearest(mob, here) {
    let best = null;
    let bestD = Infinity;
    for (const p of here) {
      if (p.world !== serv.overworld || p.health <= 0) continue;
      const d = Math.hypot(p.position.x - mob.x, p.position.z - mob.z);
      if (d < bestD) {
        bestD = d;
        best = p;
      }
    }
    mob.nearest = best;
    mob.nearestDistance = bestD;
    if (bestD <= 32) mob.lastSeenTick = serv.tickCount;
  }

  /** Carry out one mob's goal and knockback. @param {Mob} mob */
  function walkStep(mob) {
    const m = move();
    let dx = 0;
    let dz = 0;
    const goal = mob.goal;
    if (goal) {
      const gx = goal.x - mob.x;
      const gz = goal.z - mob.z;
      const left = Math.hypot(gx, gz);
      if (left < 0.25) mob.goal = null;
      else {
        const step = Math.min(left, goal.speed * STEP_SECONDS);
        dx = (gx / left) * step;
        dz = (gz / left) * step;
        mob.yaw = (Math.atan2(-gx, gz) * 180) / Math.PI;
      }
    }
    if (mob.pushX !== 0 || mob.pushZ !== 0) {
      dx += mob.pushX / 2;
      dz += mob.pushZ / 2;
      mob.pushX = Math.abs(mob.pushX) < 0.05 ? 0 : mob.pushX / 2;
      mob.pushZ = Math.abs(mob.pushZ) < 0.05 ? 0 : mob.pushZ / 2;
    }
    if (dx !== 0 || dz !== 0) {
      const got = m.walk(mob, dx, dz);
      mob.blocked = got < 0.01 && goal ? mob.blocked + 1 : 0;
    } else m.fall(mob);
  }

  /** @param {number} count the server tick */
  function think(count) {
    const here = players();
    for (const mob of mobs.values()) {
      if (mob.dead) {
        if (count - mob.diedAt >= DEATH_TICKS) remove(mob);
        continue;
      }
      findNearest(mob, here);
      mob.kind.think(mob, api);
      if (!mobs.has(mob.id)) continue; // the kind despawned it
      if (mob.nearestDistance <= ACTIVE_WITHIN) walkStep(mob);
      if (mob.viewers.size > 0) sendMove(mob);
    }
  }

  /** Fire: 1 damage a second while burning; the flag shows while it burns. */
  function burn() {
    for (const mob of mobs.values()) {
      if (mob.dead) continue;
      const burning = mob.fireTicks > 0;
      if (burning !== mob.fireShown) {
        mob.fireShown = burning;
        tell(mob, 'entity_metadata', { entityId: mob.id, metadata: [{ key: 0, type: 'byte', value: burning ? 0x01 : 0 }] });
      }
      if (!burning) continue;
      mob.fireTicks = Math.max(0, mob.fireTicks - 20);
      if (move().inFluid(mob)) mob.fireTicks = 0;
      else hurt(mob, 1, { cause: 'fire' });
    }
  }

  /** Show mobs to the players near them and take them from those who went away. */
  function see() {
    const here = players();
    const present = new Set(here);
    for (const mob of mobs.values()) {
      for (const p of mob.viewers) if (p.disconnected || !present.has(p)) mob.viewers.delete(p);
      for (const p of here) {
        const d = p.world === serv.overworld ? Math.hypot(p.position.x - mob.x, p.position.z - mob.z) : Infinity;
        const seen = mob.viewers.has(p);
        if (!seen && d <= SHOW_WITHIN) show(mob, p);
        else if (seen && d > HIDE_AT) hide(mob, p);
      }
    }
  }

  serv.on('tick', guard('mobs: a tick', (/** @type {number} */ _delta, /** @type {number} */ count) => {
    if (!serv.overworld) return;
    if (count % THINK_EVERY === 0) think(count);
    if (count % 20 === 0) burn();
    if (count % SEE_EVERY === 0) see();
  }));

  serv.on('newPlayer', (/** @type {Player} */ player) => {
    player.once('spawned', () => ready.add(player));
    // A respawned client has forgotten every entity: send the mobs around it again.
    player.on('requestRespawn_done', () => {
      const gone = [];
      for (const mob of mobs.values()) if (mob.viewers.delete(player)) gone.push(mob.id);
      if (gone.length > 0) player._client.write('entity_destroy', { entityIds: gone });
    });
  });

  const api = {
    /** @param {MobKind} kind */
    register: (kind) => void kinds.set(kind.name, kind),
    spawn,
    remove,
    hurt,
    ignite,
    players,
    /** The mover of the overworld (terrain questions). */
    terrain: move,
    /** Every mob (do not change the map). */
    all: mobs,
    /** The world's own draws (spawning). */
    random,
    /** Mobs of a category within `radius` blocks (horizontally) of a place. @param {{ x: number, z: number }} at @param {number} radius @param {'passive' | 'hostile'} category */
    countNear(at, radius, category) {
      let n = 0;
      for (const mob of mobs.values()) if (!mob.dead && mob.kind.category === category && Math.hypot(mob.x - at.x, mob.z - at.z) <= radius) n++;
      return n;
    },
    /** Whether the sun is up (zombies burn then). */
    isDay: () => isDay(serv.time),
    /** Whether it is dark enough on the surface for monsters to spawn. */
    isNight: () => isNight(serv.time),
    DAMAGE,
    /** A mob by id. @param {number} id */
    get: (id) => mobs.get(id),
  };
  return api;
}

module.exports = { createMobWorld };
