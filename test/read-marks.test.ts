import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newerId, READ_MARK_LIMIT, ReadMarks } from '../src/read-marks.ts';
import { Store } from '../src/store/store.ts';

describe('read marks', () => {
  let dir: string;
  let store: Store;
  let marks: ReadMarks;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-marks-'));
    store = await Store.open(dir);
    marks = new ReadMarks(store);
  });

  afterEach(async () => {
    await store.flush();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN numeric ids THEN a longer one is newer, and of one length the larger', () => {
    expect(newerId('1000', '999')).toBe(true);
    expect(newerId('999', '1000')).toBe(false);
    expect(newerId('1311', '1310')).toBe(true);
    expect(newerId('1311', '1311')).toBe(false);
  });

  it('GIVEN marks WHEN an older id or a non-number comes THEN the mark never moves back, and it is on disk after a reopen', async () => {
    marks.mark('discord:10', '1311000000000000005');
    marks.mark('discord:10', '1311000000000000004');
    marks.mark('discord:10', 'abc');
    marks.mark('telegram:-100', '42');
    expect([...marks.of('discord')]).toEqual([['discord:10', '1311000000000000005']]);
    expect([...marks.of('telegram')]).toEqual([['telegram:-100', '42']]);
    await store.flush();
    const reopened = new ReadMarks(await Store.open(dir));
    expect(reopened.of('discord').get('discord:10')).toBe('1311000000000000005');
    expect(JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')).readMarks).toEqual({ 'discord:10': '1311000000000000005', 'telegram:-100': '42' });
  });

  it('GIVEN more chats than the limit THEN the one read longest ago is forgotten first; a gone chat is forgotten', () => {
    for (let i = 0; i <= READ_MARK_LIMIT; i++) marks.mark(`discord:${1000 + i}`, String(5000 + i));
    // discord:1000 read again: now the newest, so discord:1001 is the oldest.
    marks.mark('discord:1000', '9999');
    const all = marks.of('discord');
    expect(all.size).toBe(READ_MARK_LIMIT);
    expect(all.has('discord:1000')).toBe(true);
    expect(all.has('discord:1001')).toBe(false);
    marks.forget('discord:1000');
    expect(marks.of('discord').has('discord:1000')).toBe(false);
  });
});
