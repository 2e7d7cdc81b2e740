/**
 * What a script (a skill the avatar wrote, docs/skills.md) may call, and what
 * the script's worker and the runner beside the avatar's game say to each
 * other. Defined once: the runner (`sandbox.ts`) imports it, the worker's
 * plain CommonJS (`worker.cjs`) reads the messages through JSDoc, and `npm run
 * typecheck` checks both against them.
 *
 * A script is the body of an async function with one argument, `params`. It
 * sees the avatar's skills as awaitable functions named in camelCase
 * (`collect`, `goTo`, `craft` …), the read-only queries of {@link QUERIES},
 * `sleep(ms)`, and the language's own plain objects (no timers, no `eval`, no
 * binary buffers, no modules, no `process`, no files, no network).
 */
import type { NearbyEntity, Snapshot, Vec3Like } from '../game.ts';

/** The skill id that runs a script on the avatar's game: travels like any skill call, offered to no engine as a tool. */
export const RUN_SCRIPT = 'run_script';

/** The longest script, in characters. */
export const SCRIPT_MAX_CHARS = 8000;

/** How long a script runs when its caller names no time. */
export const SCRIPT_DEFAULT_TIMEOUT_MS = 120_000;

/** The longest a script may be given to run. */
export const SCRIPT_MAX_TIMEOUT_MS = 10 * 60_000;

/** The script's heap (V8's old generation, in MB): past it the worker is terminated. */
export const SCRIPT_HEAP_MB = 48;

/** The most skill calls and queries one run may make (it is a plan, not a busy loop). */
export const SCRIPT_MAX_CALLS = 500;

/** The longest one `sleep(ms)` waits. */
export const SCRIPT_MAX_SLEEP_MS = 30_000;

/** The most characters of JSON a call's params or the script's return value may take. */
export const SCRIPT_MAX_DATA_CHARS = 16_000;

/** The name of the script's source in stack traces (the runner finds the script's line by it). */
export const SCRIPT_FILE = 'skill.js';

/**
 * The read-only queries a script may await, answered from the avatar's snapshot at the time of the call
 * (plain data, copies).
 */
export const QUERIES = ['inventory', 'position', 'blocksNear', 'entitiesNear', 'timeOfDay', 'status'] as const;

/** A query's name. */
export type QueryName = (typeof QUERIES)[number];

/** What each query answers. */
export interface QueryAnswers {
  /** Item name → count. */
  inventory: Record<string, number>;
  position: Vec3Like;
  /** Notable block name → distance of the nearest one. */
  blocksNear: Record<string, number>;
  entitiesNear: NearbyEntity[];
  /** 0–24000 ticks (0 sunrise, 6000 noon, 13000 night). */
  timeOfDay: number;
  status: { health: number; food: number; xp: { level: number; points: number }; dimension: string };
}

/**
 * A query's answer from a snapshot.
 *
 * @example
 * answerQuery('inventory', snap) // → { oak_log: 3 }
 */
export function answerQuery(name: QueryName, s: Snapshot): QueryAnswers[QueryName] {
  switch (name) {
    case 'inventory':
      return { ...s.inventory };
    case 'position':
      return { x: s.position.x, y: s.position.y, z: s.position.z };
    case 'blocksNear':
      return { ...s.nearbyBlocks };
    case 'entitiesNear':
      return s.nearbyEntities.map((e) => ({ ...e, position: { ...e.position } }));
    case 'timeOfDay':
      return s.timeOfDay;
    case 'status':
      return { health: s.health, food: s.food, xp: { ...s.xp }, dimension: s.dimension };
  }
}

/**
 * A skill's name in a script: its id in camelCase (`go_to` → `goTo`).
 *
 * @example
 * scriptName('come_to') // → 'comeTo'
 */
export function scriptName(skillId: string): string {
  return skillId.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** What the worker is started with (its `workerData`). */
export interface WorkerStart {
  code: string;
  /** The script's `params` (plain data). */
  params: Record<string, unknown>;
  /** The skills it may call, by their script names. */
  skills: string[];
  /** The limits and names above (the worker's CommonJS cannot import this file). */
  limits: { maxCalls: number; maxSleepMs: number; maxDataChars: number; file: string; queries: readonly QueryName[] };
}

/** The worker asks the runner. */
export type WorkerToRunner =
  /** Locked down and about to run the script: its time starts now. */
  | { type: 'started' }
  /** Run a skill (`kind: 'skill'`, by its script name) or answer a query; answered by a `reply` with the same id. */
  | { type: 'call'; id: number; kind: 'skill' | 'query'; name: string; params: unknown }
  /** The script returned: its value as JSON (cut to {@link SCRIPT_MAX_DATA_CHARS}), or null. */
  | { type: 'returned'; value: string | null; calls: number }
  /** The script threw: the message, the line of the script it came from (1 is its first), and the failed skill's code if a skill failed. */
  | { type: 'threw'; message: string; line: number | null; code: string | null; calls: number };

/** The runner answers a call. */
export type RunnerToWorker =
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; code: string; detail: string };
