/**
 * A Map used as a bounded, insertion-ordered memory (the bridges' message → avatar
 * pairs and the names people wrote under, the dashboard's sign-in rate): the
 * oldest entries go first.
 */

/**
 * Put `key` last in `map`, then drop the oldest entries beyond `limit`.
 *
 * @example
 * const names = new Map<string, string>();
 * remember(names, 'telegram:1', 'Ann', 5000);
 */
export function remember<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > limit) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

/** How often one key may act: `max` times in any `windowMs`; the map holds at most `keys` keys. */
export interface RateRule {
  max: number;
  windowMs: number;
  keys: number;
}

/**
 * A sliding-window rate limit kept in `map` (key → the times it acted, newest last). When `key` acted fewer
 * than `rule.max` times in the last `rule.windowMs`, this act is noted and 0 comes back; otherwise nothing is
 * noted and the answer is how many ms until it may act again. The key that acted least lately goes first when
 * the map passes `rule.keys`: memory stays bounded, and what is forgotten is only a limit, never a right.
 *
 * @example
 * const asked = new Map<string, number[]>();
 * takeTurn(asked, 'telegram:43', Date.now(), { max: 3, windowMs: 60_000, keys: 1000 }); // → 0 three times, then ms to wait
 */
export function takeTurn<K>(map: Map<K, number[]>, key: K, now: number, rule: RateRule): number {
  const lately = (map.get(key) ?? []).filter((t) => t > now - rule.windowMs);
  const first = lately[0];
  if (first !== undefined && lately.length >= rule.max) return first + rule.windowMs - now;
  lately.push(now);
  remember(map, key, lately.slice(-rule.max), rule.keys);
  return 0;
}
