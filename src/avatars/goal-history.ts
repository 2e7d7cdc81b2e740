/**
 * Every ended goal (`goal-record.json` `goals`), written here only: a goal
 * done, blocked, replaced or parked is appended; a removed avatar's history
 * is taken out (it is kept beside its files); a renamed avatar's follows it.
 */
import type { DeepReadonly } from '../store/readonly.ts';
import type { GoalRecordEntry } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { goalHistoryWriter } from '../store/writers/goal-history.ts';

/**
 * @example
 * const history = new GoalHistory(store);
 * history.append({ avatar: 'steve', text: 'collect 3 oak logs', outcome: 'done', … });
 * history.of('steve'); // → its ended goals, oldest first
 */
export class GoalHistory {
  private readonly file;

  constructor(store: Store) {
    this.file = goalHistoryWriter(store);
  }

  /** Every ended goal, oldest first. */
  all(): readonly DeepReadonly<GoalRecordEntry>[] {
    return this.file.value.goals;
  }

  /** One avatar's ended goals, oldest first. */
  of(avatar: string): DeepReadonly<GoalRecordEntry>[] {
    return this.all().filter((g) => g.avatar === avatar);
  }

  /** Record ended goals. */
  append(entries: readonly GoalRecordEntry[]): void {
    if (entries.length === 0) return;
    this.file.update((d) => {
      d.goals.push(...entries);
    });
  }

  /** A removed avatar: its history leaves the record; returned to be kept beside its files. */
  take(avatar: string): GoalRecordEntry[] {
    if (!this.all().some((g) => g.avatar === avatar)) return [];
    return this.file.update((d) => {
      const taken = d.goals.filter((g) => g.avatar === avatar);
      d.goals = d.goals.filter((g) => g.avatar !== avatar);
      return taken;
    });
  }

  /** A renamed avatar: its history follows it. */
  rename(from: string, to: string): void {
    if (!this.all().some((g) => g.avatar === from)) return;
    this.file.update((d) => {
      for (const g of d.goals) if (g.avatar === from) g.avatar = to;
    });
  }
}
