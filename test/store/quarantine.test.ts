import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreCorruptError } from '../../src/errors.ts';
import { newAvatarRecord, Store } from '../../src/store/store.ts';
import { filesOf } from '../../src/store/files.ts';

/** A logger whose lines the test reads. */
function capturedLog(): { log: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, sink), lines };
}

const schedulesWith = (played: string): string => `{"version":1,"next":1,"schedules":[],"digests":[],"played":${played}}`;

describe('a data file with one unreadable record', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-quarantine-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN schedules.json with "played.constructor" a string (what a plain {} made of it) THEN the store opens, the record is kept aside in a side file with one log line, and the rest is kept', async () => {
    const file = join(dir, 'schedules.json');
    await writeFile(file, schedulesWith('{"constructor":"function Object() { [native code] }1","demo":5}'));
    const { log, lines } = capturedLog();
    const store = await Store.open(dir, { log });
    expect({ ...store.schedules.data.played }).toEqual({ demo: 5 });
    const warned = lines.filter((l) => l.level === 40);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ file, record: 'played.constructor', msg: 'a record of a data file was unreadable: it is kept aside and left out' });
    const sides = (await readdir(dir)).filter((f) => f.startsWith('schedules.json.quarantine-'));
    expect(sides).toHaveLength(1);
    const kept = JSON.parse(await readFile(join(dir, sides[0] as string), 'utf8')) as unknown[];
    expect(kept).toEqual([{ at: expect.any(String), record: 'played.constructor', reason: expect.stringMatching(/^played\.constructor: /), value: 'function Object() { [native code] }1' }]);
    await store.flush();
    expect(JSON.parse(await readFile(file, 'utf8')).played).toEqual({ demo: 5 });
  });

  it('GIVEN state.json with one avatar that does not match (an unknown engine) THEN the other avatars are kept and that one is set aside', async () => {
    const good = newAvatarRecord('demo', 'console', 'embedded', 'scripted', true, new Date());
    const bad = { ...newAvatarRecord('steve', 'console', 'embedded', 'scripted', true, new Date()), engine: 'gpt-9' };
    await writeFile(join(dir, 'state.json'), JSON.stringify({ version: 1, avatars: [bad, good], persons: [], links: [], servers: [], shares: [] }));
    const store = await Store.open(dir);
    expect(store.state.data.avatars.map((a) => a.name)).toEqual(['demo']);
    expect(store.state.quarantine?.records.map((r) => [r.record, (r.value as { name: string }).name])).toEqual([['avatars.0', 'steve']]);
  });

  it('GIVEN state.json holding the same avatar twice THEN the start is refused naming the file, which is left as it was, and nothing is set aside', async () => {
    const demo = newAvatarRecord('demo', 'console', 'embedded', 'scripted', true, new Date());
    const bytes = JSON.stringify({ version: 1, avatars: [demo, demo], persons: [], links: [], servers: [], shares: [] });
    await writeFile(join(dir, 'state.json'), bytes);
    const err = await Store.open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as Error).message).toMatch(/avatars\.1\.name: duplicate avatar "demo"/);
    expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe(bytes);
    expect((await readdir(dir)).filter((f) => f.includes('quarantine'))).toEqual([]);
  });

  it('GIVEN played minutes of avatars called __proto__ and constructor THEN they are written and read back as their own entries', async () => {
    const store = await Store.open(dir);
    filesOf(store).schedules.update((f) => {
      for (const name of ['__proto__', 'constructor', 'toString']) f.played[name] = (f.played[name] ?? 0) + 1;
    });
    await store.flush();
    store.close();
    const onDisk = await readFile(join(dir, 'schedules.json'), 'utf8');
    expect(onDisk).toContain('"__proto__": 1');
    const again = await Store.open(dir);
    expect(Object.entries(again.schedules.data.played)).toEqual([['__proto__', 1], ['constructor', 1], ['toString', 1]]);
    expect(Object.getPrototypeOf(again.schedules.data.played)).toBeNull();
  });
});
