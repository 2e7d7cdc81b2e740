/** The one writer of `schedules.json` `digests` and `played` (daily digests, minutes played): only its owner, `src/schedule/digests.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { ScheduleFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = digestsWriter(store);
 */
export function digestsWriter(store: Store): RecordWriter<Pick<ScheduleFile, 'digests' | 'played'>> {
  return recordWriter(store, 'schedules', ['digests', 'played']);
}
