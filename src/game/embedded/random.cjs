// @ts-check
'use strict';
/*
 * Deterministic randomness for the embedded world's plugins: everything that draws a chance (drops, mobs)
 * draws it from a generator seeded by the world seed, so a test run sees the same world every time.
 */

/**
 * mulberry32: a small deterministic generator of numbers in [0, 1).
 * @param {number} seed
 * @returns {() => number}
 */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 32-bit hash of integers, stable across runs (xmur3-like mixing): the same place gives the same draw.
 * @param {number} seed @param {...number} values
 */
function hash(seed, ...values) {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const v of values) {
    h = Math.imul(h ^ (v | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

module.exports = { seeded, hash };
