import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StoreCorruptError } from '../../src/errors.ts';
import type { Adapter } from 'lowdb';
import { SafeJSONFile } from '../../src/store/safe-json-file.ts';
import { Store } from '../../src/store/store.ts';
import { filesOf } from '../../src/store/files.ts';
import { BACKENDS } from './backends.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const storeModule = pathToFileURL(join(repoRoot, 'src/store/store.ts')).href;
const filesModule = pathToFileURL(join(repoRoot, 'src/store/files.ts')).href;
const connectModule = pathToFileURL(join(repoRoot, 'src/db/connect.ts')).href;

/**
 * A writer in a tight loop: each round it adds a person and a post, drops old
 * ones so the files stay a few hundred KB (a write takes a while), flushes, and
 * says `wrote N` once round N is on disk — then starts the next round at once.
 */
const WRITER = `
import { openDatabase } from ${JSON.stringify(connectModule)};
import { Store } from ${JSON.stringify(storeModule)};
import { filesOf } from ${JSON.stringify(filesModule)};
const url = process.argv[3];
const store = await Store.open(process.argv[2], url ? { database: openDatabase(url, { warn: () => undefined }) } : {});
let n = 0;
// Resume after the last round any of whose ids is on disk (a kill can land after some of a round's
// persons were saved but before its marker): a round is never written twice.
for (const p of store.state.data.persons) {
  const m = /^n(\\d+)(?:_\\d+)?$/.exec(p.id);
  if (m) n = Math.max(n, Number(m[1]));
}
for (;;) {
  n += 1;
  const round = n;
  for (let i = 0; i < 10; i++) {
    filesOf(store).state.update((s) => {
      s.persons.push({ id: 'n' + round + '_' + i, name: 'x'.repeat(200), identities: ['console:local'], admin: false });
      if (s.persons.length > 1000) s.persons.splice(0, s.persons.length - 1000);
    });
    await new Promise((r) => setImmediate(r));
  }
  filesOf(store).state.update((s) => { s.persons.push({ id: 'n' + round, name: 'round', identities: [], admin: false }); });
  filesOf(store).outbox.update((o) => {
    o.seq += 1;
    o.pending.push({ id: 'p' + o.seq, dest: 'console', avatar: null, text: 'y'.repeat(500), ping: null, replyTo: null, kind: 'info', createdAt: new Date().toISOString(), attempts: 0, notBefore: 0 });
    if (o.pending.length > 300) o.pending.splice(0, o.pending.length - 300);
  });
  await store.flush();
  process.stdout.write('wrote ' + round + '\\n');
}
`;

/** Resolve with the child's Nth `wrote …` line (counting from its start). */
function nthWrote(child: ChildProcess, n: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const lines = createInterface({ input: child.stdout! });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    lines.on('line', (line) => {
      const m = /^wrote (\d+)$/.exec(line);
      if (!m) return;
      seen += 1;
      if (seen === n) {
        lines.close();
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`writer exited early (${code ?? signal}): ${stderr}`)));
  });
}

describe.each(BACKENDS)('Store ($name)', (backend) => {
  let dir: string;

  beforeAll(async () => {
    if (backend.available) await backend.start();
  }, 120_000);
  afterAll(() => backend.stop());

  beforeEach(async ({ skip }) => {
    if (!backend.available) skip('PostgreSQL is not installed');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-store-'));
    await backend.fresh();
  });

  afterEach(async () => {
    await backend.done();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a child process writing updates in a tight loop WHEN it is killed with SIGKILL at moments spread over its rounds THEN the store opens, validates, and holds every round it reported', async () => {
    const script = join(dir, 'writer.mts');
    await writeFile(script, WRITER);
    const data = join(dir, 'data');
    // Kill points spread over the rounds, the same on every run.
    const killAfter = [3, 17, 1, 24, 9];
    for (let run = 0; run < 5; run++) {
      const child = spawn(process.execPath, ['--import', 'tsx', script, data, ...(backend.url ? [backend.url] : [])], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      let lastReported: number;
      try {
        // After that many rounds, while the next round's writes are in flight.
        lastReported = await nthWrote(child, killAfter[run] ?? 1);
      } finally {
        child.kill('SIGKILL');
        await exited;
      }

      const store = await backend.open(data);
      const ids = new Set(store.state.data.persons.map((p) => p.id));
      expect(ids.has(`n${lastReported}`)).toBe(true);
      expect(store.outbox.data.pending.length).toBeGreaterThan(0);
      await store.flush();
      store.close();
    }
  }, 120_000);

  it('GIVEN an empty dir THEN Store.open creates every file with its defaults', async () => {
    const store = await backend.open(join(dir, 'nested', 'data'));
    await store.flush();
    const state = await backend.stored(join(dir, 'nested', 'data'), 'state');
    expect(state).toEqual({ version: 1, avatars: [], persons: [], links: [], servers: [], shares: [], streams: [], readMarks: {}, mcpTokens: [], relays: [], sayCommands: [], places: [], handled: [] });
    const outbox = await backend.stored(join(dir, 'nested', 'data'), 'outbox');
    expect(outbox).toEqual({ version: 1, seq: 0, pending: [], answered: [] });
  });

  it('GIVEN 1000 updates in one tick THEN at most 2 writes reach the disk and the last value is there', async () => {
    const store = await backend.open(dir);
    const before = store.state.writes;
    for (let i = 0; i < 1000; i++) {
      filesOf(store).state.update((s) => {
        s.shares = [{ guild: String(i), role: 'r', server: 's' }];
      });
    }
    await store.flush();
    expect(store.state.writes - before).toBeGreaterThanOrEqual(1);
    expect(store.state.writes).toBeLessThanOrEqual(2);
    const onDisk = (await backend.stored(dir, 'state')) as { shares: { guild: string }[] };
    expect(onDisk.shares).toEqual([{ guild: '999', role: 'r', server: 's' }]);
  });

  it('GIVEN updates in 20 ticks while writes are in flight THEN they collapse into fewer disk writes, each counted once, and the last state is on disk', async () => {
    const store = await backend.open(dir);
    const before = store.state.writes;
    for (let i = 0; i < 20; i++) {
      filesOf(store).state.update((s) => {
        s.shares.push({ guild: String(i), role: 'r', server: 's' });
      });
      await new Promise((r) => setImmediate(r));
    }
    await store.flush();
    const written = store.state.writes - before;
    expect(written).toBeGreaterThanOrEqual(2);
    expect(written).toBeLessThan(20);
    const onDisk = (await backend.stored(dir, 'state')) as { shares: { guild: string }[] };
    expect(onDisk.shares).toHaveLength(20);
  });

  it('GIVEN an update made while a write is in flight THEN flush resolves only after that update is on disk', async () => {
    const store = await backend.open(dir);
    filesOf(store).state.update((s) => {
      s.shares.push({ guild: 'first', role: 'r', server: 's' });
    });
    await new Promise((r) => setImmediate(r)); // the first write has started
    filesOf(store).state.update((s) => {
      s.shares.push({ guild: 'second', role: 'r', server: 's' });
    });
    await store.flush();
    const onDisk = (await backend.stored(dir, 'state')) as { shares: { guild: string }[] };
    expect(onDisk.shares.map((s) => s.guild)).toEqual(['first', 'second']);
    const reopened = await backend.open(dir);
    expect(reopened.state.data.shares).toHaveLength(2);
  });

});

describe('Store (files)', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-store-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a state.json that is not JSON THEN Store.open rejects with StoreCorruptError naming the file AND the file is unchanged', async () => {
    const file = join(dir, 'state.json');
    const bytes = Buffer.from('{"version":1,"avatars":[ \u00e9 not json');
    await writeFile(file, bytes);
    const err = await Store.open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as StoreCorruptError).file).toBe(file);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain('not valid JSON');
    expect(await readFile(file)).toEqual(bytes);
  });

  it('GIVEN a state.json that does not match the schema THEN Store.open rejects with StoreCorruptError naming the file and the bad field AND the file is unchanged', async () => {
    const file = join(dir, 'state.json');
    const bytes = Buffer.from(JSON.stringify({ version: 1, avatars: 'steve', persons: [], links: [], servers: [], shares: [] }));
    await writeFile(file, bytes);
    const err = await Store.open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as StoreCorruptError).file).toBe(file);
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain('avatars');
    expect(await readFile(file)).toEqual(bytes);
  });

  it('GIVEN a corrupt outbox.json THEN Store.open rejects naming that file and leaves it unchanged', async () => {
    await (await Store.open(dir)).flush();
    const file = join(dir, 'outbox.json');
    const bytes = Buffer.from('{"version":1,"seq":-3,"pending":[]}');
    await writeFile(file, bytes);
    const err = await Store.open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreCorruptError);
    expect((err as StoreCorruptError).file).toBe(file);
    expect(await readFile(file)).toEqual(bytes);
  });

  it('GIVEN updates coming during every write (many avatars at work) WHEN a change is confirmed THEN saved() resolves once a write carried it, while the writer still goes on', async () => {
    // Each write is held until the test lets it go; every write lets the next update in.
    const held: Array<() => void> = [];
    let holding = false;
    const adapter = (path: string): Adapter<unknown> => {
      const real = new SafeJSONFile<unknown>(path);
      return {
        read: () => real.read(),
        write: async (data) => {
          if (holding) await new Promise<void>((release) => held.push(release));
          await real.write(data);
        },
      };
    };
    const store = await Store.open(dir, { adapter });
    holding = true;
    const share = (guild: string) => ({ guild, role: 'r', server: 's' });
    const nextWrite = async (): Promise<() => void> => {
      while (held.length === 0) await new Promise((r) => setImmediate(r));
      return held.shift()!;
    };
    filesOf(store).state.update((s) => s.shares.push(share('busy-0')));
    const first = await nextWrite(); // busy-0 is being written
    const mark = store.mark();
    filesOf(store).state.update((s) => s.shares.push(share('mine')));
    let confirmed = false;
    const saved = store.saved(mark).then(() => {
      confirmed = true;
    });
    first();
    const second = await nextWrite(); // carries "mine"
    filesOf(store).state.update((s) => s.shares.push(share('busy-1'))); // another update while it is written
    second();
    const third = await nextWrite(); // busy-1: the writer goes on
    await saved;
    expect(confirmed).toBe(true);
    const onDisk = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    expect(onDisk.shares.map((s: { guild: string }) => s.guild)).toContain('mine');
    holding = false;
    third();
    await store.flush();
    store.close();
  });
});
