import { describe, expect, it } from 'vitest';
import { rng } from '../chaos/harness.ts';
import { BACKOFF_JITTER, backoffMs } from '../src/backoff.ts';

describe('backoff', () => {
  it('GIVEN no jitter THEN the delay doubles from minMs and stops at maxMs', () => {
    const policy = { minMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 5, 60].map((n) => backoffMs(n, policy, () => 0))).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });

  it('GIVEN jitter THEN each delay lies between the plain delay and a fifth more, and the delays differ', () => {
    const random = rng(7);
    const policy = { minMs: 1000, maxMs: 30_000 };
    const delays = Array.from({ length: 20 }, () => backoffMs(3, policy, random));
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(8000);
      expect(d).toBeLessThanOrEqual(8000 * (1 + BACKOFF_JITTER));
    }
    expect(new Set(delays).size).toBeGreaterThan(10);
  });
});
