/**
 * Where each chat was read up to (`state.json` `readMarks`, written here
 * only): the newest message id a bridge handed over, per destination. Discord does not replay
 * what was written while mindlink was down; its bridge reads on from here.
 */
import type { Platform } from './chat.ts';
import { platformOf } from './store/destination.ts';
import type { Destination } from './store/schema.ts';
import type { Store } from './store/store.ts';
import { readMarksWriter } from './store/writers/read-marks.ts';

/** Chats remembered at most; the one read longest ago goes first. */
export const READ_MARK_LIMIT = 1000;

/** Whether numeric id `a` is newer than `b` (ids of one platform grow; longer is larger). */
export function newerId(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

/**
 * @example
 * const marks = new ReadMarks(store);
 * marks.mark('discord:123', '1311110000000000001');
 * marks.of('discord'); // Map { 'discord:123' => '1311110000000000001' }
 */
export class ReadMarks {
  private readonly marks;

  constructor(store: Store) {
    this.marks = readMarksWriter(store);
  }

  /** The marks of one platform's chats. */
  of(platform: Platform): ReadonlyMap<Destination, string> {
    return new Map(Object.entries(this.marks.value.readMarks).filter(([dest]) => platformOf(dest) === platform));
  }

  /** Message `id` of `dest` was handed over: the mark moves on (never back), and the chat becomes the newest one read. */
  mark(dest: Destination, id: string): void {
    if (!/^\d{1,25}$/.test(id)) return;
    const current = this.marks.value.readMarks[dest];
    if (current !== undefined && !newerId(id, current)) return;
    this.marks.update((s) => {
      // Delete and set again: insertion order is the order chats were last read in.
      delete s.readMarks[dest];
      s.readMarks[dest] = id;
      if (current !== undefined) return;
      // A new chat: the ones read longest ago beyond the limit go.
      const keys = Object.keys(s.readMarks);
      for (const old of keys.slice(0, Math.max(0, keys.length - READ_MARK_LIMIT))) delete s.readMarks[old];
    });
  }

  /** A chat that is gone: forget where it was read up to. */
  forget(dest: Destination): void {
    if (!(dest in this.marks.value.readMarks)) return;
    this.marks.update((s) => {
      delete s.readMarks[dest];
    });
  }
}
