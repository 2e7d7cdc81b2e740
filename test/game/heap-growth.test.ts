/**
 * The heap growth a process that plays avatars allows: set once its first game is made, unless the
 * process was started with its own.
 */
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../../src/game/heap-growth.ts';

describe('heap growth', () => {
  it('GIVEN a process started without its own growth THEN the growth is held at half as much again', () => {
    const set: string[] = [];
    expect(limitHeapGrowth(['--enable-source-maps', '--max-old-space-size=4096'], (f) => set.push(f))).toBe(true);
    expect(set).toEqual(['--heap-growing-percent=50']);
    expect(HEAP_GROWING_PERCENT).toBe(50);
  });

  it("GIVEN a process started with its own --heap-growing-percent THEN the operator's choice stands", () => {
    for (const own of ['--heap-growing-percent=80', '--heap_growing_percent=20', '--heap-growing-percent']) {
      const set: string[] = [];
      expect(limitHeapGrowth([own], (f) => set.push(f)), own).toBe(false);
      expect(set, own).toEqual([]);
    }
  });
});
