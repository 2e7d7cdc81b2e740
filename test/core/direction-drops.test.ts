/**
 * A new direction that pushes older ones out of the book (12 newest, 8000
 * characters) says which were dropped. Real core over the console bridge.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { startConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const running: Mindlink[] = [];

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('directions that drop out', () => {
  it('GIVEN eight short and four long directions THEN the twelfth says #1–#4 no longer fit and were dropped, and the next drops #5; /direction shows #6–#13', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-drops-'));
    dirs.push(dir);
    const r = await startConsoleCore(dir);
    running.push(r.core);
    await r.line(/^\[demo\] New goal \(my choice\): explore$/);
    for (let i = 1; i <= 8; i++) {
      r.send(`stay dry ${i}`);
      await r.line(new RegExp(`^\\[demo\\] Noted as direction #${i}\\.$`));
    }
    const long = (i: number): string => `wall ${i} `.padEnd(1990, 'x');
    expect(long(12)).toHaveLength(1990);
    for (let i = 9; i <= 11; i++) {
      r.send(long(i));
      await r.line(new RegExp(`^\\[demo\\] Noted as direction #${i}\\.$`));
    }
    r.send(long(12));
    await r.line(/^\[demo\] Noted as direction #12\. #1–#4 no longer fit \(12 newest, 8000 characters kept\) and were dropped\.$/);
    r.send('one more');
    await r.line(/^\[demo\] Noted as direction #13\. #5 no longer fits \(12 newest, 8000 characters kept\) and was dropped\.$/);
    r.send('/direction');
    await r.line(/^\[demo\] #13 \(\d{4}-\d{2}-\d{2}\) one more$/);
    expect(r.core.avatars.get('demo')?.directions.open.map((d) => d.n)).toEqual([6, 7, 8, 9, 10, 11, 12, 13]);
    expect(r.lines.filter((l) => /^\[demo\] #\d+ \(/.test(l)).map((l) => /^\[demo\] #(\d+)/.exec(l)?.[1])).toEqual(['6', '7', '8', '9', '10', '11', '12', '13']);
  });
});
