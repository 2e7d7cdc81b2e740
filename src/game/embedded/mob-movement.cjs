// @ts-check
'use strict';
/*
 * How the embedded world's mobs move over the ground: walking with collision against full blocks, stepping
 * up one block, falling, and the terrain questions spawning asks (the surface of a column, open sky).
 *
 * It reads only loaded chunks, synchronously (prismarine-world's `sync` view), with one reused position:
 * a column that is not loaded counts as a wall, so a mob never walks into ungenerated land. A mob is a point
 * at its centre with its height in whole blocks; its feet stand on whole blocks (the world has no slabs).
 */
const { Vec3 } = require('vec3');

/** What a block is to a walking mob. */
const AIR = 0;
const SOLID = 1;
const FLUID = 2;
const UNLOADED = 3;
/** The lowest feet height a mob may fall to. */
const MIN_Y = -64;
/** Longest horizontal move checked in one piece (in blocks). */
const SUBSTEP = 0.5;

/**
 * @typedef {{ x: number, y: number, z: number, onGround: boolean, heightBlocks: number }} Body
 */

/**
 * The mover of one world.
 * @param {any} registry @param {import('./types.cjs').World} world
 */
function createMover(registry, world) {
  /** Block state id → AIR, SOLID or FLUID. */
  const kinds = new Uint8Array(registry.blocksArray.reduce((/** @type {number} */ n, /** @type {any} */ b) => Math.max(n, b.maxStateId), 0) + 1);
  for (const b of registry.blocksArray) {
    const kind = b.name === 'water' || b.name === 'lava' ? FLUID : b.boundingBox === 'block' ? SOLID : AIR;
    for (let s = b.minStateId; s <= b.maxStateId; s++) kinds[s] = kind;
  }
  const leaves = new Set(registry.blocksArray.filter((/** @type {any} */ b) => b.name.endsWith('_leaves')).map((/** @type {any} */ b) => b.id));
  const p = new Vec3(0, 0, 0);

  /** @param {number} x @param {number} y @param {number} z */
  function kindAt(x, y, z) {
    p.set(Math.floor(x), Math.floor(y), Math.floor(z));
    if (!world.sync.getColumnAt(p)) return UNLOADED;
    return kinds[world.sync.getBlockStateId(p)] ?? SOLID;
  }

  /** Whether a body of `h` blocks fits with its feet in block (x, y, z). @param {number} x @param {number} y @param {number} z @param {number} h */
  function fits(x, y, z, h) {
    for (let i = 0; i < h; i++) {
      const k = kindAt(x, y + i, z);
      if (k === SOLID || k === UNLOADED) return false;
    }
    return true;
  }

  /** Let a body fall onto what is below it. @param {Body} b */
  function fall(b) {
    let y = Math.floor(b.y);
    while (y > MIN_Y) {
      const below = kindAt(b.x, y - 1, b.z);
      if (below === SOLID || below === UNLOADED) break;
      y -= 1;
    }
    b.y = y;
    b.onGround = true;
  }

  /**
   * Move a body by (dx, dz) blocks: across open ground, one block up a step, sliding along a wall; then it falls.
   * Returns how far it got (0 when a wall stopped it at once).
   * @param {Body} b @param {number} dx @param {number} dz
   */
  function walk(b, dx, dz) {
    const length = Math.hypot(dx, dz);
    if (length === 0) return 0;
    const steps = Math.ceil(length / SUBSTEP);
    const sx = dx / steps;
    const sz = dz / steps;
    const h = b.heightBlocks;
    let moved = 0;
    for (let i = 0; i < steps; i++) {
      const fy = Math.floor(b.y);
      const nx = b.x + sx;
      const nz = b.z + sz;
      if (fits(nx, fy, nz, h)) {
        b.x = nx;
        b.z = nz;
      } else if (fits(nx, fy + 1, nz, h) && fits(b.x, fy + h, b.z, 1)) {
        b.x = nx;
        b.z = nz;
        b.y = fy + 1;
      } else if (sx !== 0 && fits(nx, fy, b.z, h)) b.x = nx;
      else if (sz !== 0 && fits(b.x, fy, nz, h)) b.z = nz;
      else break;
      moved += SUBSTEP;
      fall(b);
    }
    return Math.min(moved, length);
  }

  /**
   * The feet height of the first place to stand in a column, looking down from `top` to `bottom`: air (two blocks
   * for tall mobs) on a solid block that is not leaves; null when there is none or the chunk is not loaded.
   * @param {number} x @param {number} z @param {number} top @param {number} bottom @param {number} h
   */
  function standingY(x, z, top, bottom, h) {
    for (let y = top; y > bottom; y--) {
      const k = kindAt(x, y, z);
      if (k === UNLOADED) return null;
      if (k !== SOLID) continue;
      p.set(Math.floor(x), y, Math.floor(z));
      if (leaves.has(registry.blocksByStateId[world.sync.getBlockStateId(p)]?.id)) return null;
      return fits(x, y + 1, z, h) ? y + 1 : null;
    }
    return null;
  }

  /** The block type id under a position's feet (what a mob stands on), or -1. @param {number} x @param {number} y @param {number} z */
  function groundType(x, y, z) {
    p.set(Math.floor(x), Math.floor(y) - 1, Math.floor(z));
    if (!world.sync.getColumnAt(p)) return -1;
    return registry.blocksByStateId[world.sync.getBlockStateId(p)]?.id ?? -1;
  }

  /** Whether nothing solid (leaves included) stands above a position up to `upTo`: open sky. @param {number} x @param {number} y @param {number} z @param {number} upTo */
  function openSky(x, y, z, upTo) {
    for (let yy = Math.floor(y); yy <= upTo; yy++) {
      const k = kindAt(x, yy, z);
      if (k === SOLID || k === UNLOADED) return false;
    }
    return true;
  }

  /** Whether the body stands in water or lava. @param {Body} b */
  const inFluid = (b) => kindAt(b.x, b.y, b.z) === FLUID;

  return { walk, fall, fits, standingY, groundType, openSky, inFluid, kindAt };
}

/**
 * The speed of a walking mob in blocks a second: vanilla's ground movement at its terminal speed for a movement
 * speed attribute and a goal's speed modifier (a zombie, 0.23 × 1.0, walks 2.3 blocks a second).
 * @param {number} attribute @param {number} modifier
 */
function walkSpeed(attribute, modifier) {
  const s = attribute * modifier;
  return (s * s * 20) / (1 - 0.546);
}

module.exports = { createMover, walkSpeed, AIR, SOLID, FLUID, UNLOADED };
