/**
 * The store: mindlink's lowdb files under DATA_DIR.
 *
 * - `state.json`: avatars (goal, state, parked goals, direction), persons and
 *   their identities, links, servers, guild shares.
 * - `outbox.json`: posts not yet accepted by their platform.
 * - `goal-record.json`: every finished goal, and engine usage.
 * - `schedules.json`: scheduled goals, daily digests, minutes played.
 *
 * Per-avatar TASK.md and lab log live in `DATA_DIR/avatars/<name>/`.
 */
import { join } from 'node:path';
import { DataFile } from './json-file.ts';
import { OutboxFileSchema, RecordFileSchema, ScheduleFileSchema, StateFileSchema, type Avatar } from './schema.ts';

export * from './schema.ts';

/**
 * @example
 * const store = await Store.open('data');
 * store.state.update((s) => s.avatars.push(...));
 * await store.flush();
 */
export class Store {
  private constructor(
    readonly dir: string,
    readonly state: DataFile<typeof StateFileSchema>,
    readonly outbox: DataFile<typeof OutboxFileSchema>,
    readonly record: DataFile<typeof RecordFileSchema>,
    readonly schedules: DataFile<typeof ScheduleFileSchema>,
  ) {}

  /** Open every file; throws StoreCorruptError naming the first bad file (nothing is overwritten). */
  static async open(dir: string): Promise<Store> {
    const state = await DataFile.open(join(dir, 'state.json'), StateFileSchema, () => ({
      version: 1 as const,
      avatars: [],
      persons: [],
      links: [],
      servers: [],
      shares: [],
    }));
    const outbox = await DataFile.open(join(dir, 'outbox.json'), OutboxFileSchema, () => ({
      version: 1 as const,
      seq: 0,
      pending: [],
    }));
    const record = await DataFile.open(join(dir, 'goal-record.json'), RecordFileSchema, () => ({
      version: 1 as const,
      goals: [],
      usage: {},
    }));
    const schedules = await DataFile.open(join(dir, 'schedules.json'), ScheduleFileSchema, () => ({
      version: 1 as const,
      next: 1,
      schedules: [],
      digests: [],
      played: {},
    }));
    return new Store(dir, state, outbox, record, schedules);
  }

  /** The folder of one avatar's TASK.md and lab log. */
  avatarDir(name: string): string {
    return join(this.dir, 'avatars', name);
  }

  /** Wait until every update is on disk. */
  async flush(): Promise<void> {
    await Promise.all([this.state.flush(), this.outbox.flush(), this.record.flush(), this.schedules.flush()]);
  }
}

/**
 * A new avatar record: no goal, no direction, stopped unless `playing`.
 *
 * @example
 * store.state.update((s) => s.avatars.push(newAvatarRecord('steve', ownerId, 'embedded', 'scripted', false, new Date())));
 */
export function newAvatarRecord(name: string, owner: string, server: string, engine: Avatar['engine'], playing: boolean, now: Date): Avatar {
  return {
    name,
    server,
    owner,
    engine,
    playing,
    state: 'stopped',
    goal: null,
    parked: [],
    directions: { next: 1, open: [], done: [] },
    createdAt: now.toISOString(),
  };
}
