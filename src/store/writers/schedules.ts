/** The one writer of `schedules.json` `schedules` and `next` (scheduled goals): only its owner, `src/schedule/scheduler.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { ScheduleFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = schedulesWriter(store);
 */
export function schedulesWriter(store: Store): RecordWriter<Pick<ScheduleFile, 'schedules' | 'next'>> {
  return recordWriter(store, 'schedules', ['schedules', 'next']);
}
