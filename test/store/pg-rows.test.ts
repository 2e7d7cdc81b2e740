import { describe, expect, it } from 'vitest';
import { keyed } from '../../src/keyed.ts';
import { LAYOUT, layoutOf } from '../../src/store/pg/layout.ts';
import { changesOf, documentOf, FIELDS, placed, recordsOf, rowsOf, type Known, type Row } from '../../src/store/pg/rows.ts';

const known = (entries: [string, number][]): Known => new Map(entries.map(([k, ord]) => [k, { ord, text: k }]));

describe('a data file as rows', () => {
  it('GIVEN a record added at the end and one removed from the front THEN no other record gets another ord', () => {
    const before = known([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    expect(placed([{ key: 'b' }, { key: 'c' }, { key: 'd' }], before)).toEqual([1, 2, 3]);
  });

  it('GIVEN records put between others and in front THEN they get ords between their neighbours, in order', () => {
    const before = known([
      ['a', 0],
      ['b', 1],
    ]);
    const ords = placed([{ key: 'x' }, { key: 'a' }, { key: 'y' }, { key: 'z' }, { key: 'b' }], before);
    expect(ords[1]).toBe(0);
    expect(ords[4]).toBe(1);
    expect([...ords].sort((p, q) => p - q)).toEqual(ords);
    expect(new Set(ords).size).toBe(5);
  });

  it('GIVEN records put between the same two again and again until the numbers are too close THEN they are numbered afresh, still in order', () => {
    let rows = new Map<string, Row>([
      ['a', { ord: 0, text: '' }],
      ['b', { ord: 1, text: '' }],
    ]);
    let order = ['a', 'b'];
    for (let i = 0; i < 80; i++) {
      order = [order[0] as string, `n${i}`, ...order.slice(1)];
      rows = rowsOf(
        order.map((key) => ({ key, text: '' })),
        rows,
      );
      const ords = order.map((k) => rows.get(k)?.ord as number);
      expect([...ords].sort((p, q) => p - q)).toEqual(ords);
      expect(new Set(ords).size).toBe(ords.length);
    }
  });

  it('GIVEN a record changed in place THEN only its row is written; GIVEN one gone THEN only it is deleted; GIVEN rows not known (a failed write) THEN they are written again or deleted', () => {
    const rows = new Map<string, Row>([
      ['a', { ord: 0, text: '1' }],
      ['b', { ord: 1, text: '2' }],
    ]);
    const had: Known = new Map([
      ['a', { ord: 0, text: '1' }],
      ['b', { ord: 1, text: 'old' }],
      ['c', { ord: 2, text: '3' }],
    ]);
    expect(changesOf('t', rows, had)).toEqual({ table: 't', upserts: [{ key: 'b', ord: 1, text: '2' }], deletes: ['c'] });
    const unknown: Known = new Map([
      ['a', null],
      ['x', null],
    ]);
    expect(changesOf('t', rows, unknown)).toEqual({
      table: 't',
      upserts: [
        { key: 'a', ord: 0, text: '1' },
        { key: 'b', ord: 1, text: '2' },
      ],
      deletes: ['x'],
    });
  });

  it('GIVEN records with ids, records without, twins, and map keys such as __proto__ and a NUL THEN they read back as they were', () => {
    const layout = layoutOf('schedules');
    const played = keyed<number>([
      ['__proto__', 1],
      ['a\u0000b', 2],
      ['~json:x', 3],
    ]);
    const doc = { version: 1, next: 3, schedules: [{ id: 1 }, { id: 1 }], digests: [{ dest: 'console', time: '08:00' }], played };
    const records = recordsOf(layout, doc);
    expect(records.get(FIELDS)?.map((r) => r.key)).toEqual(['version', 'next']);
    expect(records.get('schedules')?.map((r) => r.key)).toEqual(['1', '1~1']);
    const tables = new Map([...records].map(([t, list]) => [t, list.map((r) => ({ ...r }))]));
    const back = documentOf(layout, tables) as typeof doc;
    expect(back.schedules).toEqual(doc.schedules);
    expect(Object.entries(back.played)).toEqual([
      ['__proto__', 1],
      ['a\u0000b', 2],
      ['~json:x', 3],
    ]);
    const goals = recordsOf(layoutOf('record'), { version: 1, goals: [{ t: 1 }, { t: 1 }, { t: 2 }], usage: {} }).get('goal_records') ?? [];
    expect(goals[1]?.key).toBe(`${goals[0]?.key}~1`);
    expect(goals[2]?.key).not.toBe(goals[0]?.key);
  });

  it('GIVEN no rows THEN the file was never written (null); GIVEN records without the fields THEN a document without them (which its schema refuses)', () => {
    expect(documentOf(layoutOf('outbox'), new Map())).toBeNull();
    expect(documentOf(layoutOf('outbox'), new Map([['outbox_answered', [{ key: 'k', text: '"k"' }]]]))).toEqual({ pending: [], answered: ['k'] });
  });

  it('GIVEN the layout THEN each table holds one field of one file, and no table twice', () => {
    const tables = LAYOUT.flatMap((f) => f.collections.map((c) => c.table));
    expect(new Set(tables).size).toBe(tables.length);
  });
});
