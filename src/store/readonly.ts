/**
 * Read-only views of stored records: what every module but a record's owner
 * sees (docs/architecture.md "Who writes what"). A reader gets the data
 * typed so that it cannot change it; with `STORE_CHECKS=on` (the test suite)
 * the data is frozen too, so a stray write throws.
 */

/**
 * `T` with every property and array read-only, all the way down.
 *
 * @example
 * const a: DeepReadonly<Avatar> = store.state.data.avatars[0];
 * a.parked.push(goal); // type error: a read-only array
 */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends (...args: never[]) => unknown
      ? T
      : T extends object
        ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
        : T;

/**
 * A deep copy of JSON data, keeping each object's prototype (the keyed maps of `src/keyed.ts` have none).
 *
 * @example
 * const draft = cloneData(file.data); // change the draft, then swap it in
 */
export function cloneData<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => cloneData(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  // Defined, not assigned: a key such as `__proto__` stays a key like any other (`src/keyed.ts`).
  for (const [k, v] of Object.entries(value)) Object.defineProperty(copy, k, { value: cloneData(v), enumerable: true, writable: true, configurable: true });
  return copy as T;
}

/**
 * Freeze JSON data all the way down (an object frozen already is taken as frozen below too), and return it.
 *
 * @example
 * file.data = freezeData(draft); // a write outside an update now throws
 */
export function freezeData<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) freezeData(v);
  return Object.freeze(value);
}
