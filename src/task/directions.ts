/**
 * The owner direction book: numbered standing direction from the owner
 * (README "Talking to an avatar"). Every function mutates the
 * {@link DirectionBook} it is given (the caller passes a lowdb draft).
 */
import type { DeepReadonly } from '../store/readonly.ts';
import type { Direction, DirectionBook, DoneDirection } from '../store/schema.ts';
import { cutOnWord, cutText, oneLine } from '../text.ts';

/** Open direction kept: the 12 newest. */
export const MAX_OPEN = 12;
/** Open direction kept: at most 8000 characters of text in all (the newest is always kept). */
export const MAX_OPEN_CHARS = 8000;
/** The direction summary in every automatic prompt is at most this long. */
export const SUMMARY_MAX = 700;
/** TASK.md shows this many done directions. */
export const DONE_SHOWN = 10;
/** Each done direction in TASK.md is cut to this many characters. */
export const DONE_TEXT_MAX = 300;
/** The book keeps this many done directions (older ones stay in the goal record's history only). */
export const DONE_KEPT = 100;

/** How many open directions the summary quotes. */
const SUMMARY_QUOTED = 2;

/**
 * A new, empty book.
 *
 * @example
 * avatar.directions = emptyBook();
 */
export function emptyBook(): DirectionBook {
  return { next: 1, open: [], done: [] };
}

/** Total characters of open direction text. */
function openChars(book: DirectionBook): number {
  return book.open.reduce((sum, d) => sum + d.text.length, 0);
}

/**
 * Add an owner direction as `#next`, kept whole as one line, then drop the
 * oldest open ones until at most {@link MAX_OPEN} and {@link MAX_OPEN_CHARS}
 * remain (the new one always stays).
 *
 * @example
 * const { added, dropped } = addDirection(draft.directions, 'stay near the village', 'p1', new Date());
 * reply(`Noted as direction #${added.n}.`);
 */
export function addDirection(book: DirectionBook, text: string, by: string | null, now: Date): { added: Direction; dropped: Direction[] } {
  const added: Direction = { n: book.next, text: oneLine(text), at: now.toISOString(), by };
  book.next += 1;
  book.open.push(added);
  const dropped: Direction[] = [];
  while (book.open.length > 1 && (book.open.length > MAX_OPEN || openChars(book) > MAX_OPEN_CHARS)) {
    const oldest = book.open.shift();
    if (oldest) dropped.push(oldest);
  }
  return { added, dropped };
}

/**
 * Retire open direction `#n` (the avatar said `DIRECTION: done n`): it moves to
 * the done list (newest last, at most {@link DONE_KEPT}). Returns null when
 * `#n` is not open.
 *
 * @example
 * const done = completeDirection(draft.directions, 3, new Date());
 * if (done) post(`Direction #3 done: ${done.text}`);
 */
export function completeDirection(book: DirectionBook, n: number, now: Date): DoneDirection | null {
  const i = book.open.findIndex((d) => d.n === n);
  const found = book.open[i];
  if (i < 0 || !found) return null;
  book.open.splice(i, 1);
  const done: DoneDirection = { ...found, doneAt: now.toISOString() };
  book.done.push(done);
  if (book.done.length > DONE_KEPT) book.done.splice(0, book.done.length - DONE_KEPT);
  return done;
}

/**
 * Direction numbers as one short phrase: runs of consecutive numbers joined with an en dash.
 *
 * @example
 * numberList([1, 2, 3, 5]) // → '#1–#3, #5'
 */
export function numberList(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j += 1;
    runs.push(j === i ? `#${sorted[i]}` : `#${sorted[i]}–#${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

/**
 * The reply to a new direction: its number and, when older ones no longer fit, which were dropped.
 *
 * @example
 * notedReply(11, [1, 2, 3]) // → 'Noted as direction #11. #1–#3 no longer fit (12 newest, 8000 characters kept) and were dropped.'
 */
export function notedReply(n: number, dropped: readonly number[]): string {
  if (dropped.length === 0) return `Noted as direction #${n}.`;
  const verb = dropped.length === 1 ? 'no longer fits' : 'no longer fit';
  const was = dropped.length === 1 ? 'was' : 'were';
  return `Noted as direction #${n}. ${numberList(dropped)} ${verb} (${MAX_OPEN} newest, ${MAX_OPEN_CHARS} characters kept) and ${was} dropped.`;
}

/** `YYYY-MM-DD` of an ISO time (or the raw value when it is not one). */
export function isoDay(at: string): string {
  return /^\d{4}-\d{2}-\d{2}/.test(at) ? at.slice(0, 10) : at;
}

/**
 * One open direction as listed in TASK.md and by `/direction`.
 *
 * @example
 * formatDirectionLine({ n: 4, text: 'stay near the village', at: '2026-11-30T10:00:00.000Z', by: null });
 * // → '#4 (2026-11-30) stay near the village'
 */
export function formatDirectionLine(d: DeepReadonly<Direction>): string {
  return `#${d.n} (${isoDay(d.at)}) ${oneLine(d.text)}`;
}

/** How much of each direction someone who may not see it in full gets (a pilot outside a linked chat). */
export const DIRECTION_CUT = 60;

/**
 * A direction's text as someone may see it: whole, or cut on a word to {@link DIRECTION_CUT}
 * characters for a reader who may not see direction in full.
 *
 * @example
 * directionText('stay near the village and never dig down, whatever happens at night', false) // → 'stay near the village and never dig down, whatever happens…'
 */
export function directionText(text: string, full: boolean): string {
  return full ? oneLine(text) : cutOnWord(oneLine(text), DIRECTION_CUT);
}

/**
 * The short reminder of open direction carried by every automatic prompt: the
 * {@link SUMMARY_QUOTED} newest (long ones cut with `…`) and the total count,
 * at most {@link SUMMARY_MAX} characters. `''` when none is open.
 *
 * @example
 * summarizeDirections(book);
 * // → 'Owner direction (3 open; newest first): #5 (2026-11-30) stay near the village | #4 (2026-11-29) no TNT — the rest are in TASK.md.'
 */
export function summarizeDirections(book: DeepReadonly<DirectionBook>): string {
  const count = book.open.length;
  if (count === 0) return '';
  const quoted = book.open.slice(-SUMMARY_QUOTED).reverse();
  const head = count === 1 ? 'Owner direction (1 open): ' : `Owner direction (${count} open; newest first): `;
  const lines = quoted.map(formatDirectionLine);
  const sep = ' | ';
  const tailFor = (cut: boolean): string => (count > quoted.length ? ' — the rest are in TASK.md.' : cut ? ' — in full in TASK.md.' : '.');
  const whole = head + lines.join(sep) + tailFor(false);
  if (whole.length <= SUMMARY_MAX) return whole;
  const tail = tailFor(true);
  const budget = SUMMARY_MAX - head.length - tail.length - sep.length * (lines.length - 1);
  // Share the room fairly, shortest first: a short line gives what it does not need to the others.
  const cuts: string[] = [...lines];
  let room = budget;
  const order = lines.map((l, i) => ({ l, i })).sort((a, b) => a.l.length - b.l.length);
  order.forEach(({ l, i }, k) => {
    const share = Math.floor(room / (order.length - k));
    const cut = cutText(l, share);
    cuts[i] = cut;
    room -= cut.length;
  });
  return cutText(head + cuts.join(sep) + tail, SUMMARY_MAX);
}
