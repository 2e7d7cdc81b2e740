/**
 * Maps keyed by what people name (avatars, chats, items, words) kept as plain
 * JSON objects in the data files, but with no prototype: `constructor`,
 * `__proto__`, `toString` are keys like any other, never inherited members.
 * A plain `{}` indexed by such a name reads `Object`'s members (`played.constructor`
 * is a function) and drops `__proto__` on write.
 */
import { z } from 'zod';

declare const keyedBrand: unique symbol;

/** A record with no prototype (see {@link keyed}); only own keys are in it. */
export type Keyed<T> = Record<string, T> & { readonly [keyedBrand]: true };

/**
 * A record with no prototype, filled from `entries` (`__proto__` and `constructor` become own keys).
 *
 * @example
 * const played = keyed<number>();
 * played.constructor = (played.constructor ?? 0) + 1; // 1
 */
export function keyed<T>(entries: Iterable<readonly [string, T]> | Readonly<Record<string, T>> = []): Keyed<T> {
  const out = Object.create(null) as Keyed<T>;
  const list = Symbol.iterator in entries ? (entries as Iterable<readonly [string, T]>) : Object.entries(entries);
  for (const [k, v] of list) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * The value of an own key of a constant table, never an inherited member.
 *
 * @example
 * own({ wood: 'log' }, 'constructor'); // undefined
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * A zod schema for a JSON object used as a map: every key checked with `key`, every value with `value`, the
 * result a {@link Keyed} record. Unlike `z.record`, it keeps a `__proto__` key (JSON.parse makes it an own key).
 *
 * @example
 * const Played = keyedRecord(z.string(), z.number());
 * Played.parse(JSON.parse('{"__proto__": 3}')).__proto__; // 3
 */
export function keyedRecord<V extends z.ZodType>(key: z.ZodType<string>, value: V) {
  return z
    .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'Invalid input: expected an object' })
    .transform((raw, ctx) => {
      const out = keyed<z.output<V>>();
      for (const k of Object.keys(raw)) {
        const kr = key.safeParse(k);
        if (!kr.success) {
          ctx.addIssue({ code: 'custom', path: [k], message: `not a valid key: ${kr.error.issues[0]?.message ?? 'invalid'}`, input: k });
          continue;
        }
        const vr = value.safeParse(raw[k]);
        if (!vr.success) {
          for (const issue of vr.error.issues) ctx.addIssue({ code: 'custom', path: [k, ...issue.path], message: issue.message, input: raw[k] });
          continue;
        }
        Object.defineProperty(out, k, { value: vr.data, enumerable: true, writable: true, configurable: true });
      }
      return out;
    });
}
