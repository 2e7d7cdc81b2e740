/**
 * One unreadable record does not lock the owner out: when a data file parses
 * as JSON but some of its records (an avatar, a post, a schedule, one entry of
 * a map such as `played`) do not match the schema, those records are taken
 * out and kept aside in a side file (`<file>.quarantine-<time>.json`), and the rest is used. What
 * cannot be narrowed to single records (the file's own fields, two avatars
 * with one name) still refuses the start.
 */
import { writeFile } from 'node:fs/promises';
import type { z } from 'zod';

/** A record taken out of a data file: where it was, why, and what it held. */
export interface QuarantinedRecord {
  /** Its path in the file, e.g. `played.constructor` or `avatars.3`. */
  record: string;
  /** What the schema said about it. */
  reason: string;
  value: unknown;
}

/** The zod issue params that mark a failure of a whole collection (it cannot be set aside record by record). */
export const WHOLE_COLLECTION = { wholeCollection: true } as const;

/** The most records taken out of one file: more than that is not "a bad record" but a bad file. */
const MAX_RECORDS = 100;

type Issue = z.core.$ZodIssue;

/** Where a failing issue's record sits: the collection (a top-level array or object) and the key in it, or null. */
function recordOf(raw: Record<string, unknown>, issue: Issue): [string, string | number] | null {
  const [field, key] = issue.path;
  if (typeof field !== 'string' || key === undefined || typeof key === 'symbol') return null;
  if ((issue as { params?: Record<string, unknown> }).params?.wholeCollection) return null;
  const collection = raw[field];
  if (Array.isArray(collection)) return typeof key === 'number' && key < collection.length ? [field, key] : null;
  if (typeof collection === 'object' && collection !== null && Object.hasOwn(collection, String(key))) return [field, String(key)];
  return null;
}

/**
 * Parse `raw` with `schema`, taking out the records that fail on their own. Returns the parsed data and the
 * records taken out, or the first issue that is not one record's (then nothing is taken out of `raw`).
 *
 * @example
 * const r = parseQuarantining(JSON.parse(text), ScheduleFileSchema);
 * if ('issue' in r) throw new StoreCorruptError(path, describe(r.issue));
 */
export function parseQuarantining<S extends z.ZodType>(raw: unknown, schema: S): { data: z.output<S>; taken: QuarantinedRecord[] } | { issue: Issue } {
  let first = schema.safeParse(raw);
  if (first.success) return { data: first.data, taken: [] };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { issue: first.error.issues[0] as Issue };
  const firstIssue = first.error.issues[0] as Issue;
  // Work on a copy (JSON keeps a `__proto__` key an own key): the data as read stays as it was.
  let work = JSON.parse(JSON.stringify(raw)) as Record<string, unknown>;
  const taken: QuarantinedRecord[] = [];
  for (;;) {
    const found = new Map<string, { field: string; key: string | number; reason: string }>();
    for (const issue of first.error.issues) {
      const where = recordOf(work, issue);
      if (!where) return { issue };
      const id = `${where[0]}.${String(where[1])}`;
      if (!found.has(id)) found.set(id, { field: where[0], key: where[1], reason: `${issue.path.join('.')}: ${issue.message}` });
    }
    if (taken.length + found.size > MAX_RECORDS) return { issue: firstIssue };
    const dropIndexes = new Map<string, Set<number>>();
    for (const [id, { field, key, reason }] of found) {
      const collection = work[field] as unknown[] | Record<string, unknown>;
      taken.push({ record: id, reason, value: Array.isArray(collection) ? collection[key as number] : collection[key as string] });
      if (Array.isArray(collection)) dropIndexes.set(field, (dropIndexes.get(field) ?? new Set()).add(key as number));
      else delete collection[key as string];
    }
    for (const [field, drop] of dropIndexes) work = { ...work, [field]: (work[field] as unknown[]).filter((_, i) => !drop.has(i)) };
    first = schema.safeParse(work);
    if (first.success) return { data: first.data, taken };
  }
}

/**
 * Keep `records` aside in a new side file beside `path` (`<file>.quarantine-<time>.json`, never overwriting one
 * kept before), with the time they were taken out. Returns the side file's path.
 */
export async function keepAside(path: string, records: readonly QuarantinedRecord[], now: Date): Promise<string> {
  const side = `${path}.quarantine-${now.toISOString().replace(/[:.]/g, '-')}.json`;
  await writeFile(side, `${JSON.stringify(records.map((r) => ({ at: now.toISOString(), ...r })), null, 2)}\n`, { flag: 'wx' });
  return side;
}
