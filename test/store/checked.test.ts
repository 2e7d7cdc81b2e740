/**
 * The draft an update hands out, and the checked store (`STORE_CHECKS=on`, the test suite's setting):
 * frozen data, each update on a copy swapped in afterwards, so a write anywhere but in an owner's
 * update throws (docs/architecture.md "Who writes what").
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeChecks } from '../../src/config.ts';
import { filesOf } from '../../src/store/files.ts';
import { newAvatarRecord, Store, type Avatar } from '../../src/store/store.ts';
import { linksWriter } from '../../src/store/writers/links.ts';
import { recordsOf } from '../avatars/records-helpers.ts';

describe('the checked store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-checked-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN STORE_CHECKS THEN the test suite runs checked, and only on/true/1/yes turn it on', () => {
    expect(storeChecks()).toBe(true);
    expect([storeChecks({ STORE_CHECKS: 'on' }), storeChecks({ STORE_CHECKS: 'off' }), storeChecks({}), storeChecks({ STORE_CHECKS: 'maybe' })]).toEqual([true, false, false, false]);
  });

  it('GIVEN a checked store WHEN a record read from it is changed outside an update THEN it throws and nothing changed', async () => {
    const store = await Store.open(dir, { checked: true });
    recordsOf(store).add(newAvatarRecord('steve', 'p1', 'embedded', 'scripted', false, new Date()));
    const read = store.state.data.avatars[0] as Avatar;
    expect(() => {
      read.owner = 'mallory';
    }).toThrow(TypeError);
    expect(() => (read.parked as unknown[]).push({})).toThrow(TypeError);
    expect(store.state.data.avatars[0]?.owner).toBe('p1');
    await store.flush();
  });

  it('GIVEN a checked store WHEN an update changes an object captured before it instead of its draft THEN it throws, and the data and its version are as they were', async () => {
    const store = await Store.open(dir, { checked: true });
    recordsOf(store).add(newAvatarRecord('steve', 'p1', 'embedded', 'scripted', false, new Date()));
    const captured = store.state.data.avatars[0] as Avatar;
    const version = store.state.version;
    expect(() =>
      filesOf(store).state.update(() => {
        captured.engine = 'llm';
      }),
    ).toThrow(TypeError);
    expect(store.state.data.avatars[0]?.engine).toBe('scripted');
    expect(store.state.version).toBe(version);
    // Through the owner, on its draft, the same change is made and written.
    recordsOf(store).setEngine('steve', 'llm');
    await store.flush();
    expect(JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')).avatars[0].engine).toBe('llm');
  });

  it('GIVEN a checked store WHEN keyed records named after Object members are updated THEN they stay keys like any other', async () => {
    const store = await Store.open(dir, { checked: true });
    const names: string[] = ['__proto__', 'constructor'];
    filesOf(store).schedules.update((f) => {
      for (const [i, n] of names.entries()) f.played[n] = 3 + i;
    });
    filesOf(store).schedules.update((f) => {
      f.played['__proto__'] = (f.played['__proto__'] ?? 0) + 1;
    });
    expect(Object.entries(store.schedules.data.played)).toEqual([
      ['__proto__', 4],
      ['constructor', 4],
    ]);
    await store.flush();
  });

  it('GIVEN a record writer WHEN its owner reaches for another field of the file THEN it throws, and its own fields change', async () => {
    const store = await Store.open(dir, { checked: true });
    const links = linksWriter(store);
    expect(() => links.update((d) => (d as unknown as { avatars: unknown[] }).avatars.push({}))).toThrow('the writer of links in state cannot reach avatars');
    links.update((d) => d.links.push({ avatar: 'steve', dest: 'console', mode: 'control', createdAt: '' }));
    expect(store.state.data.links).toHaveLength(1);
    expect(store.state.data.avatars).toHaveLength(0);
    await store.flush();
  });

  it('GIVEN an unchecked store THEN an update changes the data itself (no copy): what production runs', async () => {
    const store = await Store.open(dir, { checked: false });
    const before = store.state.data;
    filesOf(store).state.update((s) => s.shares.push({ guild: 'g', role: 'r', server: 's' }));
    expect(store.state.data).toBe(before);
    expect(Object.isFrozen(store.state.data)).toBe(false);
    await store.flush();
  });
});
