/**
 * A Map used as a bounded, insertion-ordered memory (the bridges' message → avatar
 * pairs and the names people wrote under): the oldest entries go first.
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
