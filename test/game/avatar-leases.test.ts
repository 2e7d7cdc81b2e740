/**
 * Avatars held by leases (docs/many-machines.md), against a real nats-server
 * and a real PostgreSQL: the core's pool over NATS with its leases in the
 * database, and two hosts with the real host runtime (their games are test
 * games; the processes and the world are in
 * test/e2e/avatar-leases.e2e.test.ts). Host `a` reaches NATS and PostgreSQL
 * through proxies the tests cut; no host is taken as gone by silence here
 * (the bound is long), so what moves an avatar is its lease.
 */
import { once } from 'node:events';
import type { NatsConnection } from 'nats';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import { Leases } from '../../src/db/leases.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { AvatarGame, Death, GameServer } from '../../src/game/game.ts';
import { AvatarLeases, LEASE_LOST } from '../../src/game/hosts/avatar-leases.ts';
import { runHost } from '../../src/game/hosts/host-runtime.ts';
import type { HostedGame } from '../../src/game/hosts/hosted-game.ts';
import { codec, connectNats } from '../../src/game/hosts/nats/connect.ts';
import { NatsHost } from '../../src/game/hosts/nats/nats-host.ts';
import { NatsHosts } from '../../src/game/hosts/nats/nats-hosts.ts';
import { subjects } from '../../src/game/hosts/nats/subjects.ts';
import { HostPool } from '../../src/game/hosts/pool.ts';
import type { FromHost, HostBeat, HostToCore, ToHost } from '../../src/game/hosts/protocol.ts';
import type { SkillRegistry, SkillResult } from '../../src/game/skill.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeGame, snapshotOf } from '../fakes/fake-game.ts';
import { NATS_SERVER, startNats, type TestNats } from '../nats-server.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';
import { startProxy, type TestProxy } from '../tcp-proxy.ts';
import { waitFor } from './helpers.ts';

const log = silentLogger();
const TOKEN = 'leases-test-token';
const SERVER: GameServer = { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' };
const BEAT_MS = 200;
/** The lease time: renewed every 1.7 s, let go by a host 4.2 s after its last renewal (a test process that stands still for longer loses its leases). */
const LEASE_MS = 5000;
/** Long: no host is taken as gone by silence in these tests. */
const SILENCE_MS = 120_000;

/** Skills that say which host ran them, and one that runs until it is aborted (its runs are counted). */
function skillsOn(host: string, running: Set<string>) {
  return (game: AvatarGame): SkillRegistry => ({
    list: () => [],
    get: () => undefined,
    run: (id, _params, signal): Promise<SkillResult> => {
      if (id === 'where') return Promise.resolve({ ok: true, code: 'done', detail: host });
      running.add(game.username);
      return new Promise((resolve) => {
        const stop = (): void => {
          running.delete(game.username);
          resolve({ ok: false, code: 'aborted', detail: `stopped on ${host}` });
        };
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      });
    },
  });
}

interface TestHost {
  id: string;
  nc: NatsConnection;
  db: Database;
  host: NatsHost;
  /** The games it built, by avatar. */
  games: Map<string, FakeGame>;
  /** The avatars running the skill that hangs there. */
  running: Set<string>;
}

interface Cluster {
  S: ReturnType<typeof subjects>;
  coreNc: NatsConnection;
  source: NatsHosts;
  pool: HostPool;
  hosts: Map<string, TestHost>;
  /** The core's log records. */
  records: Array<Record<string, unknown>>;
  game(name: string): HostedGame;
  startHost(id: string, via?: { nats?: number; pg?: number }): Promise<TestHost>;
}

let nats: TestNats;
let pg: TestPostgres;
let db: Database;
let leases: Leases;
const closing: Array<() => Promise<void>> = [];

/** A core (pool over NATS, leases in the database) on its own NATS cluster; hosts join with `startHost`. */
async function cluster(name: string, first: { id: string; via?: { nats?: number; pg?: number } }): Promise<Cluster> {
  const S = subjects(name);
  const hosts = new Map<string, TestHost>();
  const urlVia = (port: number | undefined, url: string, own: number): string => (port ? url.replace(`:${own}`, `:${port}`) : url);
  const startHost = async (id: string, via: { nats?: number; pg?: number } = {}): Promise<TestHost> => {
    const nc = await connectNats({ servers: [urlVia(via.nats, nats.url, nats.port)], token: TOKEN, name: `host ${id}` }, log);
    const hostDb = openDatabase(urlVia(via.pg, pg.url, pg.port), log, { max: 2, queryTimeoutMs: 1000 });
    const games = new Map<string, FakeGame>();
    const running = new Set<string>();
    const host = new NatsHost({
      nc,
      cluster: name,
      id,
      capacity: 10,
      log,
      beatEveryMs: BEAT_MS,
      leases: new Leases(hostDb),
      runtime: async (_world, send) =>
        runHost({
          games: {
            create: (avatar) => {
              const game = new FakeGame(avatar.name);
              games.set(avatar.name, game);
              return game;
            },
            close: async () => undefined,
          },
          skills: skillsOn(id, running),
          log,
          send,
          snapshotEveryMs: BEAT_MS,
          aliveEveryMs: BEAT_MS,
        }),
    });
    await host.start();
    const h = { id, nc, db: hostDb, host, games, running };
    hosts.set(id, h);
    return h;
  };
  await startHost(first.id, first.via);
  const coreNc = await connectNats({ servers: [nats.url], token: TOKEN, name: 'core' }, log);
  const records: Array<Record<string, unknown>> = [];
  const coreLog = pino({ level: 'debug' }, { write: (line: string) => records.push(JSON.parse(line) as Record<string, unknown>) });
  const coreDb = openDatabase(pg.url, log, { queryTimeoutMs: 2000 });
  const source = new NatsHosts({ nc: coreNc, cluster: name, world: null, silenceMs: SILENCE_MS, log: coreLog, beatEveryMs: BEAT_MS, settleMs: 500, leaseMs: LEASE_MS });
  const pool = await HostPool.over(source, coreLog, { leases: new AvatarLeases(new Leases(coreDb), { leaseMs: LEASE_MS, log: coreLog, checkEveryMs: 100, close: () => coreDb.end() }) });
  const games: HostedGame[] = [];
  closing.push(async () => {
    await Promise.all(games.map((g) => g.stop()));
    await pool.close();
    await coreNc.close();
    for (const h of hosts.values()) {
      await h.host.leave();
      await h.nc.close();
      await h.db.end();
    }
  });
  return {
    S,
    coreNc,
    source,
    pool,
    hosts,
    records,
    startHost,
    game: (avatar) => {
      const g = pool.game(avatar, SERVER, { crafting: false, hunger: false, mobs: false });
      games.push(g);
      return g;
    },
  };
}

async function connected(g: HostedGame): Promise<void> {
  if (g.state !== 'connected') await once(g, 'connected');
}

/** The lease of an avatar as the database has it. */
async function leaseOf(avatar: string): Promise<{ holder: string; epoch: number; live: boolean } | undefined> {
  return (await leases.list(`avatar:${avatar}`)).find((l) => l.name === `avatar:${avatar}`);
}

/** The next beat of host `id` (as the core hears it) that holds for `test`. */
async function nextBeat(c: Cluster, id: string, test: (b: HostBeat) => boolean = () => true): Promise<HostBeat> {
  const sub = c.coreNc.subscribe(c.S.hostBeat(id));
  try {
    for await (const m of sub) {
      const b = codec.decode(m.data) as HostBeat;
      if (test(b)) return b;
    }
  } finally {
    sub.unsubscribe();
  }
  throw new Error(`no beat of ${id}`);
}

/** What host `from` says, as its session would say it (on its `out` subject, unnumbered). */
function sayAs(c: Cluster, from: TestHost, m: HostToCore): void {
  c.coreNc.publish(c.S.out(from.id), codec.encode({ from: from.host.session, m } as FromHost));
}

describe.skipIf(!NATS_SERVER || !PG_BIN)('avatars held by leases (real NATS, real PostgreSQL)', () => {
  beforeAll(async () => {
    [nats, pg] = await Promise.all([startNats({ token: TOKEN }), startPostgres()]);
    db = openDatabase(pg.url, log);
    await migrate(db);
    leases = new Leases(db);
  }, 120_000);

  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });

  afterAll(async () => {
    await db?.end();
    await Promise.all([nats?.close(), pg?.close()]);
  });

  it('GIVEN ann on host a and bob on host b, held by leases WHEN a is cut off from NATS until its leases lapse THEN b takes ann at a higher epoch and a leaves her game; what a says late under the old epoch (state, snapshot, event, skill result) changes nothing on the core, nor once she is back on a under a newer epoch', async () => {
    const proxy = await startProxy(nats.port);
    closing.push(() => proxy.close());
    const c = await cluster('fence', { id: 'a', via: { nats: proxy.port } });
    const a = c.hosts.get('a')!;
    const ann = c.game('ann');
    await ann.start();
    await connected(ann);
    const b = await c.startHost('b');
    await waitFor(() => c.pool.pids().length === 2, 10_000, 'host b to join');
    const bob = c.game('bob');
    await bob.start();
    await connected(bob);
    expect([c.pool.slotOf(ann), c.pool.slotOf(bob)]).toEqual(['a', 'b']);
    // Each lease names the host session that holds it.
    const first = (await leaseOf('ann'))!;
    expect([first.holder, (await leaseOf('bob'))?.holder, first.live]).toEqual([`a/${a.host.session}`, `b/${b.host.session}`, true]);

    // Mid-skill on a, a loses NATS: it renews no more, and the core moves ann once her lease lapsed.
    const hanging = ann.runSkill('hang', {}, new AbortController().signal);
    await waitFor(() => a.running.has('ann'), 10_000, 'the skill to run on a');
    const lost = once(ann, 'disconnected');
    proxy.cut('reset');
    expect(await lost).toEqual([LEASE_LOST]);
    expect(await hanging).toMatchObject({ ok: false, code: 'aborted' });
    await connected(ann);
    expect(c.pool.slotOf(ann)).toBe('b');
    expect(await leaseOf('ann')).toMatchObject({ holder: `b/${b.host.session}`, epoch: first.epoch + 1, live: true });
    expect(c.records.some((r) => r.msg === 'the lease of an avatar lapsed on its avatar host (or was taken); it moves to another host' && r.avatar === 'ann')).toBe(true);
    // a let her go on its own when her lease ran out (it heard the core no more), skill and all.
    await waitFor(() => a.games.get('ann')?.state === 'idle' && !a.running.has('ann'), 10_000, 'a to leave ann');

    // a comes back under the same session (the core still holds it: the silence bound is long).
    proxy.mend();
    expect((await nextBeat(c, 'a', (beat) => beat.session === a.host.session)).avatars).toEqual([]);
    // What it says late about ann under the old epoch: her state, a snapshot, an event, the answer to a call on b.
    const died: Death[] = [];
    ann.on('died', (d) => died.push(d));
    const calls = c.coreNc.subscribe(c.S.call('b'));
    const ctrl = new AbortController();
    let settled = false;
    const second = ann.runSkill('hang', {}, ctrl.signal).finally(() => (settled = true));
    let call = 0;
    for await (const m of calls) {
      const t = codec.decode(m.data) as ToHost;
      if (t.m.type === 'skill' && t.m.avatar === 'ann') {
        call = t.m.call;
        break;
      }
    }
    calls.unsubscribe();
    const old = first.epoch;
    sayAs(c, a, { type: 'state', avatar: 'ann', placement: old, state: 'ended', downReason: null, endReason: 'late news' });
    sayAs(c, a, { type: 'snapshot', avatar: 'ann', placement: old, snapshot: snapshotOf({ inventory: { dirt: 64 } }) });
    sayAs(c, a, { type: 'event', avatar: 'ann', placement: old, event: 'died', args: [{ cause: 'late', position: { x: 0, y: 64, z: 0 } }] });
    sayAs(c, a, { type: 'skillResult', call, placement: old, result: { ok: true, code: 'done', detail: 'late' } });
    // A call made after them is answered after them: the core has read them by then.
    expect(await ann.runSkill('where', {}, new AbortController().signal)).toMatchObject({ ok: true, detail: 'b' });
    // b's own snapshot of ann may not have come yet; a's late one (64 dirt) must not show either way.
    expect([ann.state, ann.endReason, ann.snapshot()?.inventory ?? {}, died, settled]).toEqual(['connected', undefined, {}, [], false]);
    ctrl.abort(new Error('owner stop'));
    expect(await second).toEqual({ ok: false, code: 'aborted', detail: 'stopped on b' });
    const drops = c.records.filter((r) => typeof r.msg === 'string' && r.msg.startsWith('dropped a late message') && r.avatarHost === 'a' && r.avatar === 'ann' && r.placement === old);
    expect(Math.max(...drops.map((r) => Number(r.dropped)))).toBeGreaterThanOrEqual(4);

    // b stops on purpose: ann moves back to a at once, at a newer epoch still; a's old epoch is still not heard.
    await b.host.leave();
    await waitFor(() => c.pool.slotOf(ann) === 'a' && ann.state === 'connected', 10_000, 'ann to play on a again');
    const back = (await leaseOf('ann'))!;
    expect(back).toMatchObject({ holder: `a/${a.host.session}`, epoch: first.epoch + 2, live: true });
    sayAs(c, a, { type: 'state', avatar: 'ann', placement: old, state: 'ended', downReason: null, endReason: 'late news' });
    expect(await ann.runSkill('where', {}, new AbortController().signal)).toMatchObject({ ok: true, detail: 'a' });
    expect([ann.state, ann.endReason]).toEqual(['connected', undefined]);
    // Under her epoch now, the same words count.
    sayAs(c, a, { type: 'state', avatar: 'ann', placement: back.epoch, state: 'ended', downReason: null, endReason: 'news' });
    await ann.runSkill('where', {}, new AbortController().signal);
    expect([ann.state, ann.endReason]).toEqual(['ended', 'news']);
  }, 120_000);

  it('GIVEN ann on host a and bob on host b WHEN a can no longer reach PostgreSQL THEN a says so, leaves ann before her lease lapses, and b takes her at a higher epoch; once the database answers a again, a takes new avatars', async () => {
    const proxy = await startProxy(pg.port);
    closing.push(() => proxy.close());
    const c = await cluster('nodb', { id: 'a', via: { pg: proxy.port } });
    const a = c.hosts.get('a')!;
    const ann = c.game('ann');
    await ann.start();
    await connected(ann);
    const b = await c.startHost('b');
    await waitFor(() => c.pool.pids().length === 2, 10_000, 'host b to join');
    const bob = c.game('bob');
    await bob.start();
    await connected(bob);
    expect([c.pool.slotOf(ann), c.pool.slotOf(bob)]).toEqual(['a', 'b']);
    const first = (await leaseOf('ann'))!;

    // The database stops answering a (its packets dropped): a's beat says so, and a leaves ann on its own.
    const lost = once(ann, 'disconnected');
    proxy.cut('silent');
    expect((await nextBeat(c, 'a', (beat) => beat.leases === 'failing')).session).toBe(a.host.session);
    expect(await lost).toEqual([LEASE_LOST]);
    await connected(ann);
    expect(c.pool.slotOf(ann)).toBe('b');
    expect(await leaseOf('ann')).toMatchObject({ holder: `b/${b.host.session}`, epoch: first.epoch + 1, live: true });
    expect(a.games.get('ann')?.state).toBe('idle');
    const left = c.records.find((r) => r.msg === 'an avatar host left the game of an avatar (its lease lost); it moves to another host');
    expect(left).toMatchObject({ avatar: 'ann', avatarHost: 'a', epoch: first.epoch });

    // While a cannot hold leases, a new avatar goes to b; once the database answers a again, the next one to a.
    const cid = c.game('cid');
    await cid.start();
    await connected(cid);
    expect(c.pool.slotOf(cid)).toBe('b');
    proxy.mend();
    await nextBeat(c, 'a', (beat) => beat.leases === 'ok');
    const dot = c.game('dot');
    await dot.start();
    await connected(dot);
    expect(c.pool.slotOf(dot)).toBe('a');
    expect((await leaseOf('dot'))?.holder).toBe(`a/${a.host.session}`);
  }, 120_000);

  it('GIVEN a host with no database beside one with a database THEN the core places every avatar on the one that can hold its lease', async () => {
    const c = await cluster('mixed', { id: 'a' });
    const nc = await connectNats({ servers: [nats.url], token: TOKEN, name: 'host plain' }, log);
    const plain = new NatsHost({
      nc,
      cluster: 'mixed',
      id: 'plain',
      capacity: 10,
      log,
      beatEveryMs: BEAT_MS,
      runtime: async (_world, send) => runHost({ games: { create: (avatar) => new FakeGame(avatar.name), close: async () => undefined }, skills: skillsOn('plain', new Set()), log, send, aliveEveryMs: BEAT_MS }),
    });
    await plain.start();
    closing.push(async () => {
      await plain.leave();
      await nc.close();
    });
    await waitFor(() => c.pool.pids().length === 2, 10_000, 'the host without a database to join');
    expect(c.records.some((r) => r.avatarHost === 'plain' && typeof r.msg === 'string' && r.msg.startsWith('an avatar host with no database joined'))).toBe(true);
    const all = ['eve', 'fay', 'gus'].map((n) => c.game(n));
    for (const g of all) await g.start();
    await Promise.all(all.map(connected));
    expect(all.map((g) => c.pool.slotOf(g))).toEqual(['a', 'a', 'a']);
  }, 60_000);
});
