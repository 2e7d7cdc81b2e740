import { describe, expect, it } from 'vitest';
import {
  DONE_KEPT,
  MAX_OPEN,
  MAX_OPEN_CHARS,
  SUMMARY_MAX,
  addDirection,
  completeDirection,
  emptyBook,
  formatDirectionLine,
  notedReply,
  numberList,
  summarizeDirections,
} from '../../src/task/directions.ts';
import { DirectionBookSchema } from '../../src/store/schema.ts';

const day = (d: number): Date => new Date(Date.UTC(2026, 10, d, 12));

describe('direction book', () => {
  it('GIVEN an empty book THEN it is valid and numbers start at 1', () => {
    const book = emptyBook();
    expect(DirectionBookSchema.parse(book)).toEqual(book);
    const { added, dropped } = addDirection(book, 'stay near the village', 'p1', day(30));
    expect(added).toEqual({ n: 1, text: 'stay near the village', at: '2026-11-30T12:00:00.000Z', by: 'p1' });
    expect(dropped).toEqual([]);
    expect(book.next).toBe(2);
    expect(book.open).toEqual([added]);
  });

  it('GIVEN a message with newlines THEN it is kept whole as one line', () => {
    const book = emptyBook();
    const { added } = addDirection(book, '  stay near the village\r\n\r\n  and no TNT\n- ever  ', null, day(1));
    expect(added.text).toBe('stay near the village and no TNT - ever');
  });

  it('GIVEN 13 directions THEN the 12 newest are kept and #1 is dropped', () => {
    const book = emptyBook();
    let lastDropped: unknown[] = [];
    for (let i = 1; i <= 13; i++) lastDropped = addDirection(book, `direction ${i}`, null, day(i)).dropped;
    expect(book.open).toHaveLength(MAX_OPEN);
    expect(book.open.map((d) => d.n)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(lastDropped).toEqual([expect.objectContaining({ n: 1, text: 'direction 1' })]);
    expect(book.next).toBe(14);
    expect(book.done).toEqual([]);
  });

  it('GIVEN directions of 9000 characters in all THEN the oldest drop until ≤ 8000 and the newest stays', () => {
    const book = emptyBook();
    for (let i = 0; i < 5; i++) addDirection(book, String(i).repeat(1800), null, day(i + 1));
    // 5 × 1800 = 9000 > 8000: #1 went when #5 came.
    expect(book.open.map((d) => d.n)).toEqual([2, 3, 4, 5]);
    expect(book.open.reduce((s, d) => s + d.text.length, 0)).toBeLessThanOrEqual(MAX_OPEN_CHARS);
    expect(book.open.at(-1)?.text).toBe('4'.repeat(1800));
  });

  it('GIVEN one direction longer than 8000 characters THEN it is still kept, alone', () => {
    const book = emptyBook();
    addDirection(book, 'short one', null, day(1));
    const { added, dropped } = addDirection(book, 'y'.repeat(9000), null, day(2));
    expect(book.open).toEqual([added]);
    expect(dropped.map((d) => d.n)).toEqual([1]);
  });

  it('GIVEN an open direction WHEN it is completed THEN it moves to done and the summary stops quoting it', () => {
    const book = emptyBook();
    addDirection(book, 'stay near the village', null, day(1));
    addDirection(book, 'no TNT', null, day(2));
    expect(summarizeDirections(book)).toContain('stay near the village');
    const done = completeDirection(book, 1, day(3));
    expect(done).toEqual({ n: 1, text: 'stay near the village', at: day(1).toISOString(), by: null, doneAt: day(3).toISOString() });
    expect(book.open.map((d) => d.n)).toEqual([2]);
    expect(book.done).toEqual([done]);
    expect(summarizeDirections(book)).not.toContain('stay near the village');
    expect(summarizeDirections(book)).toContain('(1 open)');
  });

  it('GIVEN a direction that is not open THEN completing it returns null and changes nothing', () => {
    const book = emptyBook();
    addDirection(book, 'a', null, day(1));
    completeDirection(book, 1, day(2));
    const before = structuredClone(book);
    expect(completeDirection(book, 1, day(3))).toBeNull();
    expect(completeDirection(book, 99, day(3))).toBeNull();
    expect(book).toEqual(before);
  });

  it('GIVEN more than 100 done directions THEN the newest 100 are kept, newest last', () => {
    const book = emptyBook();
    for (let i = 1; i <= DONE_KEPT + 5; i++) {
      addDirection(book, `d${i}`, null, day(1));
      completeDirection(book, i, day(2));
    }
    expect(book.done).toHaveLength(DONE_KEPT);
    expect(book.done[0]?.n).toBe(6);
    expect(book.done.at(-1)?.n).toBe(DONE_KEPT + 5);
  });

  it('GIVEN a direction THEN its line reads `#n (YYYY-MM-DD) text`', () => {
    expect(formatDirectionLine({ n: 4, text: 'stay near the village', at: '2026-11-30T10:00:00.000Z', by: null })).toBe('#4 (2026-11-30) stay near the village');
  });
});

describe('summarizeDirections', () => {
  it('GIVEN no open direction THEN the summary is empty', () => {
    expect(summarizeDirections(emptyBook())).toBe('');
  });

  it('GIVEN three short directions THEN it quotes the 2 newest, newest first, with the count', () => {
    const book = emptyBook();
    addDirection(book, 'no TNT', null, day(28));
    addDirection(book, 'be nice to alex', null, day(29));
    addDirection(book, 'stay near the village', null, day(30));
    expect(summarizeDirections(book)).toBe(
      'Owner direction (3 open; newest first): #3 (2026-11-30) stay near the village | #2 (2026-11-29) be nice to alex — the rest are in TASK.md.',
    );
  });

  it('GIVEN one short direction THEN it is quoted whole', () => {
    const book = emptyBook();
    addDirection(book, 'no TNT', null, day(1));
    expect(summarizeDirections(book)).toBe('Owner direction (1 open): #1 (2026-11-01) no TNT.');
  });

  it('GIVEN four long directions THEN the summary is ≤ 700 chars, cut with … and shows the count', () => {
    const book = emptyBook();
    for (let i = 1; i <= 4; i++) addDirection(book, `${i} `.repeat(900), null, day(i));
    const s = summarizeDirections(book);
    expect(s.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(s).toContain('(4 open; newest first)');
    expect(s).toContain('#4 (2026-11-04)');
    expect(s).toContain('#3 (2026-11-03)');
    expect(s).not.toContain('#2 (');
    expect(s.match(/…/g)).toHaveLength(2);
    expect(s.endsWith('the rest are in TASK.md.')).toBe(true);
  });

  it('GIVEN one short and one long direction THEN the short one is whole and the long one gets the rest of the room', () => {
    const book = emptyBook();
    addDirection(book, 'x'.repeat(1500), null, day(1));
    addDirection(book, 'no TNT', null, day(2));
    const s = summarizeDirections(book);
    expect(s.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(s.length).toBeGreaterThan(SUMMARY_MAX - 10);
    expect(s).toContain('#2 (2026-11-02) no TNT |');
    expect(s).toContain('(2 open; newest first)');
    expect(s).toContain('in full in TASK.md');
  });

  it('GIVEN long emoji directions THEN the cut never splits a character', () => {
    const book = emptyBook();
    addDirection(book, '🪓'.repeat(1000), null, day(1));
    const s = summarizeDirections(book);
    expect(s.length).toBeLessThanOrEqual(SUMMARY_MAX);
    expect(s).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('GIVEN many directions of every size THEN the summary never exceeds 700 characters', () => {
    for (const size of [1, 50, 299, 300, 301, 333, 340, 699, 700, 2000]) {
      const book = emptyBook();
      for (let i = 0; i < 13; i++) addDirection(book, 'z'.repeat(size), null, day(1));
      const s = summarizeDirections(book);
      expect(s.length, `size ${size}`).toBeLessThanOrEqual(SUMMARY_MAX);
      expect(s).toMatch(/\(\d+ open; newest first\)/);
    }
  });

  it('GIVEN dropped numbers with gaps THEN the reply names runs with an en dash, singular for one', () => {
    expect(numberList([7, 1, 2, 3, 5, 8])).toBe('#1–#3, #5, #7–#8');
    expect(notedReply(4, [])).toBe('Noted as direction #4.');
    expect(notedReply(14, [2])).toBe('Noted as direction #14. #2 no longer fits (12 newest, 8000 characters kept) and was dropped.');
  });
});
