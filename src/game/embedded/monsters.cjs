// @ts-check
'use strict';
/*
 * Monsters of the embedded world: zombies at night (vanilla Java 1.21.4 numbers). Skeletons are left out:
 * their arrows would need projectile flight and hits this world does not have.
 *
 * A zombie has 20 health and walks 2.3 blocks a second. It goes for the nearest player in survival within
 * 35 blocks (its follow range), walking straight at them and stepping aside when a wall is in the way, and
 * hits a player within reach (its box widened by 0.83 blocks, as vanilla's melee reach) once a second for 3
 * damage scaled by difficulty (easy 2.5, normal 3, hard 4.5), less the player's armour (vanilla's formula),
 * with a knockback. Whoever hurts it becomes its target.
 *
 * Spawning: at night (ticks 13188–22812) every second each player in survival has one chance in four of a
 * zombie 24–40 blocks away, on solid ground under the open sky (the world has no caves), while fewer than four
 * monsters are within 48 blocks of them and no other player stands within 24 blocks of the spot; never on
 * peaceful. In daylight a zombie under the open sky catches fire (8 s, renewed while the sun is on it, 1
 * damage a second). It drops 0–2 rotten flesh; killed by a player, also an iron ingot, a carrot or a potato,
 * each one time in 120 (minecraft-data's entity loot). A zombie with nobody within 128 blocks is taken away at
 * once, with nobody within 32 for 30 s now and then.
 */
const { Vec3 } = require('vec3');
const { walkSpeed } = require('./mob-movement.cjs');

const HEALTH = 20;
const SPEED = walkSpeed(0.23, 1.0);
const FOLLOW_RANGE = 35;
const ATTACK_DAMAGE = 3;
const ATTACK_TICKS = 20;
/** Half the width of the zombie's attack box plus the player's half width, per axis (vanilla: 0.3 + 0.83 + 0.3). */
const REACH = 1.43;
const SPAWN_CHANCE = 0.25;
const SPAWN_MIN = 24;
const SPAWN_MAX = 40;
const AREA = 48;
const AREA_CAP = 4;
const SUN_FIRE_TICKS = 160;
/** Knockback a hit gives a player, in blocks a second (vanilla 0.4 blocks a tick). */
const KNOCKBACK = 8;

/** Armour points and toughness of vanilla armour (helmet, chestplate, leggings, boots). */
const ARMOUR = /** @type {Record<string, [number, number, number, number, number]>} */ ({
  leather: [1, 3, 2, 1, 0],
  chainmail: [2, 5, 4, 1, 0],
  iron: [2, 6, 5, 2, 0],
  golden: [2, 5, 3, 1, 0],
  diamond: [3, 8, 6, 3, 2],
  netherite: [3, 8, 6, 3, 3],
});
const PIECES = ['helmet', 'chestplate', 'leggings', 'boots'];

/**
 * @typedef {import('./mob-world.cjs').Mob} Mob
 * @typedef {import('./mob-world.cjs').MobWorld} MobWorld
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 */

/**
 * Install zombies on a mob world.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Registry, mobs: MobWorld }} ctx
 */
function monsters(serv, { registry, mobs }) {
  let spawning = true;
  const difficulty = () => serv.difficulty ?? 1;

  /** Armour points and toughness a player wears (window slots 5–8: helmet to boots). @param {Player} p */
  function armourOf(p) {
    let points = 0;
    let toughness = 0;
    for (let i = 0; i < 4; i++) {
      const item = p.inventory.slots[5 + i];
      const name = item ? registry.items[item.type]?.name : undefined;
      if (!name) continue;
      if (i === 0 && name === 'turtle_helmet') {
        points += 2;
        continue;
      }
      const m = /^([a-z]+)_(helmet|chestplate|leggings|boots)$/.exec(name);
      const row = m && m[1] ? ARMOUR[m[1]] : undefined;
      if (!m || !row || m[2] !== PIECES[i]) continue;
      points += row[i] ?? 0;
      toughness += row[4];
    }
    return { points, toughness };
  }

  /** Damage to a player after difficulty and armour. @param {Player} p */
  function damageTo(p) {
    const d = difficulty();
    let dmg = d === 1 ? Math.min(ATTACK_DAMAGE / 2 + 1, ATTACK_DAMAGE) : d === 3 ? ATTACK_DAMAGE * 1.5 : ATTACK_DAMAGE;
    const { points, toughness } = armourOf(p);
    if (points > 0) dmg *= 1 - Math.min(20, Math.max(points / 5, points - (4 * dmg) / (toughness + 8))) / 25;
    return dmg;
  }

  /** @param {Mob} mob @param {Player} p */
  function inReach(mob, p) {
    const dy = p.position.y - mob.y;
    return Math.abs(p.position.x - mob.x) <= REACH && Math.abs(p.position.z - mob.z) <= REACH && dy > -1.8 && dy < 1.95;
  }

  /** @param {Mob} mob @param {Player} p */
  function attack(mob, p) {
    const dx = p.position.x - mob.x;
    const dz = p.position.z - mob.z;
    const len = Math.hypot(dx, dz) || 1;
    const velocity = new Vec3((dx / len) * KNOCKBACK, KNOCKBACK, (dz / len) * KNOCKBACK);
    const event = { entityId: p.id, sourceTypeId: mobs.DAMAGE.mob, sourceCauseId: mob.id + 1, sourceDirectId: mob.id + 1 };
    p._client.write('damage_event', event);
    for (const other of mob.viewers) if (other !== p) other._client.write('damage_event', event);
    const death = { key: 'death.attack.mob', with: [{ translate: `entity.minecraft.${mob.kind.name}` }] };
    p.takeDamage({ damage: damageTo(p), velocity, maxVelocity: new Vec3(KNOCKBACK, KNOCKBACK, KNOCKBACK), sound: 'game.player.hurt', death });
  }

  /** A target is a player in survival, alive, in this world. @param {Player | null} p */
  const targetable = (p) => !!p && p.gameMode === 0 && p.health > 0 && !p.disconnected && p.world === serv.overworld;

  /** @param {Mob} mob */
  function chooseTarget(mob) {
    let best = null;
    let bestD = FOLLOW_RANGE;
    for (const p of mobs.players()) {
      if (!targetable(p) || Math.abs(p.position.y - mob.y) > 16) continue;
      const d = Math.hypot(p.position.x - mob.x, p.position.z - mob.z);
      if (d <= bestD) {
        bestD = d;
        best = p;
      }
    }
    return best;
  }

  mobs.register({
    name: 'zombie',
    category: 'hostile',
    maxHealth: HEALTH,
    init(mob) {
      mob.ai = { target: null, nextAttack: 0, detour: 0, detourUntil: 0, side: 1, sunCheck: 0 };
    },
    drops(mob, byPlayer) {
      const out = [{ name: 'rotten_flesh', count: Math.floor(mob.random() * 3) }];
      if (byPlayer) for (const rare of ['iron_ingot', 'carrot', 'potato']) if (mob.random() < 1 / 120) out.push({ name: rare, count: 1 });
      return out;
    },
    hurt(mob, attacker) {
      if (attacker && targetable(attacker)) mob.ai.target = attacker;
    },
    think(mob, world) {
      const ai = mob.ai;
      if (difficulty() === 0 || mob.nearestDistance > 128) {
        world.remove(mob);
        return;
      }
      if (mob.nearestDistance > 32 && serv.tickCount - mob.lastSeenTick > 600 && mob.random() < 1 / 160) {
        world.remove(mob);
        return;
      }
      if (++ai.sunCheck % 4 === 0 && world.isDay()) {
        const terrain = world.terrain();
        if (!terrain.inFluid(mob) && terrain.openSky(mob.x, mob.y + 2, mob.z, 120)) world.ignite(mob, SUN_FIRE_TICKS);
      }
      if (mob.nearestDistance > 64) return;

      if (!targetable(ai.target) || Math.hypot(ai.target.position.x - mob.x, ai.target.position.z - mob.z) > FOLLOW_RANGE + 5) ai.target = chooseTarget(mob);
      /** @type {Player | null} */
      const target = ai.target;
      if (!target) {
        // No one to chase: now and then a short stroll.
        if (!mob.goal && mob.random() < 5 / 120) {
          const a = mob.random() * Math.PI * 2;
          mob.goal = { x: mob.x + Math.cos(a) * 6, z: mob.z + Math.sin(a) * 6, speed: SPEED * 0.8 };
        }
        if (mob.blocked > 2) mob.goal = null;
        return;
      }
      if (inReach(mob, target)) {
        mob.goal = null;
        mob.yaw = (Math.atan2(-(target.position.x - mob.x), target.position.z - mob.z) * 180) / Math.PI;
        if (serv.tickCount >= ai.nextAttack) {
          ai.nextAttack = serv.tickCount + ATTACK_TICKS;
          attack(mob, target);
        }
        return;
      }
      // Straight at the target; a wall in the way: step aside for a second, the other way next time.
      if (mob.blocked >= 2 && serv.tickCount >= ai.detourUntil) {
        ai.side = -ai.side;
        const a = Math.atan2(target.position.z - mob.z, target.position.x - mob.x) + (ai.side * Math.PI) / 2;
        ai.detour = { x: mob.x + Math.cos(a) * 3, z: mob.z + Math.sin(a) * 3 };
        ai.detourUntil = serv.tickCount + 20;
        mob.blocked = 0;
      }
      if (serv.tickCount < ai.detourUntil && ai.detour) mob.goal = { x: ai.detour.x, z: ai.detour.z, speed: SPEED };
      else mob.goal = { x: target.position.x, z: target.position.z, speed: SPEED };
    },
  });

  /** A zombie somewhere around a player in the dark, if the rules allow. @param {Player} p */
  function trySpawn(p) {
    if (mobs.countNear(p.position, AREA, 'hostile') >= AREA_CAP || mobs.random() >= SPAWN_CHANCE) return;
    const a = mobs.random() * Math.PI * 2;
    const d = SPAWN_MIN + mobs.random() * (SPAWN_MAX - SPAWN_MIN);
    const x = Math.floor(p.position.x + Math.cos(a) * d) + 0.5;
    const z = Math.floor(p.position.z + Math.sin(a) * d) + 0.5;
    const terrain = mobs.terrain();
    const y = terrain.standingY(x, z, Math.floor(p.position.y) + 16, Math.floor(p.position.y) - 16, 2);
    if (y === null || terrain.inFluid({ x, y, z, onGround: true, heightBlocks: 2 }) || !terrain.openSky(x, y, z, 120)) return;
    for (const other of mobs.players()) if (Math.hypot(other.position.x - x, other.position.z - z) < SPAWN_MIN) return;
    mobs.spawn('zombie', { x, y, z });
  }

  serv.on('tick', (/** @type {number} */ _delta, /** @type {number} */ count) => {
    if (!spawning || !serv.overworld || count % 20 !== 3 || difficulty() === 0 || !mobs.isNight()) return;
    for (const p of mobs.players()) if (targetable(p)) trySpawn(p);
  });

  return {
    /** Turn natural spawning on or off (tests that want a quiet world). @param {boolean} on */
    setSpawning(on) {
      spawning = on;
    },
  };
}

module.exports = monsters;
