/**
 * The avatars' records for a test: their owner ({@link AvatarRecords}) over a store, with its goal record and
 * usage, as the core builds them.
 */
import { AvatarRecords } from '../../src/avatars/avatar-records.ts';
import { GoalHistory } from '../../src/avatars/goal-history.ts';
import { UsageBook } from '../../src/avatars/usage.ts';
import type { Store } from '../../src/store/store.ts';

/** The owner of the avatars' records of `store`. */
export function recordsOf(store: Store, now: () => Date = () => new Date()): AvatarRecords {
  return new AvatarRecords(store, new GoalHistory(store), new UsageBook(store), now);
}
