/**
 * The owner of the places avatars remember, on real files: set, moved, removed, capped, kept per avatar and per
 * server (the same avatar on another server sees none of them), kept across a restart, following a rename, and
 * forgotten with their avatar or server.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Places } from '../../src/avatars/places.ts';
import { UserError } from '../../src/errors.ts';
import { MAX_PLACES } from '../../src/goals/places.ts';
import { filesOf } from '../../src/store/files.ts';
import { newAvatarRecord, Store } from '../../src/store/store.ts';
import { recordsOf } from './records-helpers.ts';

const at = (x: number, y: number, z: number, dimension = 'overworld') => ({ x, y, z, dimension });

/** The UserError `act` throws: its code and words. */
function refusal(act: () => unknown): { code: string; message: string } {
  try {
    act();
  } catch (err) {
    if (err instanceof UserError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('nothing was refused');
}

describe('the places avatars remember', () => {
  let dir = '';
  let store: Store;

  /** The store on `dir`, with the two servers, and the owners over it. */
  async function open(): Promise<{ places: Places; records: ReturnType<typeof recordsOf> }> {
    store = await Store.open(dir, { checked: true });
    const records = recordsOf(store);
    return { places: new Places(store, records, () => new Date('2026-12-01T10:00:00Z')), records };
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-places-'));
    const { records } = await open();
    // The servers are a fixture here: their owner pings a server before it stores one.
    filesOf(store).state.update((s) => {
      s.servers.push({ id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' }, { id: 'survival', host: 'play.example.net', port: 25565, version: '1.21.4', auth: 'offline' });
    });
    records.add(newAvatarRecord('steve', 'p1', 'embedded', 'scripted', false, new Date()));
    records.add(newAvatarRecord('alex', 'p1', 'embedded', 'scripted', false, new Date()));
  });

  afterEach(async () => {
    await store.flush();
    store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a place set THEN it is kept at the block the avatar stood in, found in any case, and setting it again moves it', () => {
    const places = new Places(store, recordsOf(store), () => new Date('2026-12-01T10:00:00Z'));
    const first = places.set('Steve', 'Base', at(10.7, 63.9999, -2.2), 'p1');
    expect(first.was).toBeUndefined();
    expect(first.place).toEqual({ avatar: 'steve', server: 'embedded', name: 'base', x: 10, y: 64, z: -3, dimension: 'overworld', setAt: '2026-12-01T10:00:00.000Z', by: 'p1' });
    expect(places.known('steve').get('BASE')).toEqual({ name: 'base', x: 10, y: 64, z: -3, dimension: 'overworld' });
    const again = places.set('steve', 'base', at(0, 70, 0), null);
    expect(again.was).toMatchObject({ x: 10, y: 64, z: -3 });
    expect(places.of('steve')).toEqual([expect.objectContaining({ name: 'base', x: 0, y: 70, z: 0, by: null })]);
    expect(places.of('alex')).toEqual([]);
  });

  it('GIVEN bad names THEN each is refused with why, and nothing is stored', () => {
    const places = new Places(store, recordsOf(store), () => new Date());
    for (const [name, says] of [
      ['my base', 'A place name is one word: lowercase letters, digits and dashes (my-base, not "my base").'],
      ['base!', 'A place name is lowercase letters, digits and dashes, e.g. base or iron-mine.'],
      ['12', 'A place name needs a letter (a number alone reads as a coordinate).'],
    ] as const) {
      expect(refusal(() => places.set('steve', name, at(0, 64, 0), 'p1'))).toEqual({ code: 'bad_place_name', message: says });
    }
    expect(store.state.data.places).toEqual([]);
  });

  it(`GIVEN ${MAX_PLACES} places THEN one more is refused, while moving one of them still works`, () => {
    const places = new Places(store, recordsOf(store), () => new Date());
    for (let i = 1; i <= MAX_PLACES; i++) places.set('steve', `spot-${i}`, at(i, 64, 0), 'p1');
    expect(() => places.set('steve', 'one-more', at(0, 64, 0), 'p1')).toThrow(/steve remembers 30 places on embedded already, the most it keeps: \/place remove <name> forgets one\./);
    expect(places.set('steve', 'spot-3', at(99, 64, 0), 'p1').was).toMatchObject({ x: 3 });
    expect(places.bookOf('steve').remember('one-more', at(0, 64, 0))).toEqual({ ok: false, why: expect.stringMatching(/^steve remembers 30 places/) });
    expect(places.of('steve')).toHaveLength(MAX_PLACES);
  });

  it('GIVEN places of steve on embedded WHEN steve moves to another server THEN it sees none there, keeps its own there, and sees the first ones again back home', async () => {
    const { places, records } = await reopened();
    places.set('steve', 'base', at(10, 64, -3), 'p1');
    records.setServer('steve', 'survival');
    expect(places.of('steve')).toEqual([]);
    expect(places.known('steve').get('base')).toBeUndefined();
    places.set('steve', 'base', at(-500, 80, 12), 'p1');
    expect(places.known('steve').get('base')).toMatchObject({ x: -500 });
    records.setServer('steve', 'embedded');
    expect(places.known('steve').get('base')).toMatchObject({ x: 10, y: 64, z: -3 });
    expect(places.known('steve').names()).toEqual(['base']);
  });

  it('GIVEN places set WHEN the store is closed and opened again THEN they are there, as written to state.json', async () => {
    const { places } = await reopened();
    places.set('steve', 'base', at(10, 64, -3), 'p1');
    places.bookOf('steve').remember('crafting-table', at(12, 64, -1));
    await store.flush();
    const onDisk = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { places: { name: string }[] };
    expect(onDisk.places.map((p) => p.name)).toEqual(['base', 'crafting-table']);
    await store.flush();
    store.close();
    const again = await open();
    expect(again.places.known('steve').names()).toEqual(['base', 'crafting-table']);
    expect(again.places.of('steve')[1]).toMatchObject({ by: null, x: 12, z: -1 });
  });

  it('GIVEN a place removed THEN it is gone, and one it does not know is refused naming those it does', async () => {
    const { places } = await reopened();
    places.set('steve', 'base', at(10, 64, -3), 'p1');
    places.set('steve', 'village', at(200, 70, 40), 'p1');
    expect(places.remove('steve', 'BASE')).toMatchObject({ name: 'base' });
    expect(refusal(() => places.remove('steve', 'bse'))).toEqual({ code: 'unknown_place', message: "I know no place called 'bse'; my places: village." });
    expect(places.known('steve').names()).toEqual(['village']);
  });

  it('GIVEN an avatar renamed, removed, and a server removed THEN its places follow it, go with it, and go with the server', async () => {
    const { places, records } = await reopened();
    places.set('steve', 'base', at(10, 64, -3), 'p1');
    places.set('alex', 'base', at(1, 64, 1), 'p1');
    records.setServer('alex', 'survival');
    places.set('alex', 'camp', at(5, 64, 5), 'p1');
    records.rename('steve', 'stevie');
    places.renameAvatar('steve', 'stevie');
    expect(places.known('stevie').get('base')).toMatchObject({ x: 10 });
    expect(places.serverRemoved('survival')).toBe(1);
    records.setServer('alex', 'embedded');
    expect(places.known('alex').names()).toEqual(['base']);
    expect(places.removeAllFor('STEVIE')).toBe(1);
    expect(store.state.data.places.map((p) => `${p.avatar}/${p.server}/${p.name}`)).toEqual(['alex/embedded/base']);
  });

  /** The owners over the store opened in `beforeEach`. */
  async function reopened(): Promise<{ places: Places; records: ReturnType<typeof recordsOf> }> {
    const records = recordsOf(store);
    return { places: new Places(store, records, () => new Date()), records };
  }
});
