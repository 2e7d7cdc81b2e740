import { describe, expect, it } from 'vitest';
import { MIN_THINK_MS, PathBudget, TICK_MS } from '../../src/game/path-budget.ts';

/** A budget on a clock the test moves. */
function budget(ms: number): { b: PathBudget; at: (tick: number) => void } {
  let now = 0;
  return { b: new PathBudget(ms, () => now), at: (tick) => (now = tick * TICK_MS + 1) };
}

/** Each search asks once in the tick (a first think is granted whatever the budget: every search has had one). */
function round(b: PathBudget, searches: object[], spend: boolean): number[] {
  return searches.map((s) => {
    const ms = b.grant(s);
    if (spend) b.spent(ms);
    return ms;
  });
}

describe('path budget', () => {
  it('GIVEN one search THEN it has the whole budget in every tick', () => {
    const { b, at } = budget(15);
    const s = {};
    for (let t = 0; t < 5; t++) {
      at(t);
      expect(b.grant(s)).toBe(15);
    }
  });

  it('GIVEN three searches THEN each tick they share the budget equally, and one that asks once it is spent gets nothing', () => {
    const { b, at } = budget(15);
    const searches = [{}, {}, {}];
    at(0);
    round(b, searches, false);
    at(1);
    expect(round(b, searches, true)).toEqual([5, 5, 5]);
    expect(b.grant(searches[0]!)).toBe(0);
  });

  it('GIVEN a search that has not thought yet THEN its first think is granted even when the budget is spent', () => {
    const { b, at } = budget(15);
    at(0);
    b.grant({});
    b.spent(15);
    expect(b.grant({})).toBe(MIN_THINK_MS);
  });

  it('GIVEN 100 searches and room for 15 shares THEN they take turns: every tick at most the budget, each search thinks at least every 7 ticks', () => {
    const { b, at } = budget(15);
    const searches = Array.from({ length: 100 }, () => ({}));
    at(0);
    round(b, searches, true);
    const last = new Map<object, number>(searches.map((s) => [s, 0]));
    for (let t = 1; t <= 70; t++) {
      at(t);
      const granted = round(b, searches, true);
      expect(granted.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(15);
      searches.forEach((s, i) => {
        if (granted[i]! > 0) {
          expect(t - last.get(s)!, `search ${i} waited`).toBeLessThanOrEqual(7);
          last.set(s, t);
        }
      });
    }
    for (const [s, t] of last) expect(70 - t, `search ${searches.indexOf(s as object)} last thought at ${t}`).toBeLessThan(7);
  });
});
