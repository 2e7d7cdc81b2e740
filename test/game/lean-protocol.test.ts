/**
 * minecraft-protocol made lean (src/game/lean-protocol.cjs) and its codecs from the cache (codec-cache.cjs), each
 * case in a fresh node process (the module cache is a process's own): what it loads, and that the codecs and the
 * stand-ins are the library's own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const LEAN = path.resolve('src/game/lean-protocol.cjs');
const MINEFLAYER = createRequire(import.meta.url).resolve('mineflayer');

/**
 * Run `body` in a new node process after `lean` (true: made lean, with the codec cache in `cacheDir`) and give what
 * it printed as JSON. In `body`: `mp` (mineflayer's minecraft-protocol, loaded) and `loaded(name)` (whether a
 * file of package `name` was loaded).
 */
function inProcess(lean: boolean, cacheDir: string, body: string): Record<string, unknown> {
  const script = `
    const path = require('node:path');
    const mineflayer = ${JSON.stringify(MINEFLAYER)};
    if (${lean}) require(${JSON.stringify(LEAN)}).leanProtocol(mineflayer, { cacheDir: ${JSON.stringify(cacheDir)} });
    const mp = require(require.resolve('minecraft-protocol', { paths: [path.dirname(mineflayer)] }));
    require(mineflayer);
    const loaded = (name) => Object.keys(require.cache).some((f) => f.includes('/node_modules/' + name + '/'));
    const out = {};
    (async () => {
      ${body}
    })().then(() => process.stdout.write('\\n=' + JSON.stringify(out)));`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  const result = run.stdout.split('\n').find((l) => l.startsWith('='));
  if (run.status !== 0 || !result) throw new Error(`the process failed (${run.status}): ${run.stderr.slice(0, 2000)}`);
  return JSON.parse(result.slice(1)) as Record<string, unknown>;
}

/** Packets of the play state written and read back by both sides' codecs; hex of each written packet. */
const ROUND_TRIP = `
  const packets = [
    ['toClient', 'position', { x: 1.5, y: 64, z: -3.25, dx: 0, dy: 0, dz: 0, yaw: 90, pitch: 0, flags: { x: false, y: false, z: false, yaw: false, pitch: false, dx: false, dy: false, dz: false, yawDelta: false }, teleportId: 7 }],
    ['toClient', 'system_chat', { content: { type: 'compound', name: '', value: { text: { type: 'string', value: 'hello' } } }, isActionBar: false }],
    ['toClient', 'set_slot', { windowId: 0, stateId: 3, slot: 36, item: { itemCount: 2, itemId: 1, addedComponentCount: 0, removedComponentCount: 0, components: [], removeComponents: [] } }],
    ['toServer', 'chat_command', { command: 'time set 1000' }],
    ['toServer', 'block_dig', { status: 0, location: { x: 10, y: 64, z: -20 }, face: 1, sequence: 4 }],
  ];
  out.packets = packets.map(([direction, name, params]) => {
    const isServer = direction === 'toClient';
    const buffer = mp.createSerializer({ state: 'play', isServer, version: '1.21.4' }).createPacketBuffer({ name, params });
    const back = mp.createDeserializer({ state: 'play', isServer: !isServer, version: '1.21.4' }).parsePacketBuffer(buffer);
    return [name, buffer.toString('hex'), back.data.name, back.metadata.size === buffer.length];
  });`;

describe('minecraft-protocol made lean', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  it('GIVEN mineflayer loaded after it is made lean THEN neither the schema checker (ajv) nor Microsoft sign-in is loaded; WHEN a checked ProtoDef is asked for THEN the real checker comes', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-lean-'));
    const body = `
      out.before = { ajv: loaded('ajv'), auth: loaded('prismarine-auth'), msal: loaded('@azure/msal-node') };
      mp.createSerializer({ state: 'play', isServer: false, version: '1.21.4' });
      const { ProtoDef } = require(require.resolve('protodef', { paths: [require.resolve('minecraft-protocol', { paths: [path.dirname(mineflayer)] })] }));
      const checked = new ProtoDef(true);
      let refused = '';
      try { checked.addType('broken', ['container', 'not an array']); } catch (err) { refused = String(err.message).slice(0, 40); }
      out.after = { ajv: loaded('ajv'), refused };`;
    const lean = inProcess(true, dir, body);
    expect(lean.before).toEqual({ ajv: false, auth: false, msal: false });
    expect((lean.after as { ajv: boolean }).ajv).toBe(true);
    // The library as it is loads both at once, and checks the same way.
    const plain = inProcess(false, dir, body);
    expect(plain.before).toEqual({ ajv: true, auth: true, msal: true });
    expect((lean.after as { refused: string }).refused).toBe((plain.after as { refused: string }).refused);
    expect((plain.after as { refused: string }).refused).not.toBe('');
  }, 60_000);

  it('GIVEN the stand-ins THEN they have the exports of the modules they stand in for, and Microsoft sign-in is the real one once called', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-lean-'));
    const body = `
      const mpDir = path.dirname(require.resolve('minecraft-protocol/package.json', { paths: [path.dirname(mineflayer)] }));
      const protodef = require(require.resolve('protodef', { paths: [mpDir] }));
      out.protodef = Object.keys(protodef).sort();
      out.types = Object.keys(protodef.types).sort();
      const auth = require(path.join(mpDir, 'src/client/microsoftAuth.js'));
      out.auth = Object.keys(auth).sort();
      // Called without a client, the real one fails with its own error (it reads the client's options).
      await Promise.resolve().then(() => auth.authenticate(undefined, {})).catch((err) => (out.failed = String(err.message)));
      out.authLoaded = loaded('prismarine-auth');`;
    const lean = inProcess(true, dir, body);
    const plain = inProcess(false, dir, body);
    expect(lean.protodef).toEqual(plain.protodef);
    expect(lean.types).toEqual(plain.types);
    expect((lean.types as string[]).length).toBeGreaterThan(20);
    expect(lean.auth).toEqual(plain.auth);
    expect(lean.authLoaded).toBe(true);
    expect(lean.failed).toBe(plain.failed);
    expect(lean.failed).toMatch(/authflow/);
  }, 60_000);

  it('GIVEN an empty codec cache WHEN one process writes it and another reads it THEN both write and read packets byte for byte as the library does by itself', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-lean-'));
    const plain = inProcess(false, dir, ROUND_TRIP);
    expect(readdirSync(dir)).toEqual([]);
    const writer = inProcess(true, dir, ROUND_TRIP);
    expect(readdirSync(dir).sort()).toEqual(['1.21.4-play-toClient.json', '1.21.4-play-toServer.json']);
    const reader = inProcess(true, dir, ROUND_TRIP);
    expect(writer.packets).toEqual(plain.packets);
    expect(reader.packets).toEqual(plain.packets);
    for (const [name, , readName, whole] of plain.packets as [string, string, string, boolean][]) expect([readName, whole]).toEqual([name, true]);
  }, 60_000);

  /** The label of a cache file, or why it cannot be read. */
  const labelOf = (file: string): string => {
    try {
      const held = JSON.parse(readFileSync(file, 'utf8')) as { label: string; codes: string[] };
      return held.codes.length === 3 ? held.label : 'not 3 codes';
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('GIVEN a cache file cut short, one of other library versions and one that is not JSON THEN each is written again and the codecs are the library’s', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-lean-'));
    const plain = inProcess(false, dir, ROUND_TRIP);
    inProcess(true, dir, ROUND_TRIP);
    const toClient = path.join(dir, '1.21.4-play-toClient.json');
    const toServer = path.join(dir, '1.21.4-play-toServer.json');
    const whole = readFileSync(toClient, 'utf8');
    const label = labelOf(toClient);
    expect(label).toMatch(/ mc 1\.21\.4 play toClient$/);
    writeFileSync(toClient, whole.slice(0, whole.length / 2));
    const otherLibrary = labelOf(toServer).replace(/protodef \S+/, 'protodef 0.0.1');
    writeFileSync(toServer, JSON.stringify({ label: otherLibrary, codes: ['() => { return {} }', '() => { return {} }', '() => { return {} }'] }));
    const again = inProcess(true, dir, ROUND_TRIP);
    expect(again.packets).toEqual(plain.packets);
    expect(labelOf(toClient)).toBe(label);
    expect(labelOf(toServer)).toBe(otherLibrary.replace('protodef 0.0.1', label.match(/protodef \S+/)?.[0] ?? ''));
    writeFileSync(toClient, '\u0000not json');
    expect(inProcess(true, dir, ROUND_TRIP).packets).toEqual(plain.packets);
    expect(labelOf(toClient)).toBe(label);
    // Nothing left half-written beside them.
    expect(readdirSync(dir).sort()).toEqual(['1.21.4-play-toClient.json', '1.21.4-play-toServer.json']);
  }, 60_000);
  it('GIVEN a cache file THEN it holds this Node’s code caches of its codes; GIVEN caches of another Node THEN they are made again, and the packets are the library’s', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-lean-'));
    const plain = inProcess(false, dir, ROUND_TRIP);
    inProcess(true, dir, ROUND_TRIP);
    const toClient = path.join(dir, '1.21.4-play-toClient.json');
    const held = JSON.parse(readFileSync(toClient, 'utf8')) as { runtime: string; caches: (string | null)[] };
    expect(held.runtime).toBe(`${process.version} ${process.arch}`);
    expect(held.caches.map((c) => typeof c === 'string' && c.length > 100)).toEqual([true, true, true]);
    writeFileSync(toClient, JSON.stringify({ ...held, runtime: 'v0.0.0 other', caches: held.caches.map(() => Buffer.from('not a code cache').toString('base64')) }));
    expect(inProcess(true, dir, ROUND_TRIP).packets).toEqual(plain.packets);
    const again = JSON.parse(readFileSync(toClient, 'utf8')) as { runtime: string; caches: string[] };
    expect(again.runtime).toBe(held.runtime);
    expect(again.caches.map((c) => c.length > 100)).toEqual([true, true, true]);
  }, 60_000);

  it('GIVEN cached code that uses a name of protodef’s own module THEN protodef evaluates it (where that name is), and the packets are the library’s', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mindlink-lean-'));
    const plain = inProcess(false, dir, ROUND_TRIP);
    inProcess(true, dir, ROUND_TRIP);
    const toClient = path.join(dir, '1.21.4-play-toClient.json');
    const held = JSON.parse(readFileSync(toClient, 'utf8')) as { codes: string[]; caches: unknown[] };
    // Evaluated anywhere but in protodef's compile, this code throws.
    const needsProtodef = (code: string): string => code.replace('() => {', "() => {\n  if (typeof tryCatch !== 'function') throw new Error('not in protodef')");
    writeFileSync(toClient, JSON.stringify({ ...held, codes: held.codes.map(needsProtodef), caches: [] }));
    expect(inProcess(true, dir, ROUND_TRIP).packets).toEqual(plain.packets);
  }, 60_000);
});
