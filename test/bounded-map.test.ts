import { describe, expect, it } from 'vitest';
import { remember, takeTurn } from '../src/bounded-map.ts';

describe('bounded maps', () => {
  it('GIVEN more keys than the limit THEN the least recently put go first', () => {
    const map = new Map<string, number>();
    for (const k of ['a', 'b', 'c']) remember(map, k, 1, 2);
    remember(map, 'b', 2, 2);
    remember(map, 'd', 1, 2);
    expect([...map.keys()]).toEqual(['b', 'd']);
  });

  it('GIVEN a key that acted as often as the rule allows THEN the next act waits until its oldest leaves the window, and nothing refused is noted', () => {
    const map = new Map<string, number[]>();
    const rule = { max: 2, windowMs: 1000, keys: 10 };
    expect([takeTurn(map, 'a', 0, rule), takeTurn(map, 'a', 400, rule)]).toEqual([0, 0]);
    expect(takeTurn(map, 'a', 900, rule)).toBe(100);
    expect(takeTurn(map, 'a', 999, rule)).toBe(1);
    expect(takeTurn(map, 'b', 999, rule)).toBe(0);
    expect(takeTurn(map, 'a', 1000, rule)).toBe(0);
    expect(takeTurn(map, 'a', 1001, rule)).toBe(399);
    expect(map.get('a')).toEqual([400, 1000]);
  });

  it('GIVEN more keys acting than the rule keeps THEN memory stays bounded and the least lately active key is forgotten', () => {
    const map = new Map<string, number[]>();
    const rule = { max: 1, windowMs: 1000, keys: 100 };
    for (let n = 0; n < 1000; n++) takeTurn(map, `k${n}`, n, rule);
    expect(map.size).toBe(100);
    expect(map.has('k899')).toBe(false);
    expect(takeTurn(map, 'k999', 1000, rule)).toBe(999);
  });
});
