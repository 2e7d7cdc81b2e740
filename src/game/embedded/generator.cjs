// @ts-check
'use strict';
/*
 * mindlink's world generator for the embedded flying-squid server.
 *
 * flying-squid `require`s this module by path (settings `generation.name`)
 * and calls it with `{ seed, registry, ... }`; it returns `(chunkX, chunkZ) => Chunk`.
 *
 * The world is flat and deterministic: the same seed gives the same chunk,
 * block for block, so a restarted world has its trees where they were even
 * for chunks that were never saved.
 *
 *   y = 40      bedrock
 *   y = 41..59  stone (with some coal and iron ore)
 *   y = 60..62  dirt
 *   y = 63      grass (some sand / gravel patches and shallow ponds)
 *   y = 64..    air; an oak tree in most chunks
 *
 * The area around the spawn point (0, 64, 0) is kept clear and flat.
 */
const { Vec3 } = require('vec3');
const { hash } = require('./random.cjs');

const SURFACE_Y = 63;
const BEDROCK_Y = 40;
/** No tree trunk closer than this (in x and z) to the spawn point. */
const SPAWN_CLEAR = 6;
/** No pond or patch closer than this to the spawn point. */
const SPAWN_FLAT = 10;

/**
 * A prismarine-chunk column's light, as its `dumpLight` gives it and its `loadParsedLight` takes it.
 * @typedef {object} ChunkLight
 * @property {Uint8Array[]} skyLight
 * @property {Uint8Array[]} blockLight
 * @property {number[][]} skyLightMask
 * @property {number[][]} blockLightMask
 * @property {number[][]} emptySkyLightMask
 * @property {number[][]} emptyBlockLightMask
 */

/**
 * The part of a prismarine-chunk column the generator writes.
 * @typedef {object} GeneratedChunk
 * @property {(pos: import('vec3').Vec3, stateId: number) => void} setBlockStateId
 * @property {(pos: import('vec3').Vec3, light: number) => void} setSkyLight
 * @property {(pos: import('vec3').Vec3, biome: number) => void} setBiome
 * @property {() => Buffer} dump
 * @property {(data: Buffer) => void} load
 * @property {() => ChunkLight} dumpLight
 * @property {(skyLight: Uint8Array[], blockLight: Uint8Array[], skyLightMask: number[][], blockLightMask: number[][], emptySkyLightMask: number[][], emptyBlockLightMask: number[][]) => void} loadParsedLight
 */

/**
 * A deterministic random source for one chunk.
 * @param {number} seed
 * @param {number} chunkX
 * @param {number} chunkZ
 * @returns {() => number}
 */
function chunkRandom(seed, chunkX, chunkZ) {
  let n = 0;
  return () => hash(seed, chunkX, chunkZ, n++) / 0x100000000;
}

/**
 * @param {{ registry: import('./types.cjs').Registry, seed?: number }} options what flying-squid passes
 * @returns {(chunkX: number, chunkZ: number) => GeneratedChunk}
 */
function generation(options) {
  const { registry } = options;
  const seed = Number(options.seed ?? 1) | 0;
  // prismarine-chunk's types declare an ES default export; its CommonJS module is the loader function itself.
  const loadChunk = /** @type {(registry: unknown) => new () => GeneratedChunk} */ (/** @type {unknown} */ (require('prismarine-chunk')));
  const Chunk = loadChunk(registry);
  /** @param {string} name */
  const state = (name) => {
    const b = registry.blocksByName[name];
    if (!b) throw new Error(`block ${name} is not in this version`);
    return b.defaultState;
  };
  const S = {
    bedrock: state('bedrock'),
    stone: state('stone'),
    dirt: state('dirt'),
    grass: state('grass_block'),
    log: state('oak_log'),
    leaves: state('oak_leaves'),
    coal: state('coal_ore'),
    iron: state('iron_ore'),
    sand: state('sand'),
    gravel: state('gravel'),
    water: state('water'),
  };
  const plains = registry.biomesByName.plains?.id ?? 0;

  // The layers every chunk has (bedrock, stone, dirt, grass, the sky light above the ground, the plains biome),
  // written once, block by block, into a chunk whose blocks and light each new chunk then starts from: written into
  // every chunk, they were most of its making (some 19,000 writes). A chunk so started is the same, byte for byte.
  const layers = new Chunk();
  const at = new Vec3(0, 0, 0);
  for (let x = 0; x < 16; x++) {
    for (let z = 0; z < 16; z++) {
      /**
       * @param {number} y
       * @param {number} s
       */
      const set = (y, s) => {
        at.set(x, y, z);
        layers.setBlockStateId(at, s);
      };
      set(BEDROCK_Y, S.bedrock);
      for (let y = BEDROCK_Y + 1; y < 60; y++) set(y, S.stone);
      for (let y = 60; y < SURFACE_Y; y++) set(y, S.dirt);
      set(SURFACE_Y, S.grass);
      for (let y = SURFACE_Y; y < SURFACE_Y + 48; y++) {
        at.set(x, y, z);
        layers.setSkyLight(at, 15);
      }
    }
  }
  for (let x = 0; x < 16; x += 4) {
    for (let z = 0; z < 16; z += 4) {
      for (let y = BEDROCK_Y; y < SURFACE_Y + 48; y += 4) {
        at.set(x, y, z);
        layers.setBiome(at, plains);
      }
    }
  }
  const layerBlocks = layers.dump();
  const layerLight = layers.dumpLight();

  /** A new chunk holding the shared layers (its own copy of them). */
  function layeredChunk() {
    const chunk = new Chunk();
    chunk.load(layerBlocks);
    chunk.loadParsedLight(layerLight.skyLight, layerLight.blockLight, layerLight.skyLightMask, layerLight.blockLightMask, layerLight.emptySkyLightMask, layerLight.emptyBlockLightMask);
    return chunk;
  }

  /**
   * @param {number} x
   * @param {number} z
   * @param {number} r
   */
  function nearSpawn(x, z, r) {
    return Math.abs(x) < r && Math.abs(z) < r;
  }

  /**
   * @param {number} chunkX
   * @param {number} chunkZ
   */
  return function generateChunk(chunkX, chunkZ) {
    const chunk = layeredChunk();
    const rnd = chunkRandom(seed, chunkX, chunkZ);
    const baseX = chunkX * 16;
    const baseZ = chunkZ * 16;
    const p = new Vec3(0, 0, 0);
    /**
     * @param {number} x
     * @param {number} y
     * @param {number} z
     * @param {number} s
     */
    const set = (x, y, z, s) => {
      p.set(x, y, z);
      chunk.setBlockStateId(p, s);
    };

    // Ores in the stone.
    const coal = 4 + Math.floor(rnd() * 5);
    for (let i = 0; i < coal; i++) {
      set(Math.floor(rnd() * 16), 45 + Math.floor(rnd() * 14), Math.floor(rnd() * 16), S.coal);
    }
    if (rnd() < 0.6) set(Math.floor(rnd() * 16), 42 + Math.floor(rnd() * 10), Math.floor(rnd() * 16), S.iron);

    // One oak tree in most chunks, its trunk away from the chunk's edges (leaves stay inside the chunk).
    const treeX = 2 + Math.floor(rnd() * 12);
    const treeZ = 2 + Math.floor(rnd() * 12);
    const hasTree = rnd() < 0.85 && !nearSpawn(baseX + treeX, baseZ + treeZ, SPAWN_CLEAR);
    if (hasTree) {
      // Trunk of 5–6 logs; the canopy starts one below the top, so the lowest three or four logs stand clear
      // and their drops fall to the ground.
      const height = 5 + Math.floor(rnd() * 2);
      const top = SURFACE_Y + height;
      set(treeX, SURFACE_Y, treeZ, S.dirt);
      for (let y = top - 1; y <= top + 1; y++) {
        const r = y === top + 1 ? 1 : 2;
        for (let dx = -r; dx <= r; dx++) {
          for (let dz = -r; dz <= r; dz++) {
            if (r === 2 && Math.abs(dx) === 2 && Math.abs(dz) === 2) continue;
            set(treeX + dx, y, treeZ + dz, S.leaves);
          }
        }
      }
      for (let y = SURFACE_Y + 1; y <= top; y++) set(treeX, y, treeZ, S.log);
    }

    // A patch of sand or gravel, or a shallow pond, on the side of the chunk away from the tree.
    const feature = rnd();
    const px = treeX < 8 ? 10 + Math.floor(rnd() * 3) : 1 + Math.floor(rnd() * 3);
    const pz = 1 + Math.floor(rnd() * 11);
    if (!nearSpawn(baseX + px, baseZ + pz, SPAWN_FLAT)) {
      const kind = feature < 0.15 ? 'sand' : feature < 0.25 ? 'gravel' : feature < 0.33 ? 'water' : null;
      if (kind) {
        for (let dx = 0; dx < 3; dx++) {
          for (let dz = 0; dz < 3; dz++) {
            set(px + dx, SURFACE_Y, pz + dz, S[kind]);
            if (kind !== 'water') set(px + dx, SURFACE_Y - 1, pz + dz, S[kind]);
          }
        }
      }
    }
    return chunk;
  };
}

module.exports = Object.assign(generation, { SURFACE_Y });
