import { describe, expect, it } from 'vitest';
import { BACKOFF_JITTER, backoffMs } from '../src/backoff.ts';

/** A seeded generator (mulberry32), so the jitter is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('backoff', () => {
  it('GIVEN no jitter THEN the delay doubles from minMs and stops at maxMs', () => {
    const policy = { minMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 5, 60].map((n) => backoffMs(n, policy, () => 0))).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });

  it('GIVEN jitter THEN each delay lies between the plain delay and a fifth more, and the delays differ', () => {
    const random = seeded(7);
    const policy = { minMs: 1000, maxMs: 30_000 };
    const delays = Array.from({ length: 20 }, () => backoffMs(3, policy, random));
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(8000);
      expect(d).toBeLessThanOrEqual(8000 * (1 + BACKOFF_JITTER));
    }
    expect(new Set(delays).size).toBeGreaterThan(10);
  });
});
