/**
 * The pool over NATS against a real nats-server, with the real host runtime on
 * each host (its games are test games: no Minecraft here, the processes and
 * the world are in test/e2e/nats-hosts.e2e.test.ts): discovery and spreading,
 * skills and aborts as requests, a silent host taken as gone and its avatars
 * moved, a host that leaves, a returning or duplicate session, and what is
 * said under an old placement.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { NatsConnection } from 'nats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AvatarGame, GameServer } from '../../src/game/game.ts';
import { runHost } from '../../src/game/hosts/host-runtime.ts';
import type { HostedGame } from '../../src/game/hosts/hosted-game.ts';
import { codec, connectNats } from '../../src/game/hosts/nats/connect.ts';
import { NatsHost } from '../../src/game/hosts/nats/nats-host.ts';
import { HOST_LEFT, HOST_SILENT, NatsHosts } from '../../src/game/hosts/nats/nats-hosts.ts';
import { subjects } from '../../src/game/hosts/nats/subjects.ts';
import { HostPool } from '../../src/game/hosts/pool.ts';
import type { AvatarAgain, CoreBeat, FromHost, GameStateMessage, HostBeat, HostToCore, ToHost } from '../../src/game/hosts/protocol.ts';
import type { SkillRegistry, SkillResult } from '../../src/game/skill.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeGame, snapshotOf } from '../fakes/fake-game.ts';
import { NATS_SERVER, startNats, type TestNats } from '../nats-server.ts';
import { waitFor } from './helpers.ts';

const log = silentLogger();
const SERVER: GameServer = { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' };
const CLUSTER = 'test';
const S = subjects(CLUSTER);
/** Short bounds: the beats come every 200 ms, and a host silent for 3 s is gone. */
const SILENCE_MS = 3000;
const BEAT_MS = 200;

/** Skills that say which host ran them, and one that runs until it is aborted. */
function skillsOn(host: string) {
  return (_game: AvatarGame): SkillRegistry => ({
    list: () => [],
    get: () => undefined,
    run: (id, _params, signal): Promise<SkillResult> => {
      if (id === 'where') return Promise.resolve({ ok: true, code: 'done', detail: host });
      return new Promise((resolve) => {
        const stop = (): void => resolve({ ok: false, code: 'aborted', detail: `stopped on ${host}` });
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      });
    },
  });
}

interface TestHost {
  id: string;
  nc: NatsConnection;
  host: NatsHost;
  /** The games it built, by avatar. */
  games: Map<string, FakeGame>;
}

let nats: TestNats;
let coreNc: NatsConnection;
let pool: HostPool;
let source: NatsHosts;
const hosts: TestHost[] = [];
const open: HostedGame[] = [];

async function startHost(id: string): Promise<TestHost> {
  const nc = await connectNats({ servers: [nats.url], token: 'nats-test-token', name: `host ${id}` }, log);
  const games = new Map<string, FakeGame>();
  const host = new NatsHost({
    nc,
    cluster: CLUSTER,
    id,
    capacity: 10,
    log,
    beatEveryMs: BEAT_MS,
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
        skills: skillsOn(id),
        log,
        send,
        snapshotEveryMs: BEAT_MS,
        aliveEveryMs: BEAT_MS,
      }),
  });
  await host.start();
  const h = { id, nc, host, games };
  hosts.push(h);
  return h;
}

function game(name: string): HostedGame {
  const g = pool.game(name, SERVER, { crafting: false, hunger: false, mobs: false });
  open.push(g);
  return g;
}

async function connected(g: HostedGame): Promise<void> {
  if (g.state !== 'connected') await once(g, 'connected');
}

/** The next message to one host session on its call subject (raw, as another NATS client sees it). */
async function nextCall(id: string, session: string, type: string): Promise<ToHost['m']> {
  const sub = coreNc.subscribe(S.call(id));
  for await (const m of sub) {
    const t = codec.decode(m.data) as ToHost;
    if (t.to === session && t.m.type === type) {
      sub.unsubscribe();
      return t.m;
    }
  }
  throw new Error(`no ${type} call to ${id}/${session}`);
}

describe.skipIf(!NATS_SERVER)('avatar hosts over NATS', () => {
  beforeAll(async () => {
    nats = await startNats({ token: 'nats-test-token' });
    await startHost('a');
    await startHost('b');
    coreNc = await connectNats({ servers: [nats.url], token: 'nats-test-token', name: 'core' }, log);
    source = new NatsHosts({ nc: coreNc, cluster: CLUSTER, world: null, silenceMs: SILENCE_MS, log, beatEveryMs: BEAT_MS, settleMs: 500 });
    pool = await HostPool.over(source, log);
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((g) => g.stop()));
  });

  afterAll(async () => {
    await pool?.close();
    for (const h of hosts) await h.nc.close();
    await coreNc?.close();
    await nats?.close();
  });

  it('GIVEN two hosts over NATS WHEN four avatars start THEN two play on each, their skills run where they play, and an abort stops a skill there', async () => {
    const all = ['ann', 'ben', 'cat', 'dan'].map(game);
    for (const g of all) await g.start();
    await Promise.all(all.map(connected));
    const where = await Promise.all(all.map((g) => g.runSkill('where', {}, new AbortController().signal)));
    expect(where.map((r) => r.detail)).toEqual(all.map((g) => pool.slotOf(g)));
    expect(where.map((r) => r.detail).sort()).toEqual(['a', 'a', 'b', 'b']);

    const controller = new AbortController();
    const running = all[0]!.runSkill('hang', {}, controller.signal);
    controller.abort(new Error('owner stop'));
    expect(await running).toEqual({ ok: false, code: 'aborted', detail: `stopped on ${pool.slotOf(all[0]!)}` });
  });

  it('GIVEN an avatar running a skill on a host WHEN that host goes silent THEN its skill ends aborted and it plays on the other host', async () => {
    await startHost('c');
    await waitFor(() => pool.pids().length === 3, 10_000, 'host c to join');
    const eve = game('eve');
    await eve.start();
    await connected(eve);
    const on = hosts.find((h) => h.id === pool.slotOf(eve))!;
    const running = eve.runSkill('hang', {}, new AbortController().signal);
    const down = once(eve, 'disconnected');
    // Its connection cut and its beats stopped: to the core it is silent.
    await on.nc.close();
    expect(await down).toEqual([HOST_SILENT]);
    const back = once(eve, 'connected');
    expect(await running).toMatchObject({ ok: false, code: 'aborted' });
    await back;
    expect(pool.slotOf(eve)).not.toBe(on.id);
    expect(pool.pids()).toHaveLength(2);
    expect(hosts.find((h) => h.id === pool.slotOf(eve))?.games.get('eve')?.state).toBe('connected');
  });

  it('GIVEN a host session taken as gone WHEN it beats again THEN the core tells it to start afresh; WHEN another session of a live id beats THEN the old one is gone at once', async () => {
    const old = 'feedbeef0001';
    const beat = (session: string, id = 'z'): HostBeat => ({ type: 'host', id, session, core: source.session, pid: 1, capacity: 5, avatars: [], load: { loopDelayP99Ms: 0, cpuPct: 0 }, seen: 0, open: [], said: 0 });
    coreNc.publish(S.hostBeat('z'), codec.encode(beat(old)));
    await waitFor(() => pool.pids().length === 3, 10_000, 'z to join');
    // A new session of z: a restart. The old session is gone at once, not after the silence bound.
    const fresh = 'feedbeef0002';
    coreNc.publish(S.hostBeat('z'), codec.encode(beat(fresh)));
    await coreNc.flush();
    // The old session speaks again while the new one is live: two hosts run as z, and the old one is told so.
    const told = nextCall('z', old, 'reset');
    coreNc.publish(S.hostBeat('z'), codec.encode(beat(old)));
    expect(await told).toEqual({ type: 'reset', reason: 'duplicate' });
    // The fresh one stops beating: gone by silence; when it speaks again it is told to start afresh.
    await waitFor(() => pool.pids().length === 2, 20_000, 'z to be taken as gone');
    const reset = nextCall('z', fresh, 'reset');
    coreNc.publish(S.hostBeat('z'), codec.encode(beat(fresh)));
    expect(await reset).toEqual({ type: 'reset', reason: 'unknown' });
  });

  it('GIVEN an avatar on a host WHEN the host says it plays an avatar placed elsewhere, or speaks of it under an old placement THEN it is told to drop it, and what it said is dropped', async () => {
    const fay = game('fay');
    await fay.start();
    await connected(fay);
    const on = hosts.find((h) => h.id === pool.slotOf(fay))!;
    const other = hosts.find((h) => h.id !== on.id && h.nc.isClosed() === false)!;
    // The other host says it plays fay under placement 1 (an old placement): it is told to drop her there.
    const drop = nextCall(other.id, other.host.session, 'drop');
    const ghost: HostBeat = { type: 'host', id: other.id, session: other.host.session, core: source.session, pid: 1, capacity: 10, avatars: [['fay', 1]], load: { loopDelayP99Ms: 0, cpuPct: 0 }, seen: 0, open: [], said: 0 };
    coreNc.publish(S.hostBeat(other.id), codec.encode(ghost));
    expect(await drop).toEqual({ type: 'drop', avatar: 'fay', placement: 1 });
    // Her placement, as her host's beat says it.
    const beats = coreNc.subscribe(S.hostBeat(on.id));
    let placement = 0;
    for await (const m of beats) {
      const b = codec.decode(m.data) as HostBeat;
      placement = b.id === on.id ? (b.avatars.find(([a]) => a === 'fay')?.[1] ?? 0) : 0;
      if (placement > 0) break;
    }
    beats.unsubscribe();
    // A state under an old placement from the host she is on is dropped; under hers it counts. (A skill's
    // answer comes back after what was published before its call: the core has read the state by then.)
    const say = (p: number, endReason: string): void => {
      const m: HostToCore = { type: 'state', avatar: 'fay', placement: p, state: 'ended', downReason: null, endReason };
      coreNc.publish(S.out(on.id), codec.encode({ from: on.host.session, m }));
    };
    say(placement - 1, 'old news');
    expect((await fay.runSkill('where', {}, new AbortController().signal)).detail).toBe(on.id);
    expect(fay.state).toBe('connected');
    say(placement, 'news');
    await fay.runSkill('where', {}, new AbortController().signal);
    expect([fay.state, fay.endReason]).toEqual(['ended', 'news']);
  });

  it('GIVEN an avatar on a host WHEN a beat of the core no longer names that host (the core stopped hearing it) THEN the host leaves its games and joins afresh, and the avatar plays again', async () => {
    const hal = game('hal');
    await hal.start();
    await connected(hal);
    const on = hosts.find((h) => h.id === pool.slotOf(hal))!;
    const was = on.host.session;
    const down = once(hal, 'disconnected');
    const beat: CoreBeat = { type: 'core', session: source.session, world: null, silenceMs: SILENCE_MS, hosts: [], sent: {}, missed: {} };
    coreNc.publish(S.coreBeat, codec.encode(beat));
    expect(await down).toEqual([HOST_LEFT]);
    expect(on.games.get('hal')?.state).toBe('idle');
    await connected(hal);
    expect(on.host.session).not.toBe(was);
  });

  it('GIVEN an avatar on a host WHEN the host leaves on purpose THEN its avatar moves at once', async () => {
    const gil = game('gil');
    await gil.start();
    await connected(gil);
    const on = hosts.find((h) => h.id === pool.slotOf(gil))!;
    const down = once(gil, 'disconnected');
    await on.host.leave();
    expect(await down).toEqual([HOST_LEFT]);
    await connected(gil);
    expect(pool.slotOf(gil)).not.toBe(on.id);
    expect(on.games.get('gil')?.state).toBe('idle');
  });

  it('GIVEN an avatar on a host WHEN that host sends malformed messages (a beat whose avatars are not pairs, an event with no avatar) THEN they are dropped and the avatar still answers through the core', async () => {
    const jay = game('jay');
    await jay.start();
    await connected(jay);
    const on = hosts.find((h) => h.id === pool.slotOf(jay))!;
    const bad: unknown = { type: 'host', id: on.id, session: on.host.session, core: source.session, pid: 1, capacity: 10, avatars: [5, null, 'jay'], load: {} };
    coreNc.publish(S.hostBeat(on.id), codec.encode(bad));
    coreNc.publish(S.out(on.id), codec.encode({ from: on.host.session, m: { type: 'event', placement: 'x', event: 'connected', args: 7 } }));
    coreNc.publish(S.out(on.id), codec.encode({ from: on.host.session, m: { type: 'alive', avatars: 5 } }));
    coreNc.publish(S.out(on.id), new TextEncoder().encode('{not json'));
    expect(await jay.runSkill('where', {}, new AbortController().signal)).toMatchObject({ ok: true, detail: on.id });
    expect(jay.state).toBe('connected');
  });

  it('GIVEN an avatar on a host WHEN the event loop of core and host stands still past the silence bound (a busy machine) THEN, once it runs again, neither takes the other as gone and the avatar plays on', async () => {
    const lea = game('lea');
    await lea.start();
    await connected(lea);
    const on = pool.slotOf(lea);
    const drops: string[] = [];
    lea.on('disconnected', (reason) => drops.push(reason));
    // The whole process stands still (core, hosts and their NATS clients alike), as a starved one does.
    const until = Date.now() + SILENCE_MS + 1000;
    let spins = 0;
    while (Date.now() < until) spins += 1;
    expect(spins).toBeGreaterThan(0);
    // Ten beats of the core from then on: the host is still held and the avatar still plays there.
    const beats = coreNc.subscribe(S.coreBeat, { max: 10 });
    for await (const m of beats) expect((codec.decode(m.data) as CoreBeat).hosts).toContain(hosts.find((h) => h.id === on)!.host.session);
    expect([drops, pool.slotOf(lea), lea.state]).toEqual([[], on, 'connected']);
    expect(await lea.runSkill('where', {}, new AbortController().signal)).toMatchObject({ ok: true, detail: on });
  });

  it('GIVEN an avatar on a host WHEN the core\'s beat says it missed messages of that host THEN the host says again where its avatars are, and the core, which had it right, sees no event twice', async () => {
    const kit = game('kit');
    await kit.start();
    await connected(kit);
    const on = hosts.find((h) => h.id === pool.slotOf(kit))!;
    let joins = 0;
    kit.on('connected', () => {
      joins += 1;
    });
    const out = coreNc.subscribe(S.out(on.id));
    const beat: CoreBeat = { type: 'core', session: source.session, world: null, silenceMs: SILENCE_MS, hosts: hosts.map((h) => h.host.session), sent: {}, missed: { [on.host.session]: 1_000_000 } };
    coreNc.publish(S.coreBeat, codec.encode(beat));
    let again: AvatarAgain | undefined;
    for await (const m of out) {
      const f = codec.decode(m.data) as FromHost;
      if (f.m.type === 'again' && f.m.state.avatar === 'kit') {
        again = f.m;
        break;
      }
    }
    out.unsubscribe();
    expect(again?.state).toMatchObject({ state: 'connected', placement: expect.any(Number) });
    // The answer comes after what was said before it: the core has read the again by then.
    expect(await kit.runSkill('where', {}, new AbortController().signal)).toMatchObject({ ok: true, detail: on.id });
    expect([kit.state, joins]).toEqual(['connected', 0]);
  });

  it('GIVEN a host playing WHEN another host starts with its id THEN exactly one of them is told it is a duplicate, and the other one plays on under one session', async () => {
    const before = pool.pids().length;
    const first = await startHost('twin');
    await waitFor(() => pool.pids().length === before + 1, 10_000, 'the first twin to join');
    const second = await startHost('twin');
    const twins = [first, second];
    // What avatar-host.ts does when told: leave (its beat says so under the session told).
    const told = await Promise.race(twins.map((t) => once(t.host, 'duplicate').then(() => t)));
    const survivor = twins.find((t) => t !== told)!;
    await told.host.leave();
    // Ten beats of the core from now on each name the survivor's one session, and nothing else of `twin`.
    const beats = coreNc.subscribe(S.coreBeat);
    const named: string[][] = [];
    for await (const m of beats) {
      const b = codec.decode(m.data) as CoreBeat;
      named.push(b.hosts.filter((s) => s === survivor.host.session || s === told.host.session));
      if (named.length === 10) break;
    }
    beats.unsubscribe();
    expect(new Set(named.flat())).toEqual(new Set([survivor.host.session]));
    expect(named.every((n) => n.length === 1)).toBe(true);
    expect(pool.pids()).toHaveLength(before + 1);
  });
});

describe.skipIf(!NATS_SERVER)('avatar hosts over NATS, each user limited as docs/many-machines.md says', () => {
  /** The permissions block of docs/many-machines.md, with a password for each user in turn. */
  const documented = (passwords: string[]): string => {
    const page = readFileSync(new URL('../../docs/many-machines.md', import.meta.url), 'utf8');
    const block = /```\n(authorization \{[\s\S]*?)```/.exec(page)?.[1];
    if (!block) throw new Error('docs/many-machines.md has no authorization block');
    let i = 0;
    return block.replace(/"…"/g, () => JSON.stringify(passwords[i++] ?? ''));
  };

  it('GIVEN the core and host h1 with the documented permissions THEN an avatar plays on h1 and its skills run and abort there; and h1\'s password under another id is refused and never joins', async () => {
    const nats = await startNats({ config: documented(['core-pass-4821', 'h1-pass-7731']) });
    const ncs: NatsConnection[] = [];
    const connectAs = async (user: string, pass: string): Promise<NatsConnection> => {
      const nc = await connectNats({ servers: [nats.url], user, pass, name: user }, log);
      ncs.push(nc);
      return nc;
    };
    let local: HostPool | undefined;
    try {
      const hostNc = await connectAs('h1', 'h1-pass-7731');
      const host = new NatsHost({
        nc: hostNc,
        cluster: 'main',
        id: 'h1',
        capacity: 5,
        log,
        beatEveryMs: BEAT_MS,
        runtime: async (_world, send) =>
          runHost({ games: { create: (avatar) => new FakeGame(avatar.name), close: async () => undefined }, skills: skillsOn('h1'), log, send, aliveEveryMs: BEAT_MS }),
      });
      await host.start();
      const core = new NatsHosts({ nc: await connectAs('core', 'core-pass-4821'), cluster: 'main', world: null, silenceMs: SILENCE_MS, log, beatEveryMs: BEAT_MS, settleMs: 500 });
      local = await HostPool.over(core, log);
      const ivy = local.game('ivy', SERVER, { crafting: false, hunger: false, mobs: false });
      await ivy.start();
      await connected(ivy);
      expect(local.slotOf(ivy)).toBe('h1');
      expect(await ivy.runSkill('where', {}, new AbortController().signal)).toMatchObject({ ok: true, detail: 'h1' });
      const controller = new AbortController();
      const hanging = ivy.runSkill('hang', {}, controller.signal);
      controller.abort(new Error('owner stop'));
      expect(await hanging).toMatchObject({ ok: false, code: 'aborted', detail: 'stopped on h1' });

      // h1's password, another id: the server refuses its beat, so the core never hears of it.
      const impostorNc = await connectAs('h1', 'h1-pass-7731');
      const refused = (async () => {
        for await (const s of impostorNc.status()) if (s.type === 'error' && s.permissionContext?.subject === 'mindlink.main.host.h2.beat') return s.permissionContext.operation;
        return undefined;
      })();
      const impostor = new NatsHost({ nc: impostorNc, cluster: 'main', id: 'h2', capacity: 5, log, beatEveryMs: BEAT_MS, runtime: async () => Promise.reject(new Error('never asked')) });
      await impostor.start();
      expect(await refused).toBe('publish');
      expect(local.pids()).toHaveLength(1);
      await ivy.stop();
    } finally {
      await local?.close();
      for (const nc of ncs) await nc.close();
      await nats.close();
    }
  });
});

describe.skipIf(!NATS_SERVER)('avatar hosts over NATS when messages are lost on the way', () => {
  const L = subjects('lost');
  /** `core` may use every subject of cluster `lost`; `mute` is a host whose answers the server refuses (they are lost). */
  const CONFIG = `authorization {
  users = [
    { user: core, password: "core-pass-1187", permissions: { publish: ["mindlink.lost.>"], subscribe: ["mindlink.lost.>"] } }
    { user: mute, password: "mute-pass-5520", permissions: {
        publish: ["mindlink.lost.host.mute.beat", "mindlink.lost.host.mute.out"],
        subscribe: ["mindlink.lost.core.beat", "mindlink.lost.host.mute.call"] } }
  ]
}`;
  let lossy: TestNats;
  const ncs: NatsConnection[] = [];
  const connectAs = async (user: string, pass: string): Promise<NatsConnection> => {
    const nc = await connectNats({ servers: [lossy.url], user, pass, name: user }, log);
    ncs.push(nc);
    return nc;
  };
  const corePool = async (): Promise<{ core: NatsHosts; pool: HostPool }> => {
    const core = new NatsHosts({ nc: await connectAs('core', 'core-pass-1187'), cluster: 'lost', world: null, silenceMs: SILENCE_MS, log, beatEveryMs: BEAT_MS, settleMs: 300 });
    return { core, pool: await HostPool.over(core, log) };
  };

  /** A host `r` (session `r1`) driven by hand: it records what it is sent, and beats what it says it has seen. */
  const handHost = async (core: NatsHosts) => {
    const hand = await connectAs('core', 'core-pass-1187');
    const got: Array<{ t: ToHost; reply: string | undefined }> = [];
    const waiting: Array<() => void> = [];
    hand.subscribe(L.call('r'), { callback: (_err, m) => {
      got.push({ t: codec.decode(m.data) as ToHost, reply: m.reply });
      for (const w of waiting.splice(0)) w();
    } });
    const next = async (type: string, after = 0): Promise<{ t: ToHost; reply: string | undefined }> => {
      for (;;) {
        const found = got.find((g) => g.t.m.type === type && g.t.seq > after && g.t.to === 'r1');
        if (found) return found;
        await new Promise<void>((r) => waiting.push(r));
      }
    };
    // What it says is numbered; `lose` numbers a message and never sends it.
    let said = 0;
    const say = (m: FromHost['m'], subject = L.out('r')): void => {
      said += 1;
      hand.publish(subject, codec.encode({ from: 'r1', seq: said, m } satisfies FromHost));
    };
    const lose = (): void => {
      said += 1;
    };
    const beat = (seen: number, open: number[], avatars: Array<[string, number]>, hearing: string[] = []): void => {
      const b: HostBeat = { type: 'host', id: 'r', session: 'r1', core: core.session, pid: 1, capacity: 5, avatars, hearing, load: { loopDelayP99Ms: 0, cpuPct: 0 }, seen, open, said };
      hand.publish(L.hostBeat('r'), codec.encode(b));
    };
    /** The next core beat that holds for `test`. */
    const coreBeat = async (test: (b: CoreBeat) => boolean): Promise<CoreBeat> => {
      const beats = hand.subscribe(L.coreBeat);
      try {
        for await (const m of beats) {
          const b = codec.decode(m.data) as CoreBeat;
          if (test(b)) return b;
        }
      } finally {
        beats.unsubscribe();
      }
      throw new Error('no more core beats');
    };
    return { next, say, lose, beat, coreBeat, said: () => said, got: () => got };
  };

  beforeAll(async () => {
    lossy = await startNats({ config: CONFIG });
  });

  afterAll(async () => {
    for (const nc of ncs) await nc.close();
    await lossy?.close();
  });

  it('GIVEN a host whose answers never reach the core WHEN a skill, a map and a stop are called THEN each ends at the host\'s next beat as a dropped connection ends it, instead of waiting forever', async () => {
    const host = new NatsHost({
      nc: await connectAs('mute', 'mute-pass-5520'),
      cluster: 'lost',
      id: 'mute',
      capacity: 5,
      log,
      beatEveryMs: BEAT_MS,
      runtime: async (_world, send) => runHost({ games: { create: (avatar) => new FakeGame(avatar.name), close: async () => undefined }, skills: skillsOn('mute'), log, send, aliveEveryMs: BEAT_MS }),
    });
    await host.start();
    const { core, pool: local } = await corePool();
    try {
      const lou = local.game('lou', SERVER, { crafting: false, hunger: false, mobs: false });
      await lou.start();
      await connected(lou);
      expect(await lou.runSkill('where', {}, new AbortController().signal)).toMatchObject({ ok: false, code: 'aborted', detail: expect.stringMatching(/lost on the network/) });
      expect(await local.map(lou, 8)).toBeNull();
      await lou.stop();
      expect(lou.state).toBe('idle');

      // What the core's beat says it sent counts as seen by the host, had it arrived or not.
      const watcher = await connectAs('core', 'core-pass-1187');
      const beats = watcher.subscribe(L.hostBeat('mute'));
      const said: CoreBeat = { type: 'core', session: core.session, world: null, silenceMs: SILENCE_MS, hosts: [host.session], sent: { [host.session]: 9999 }, missed: {} };
      watcher.publish(L.coreBeat, codec.encode(said));
      let seen = 0;
      for await (const m of beats) if ((seen = (codec.decode(m.data) as HostBeat).seen) === 9999) break;
      beats.unsubscribe();
      expect(seen).toBe(9999);
    } finally {
      await local.close();
      await host.leave();
    }
  });

  it('GIVEN a host that misses a start, a skill call and an abort, and whose connected state is lost THEN the core sends the start and the abort again, ends the skill call, and has the host say again where its avatar is, from what the beats say', async () => {
    const { core, pool: local } = await corePool();
    const { next, say, lose, beat, coreBeat, said } = await handHost(core);
    try {
      beat(0, [], []);
      await waitFor(() => local.pids().length === 1, 10_000, 'the hand-driven host to join');
      const kim = local.game('kim', SERVER, { crafting: false, hunger: false, mobs: false });
      await kim.start();
      // The start is lost: the host has seen it go by (its number) and does not play kim.
      const first = await next('start');
      beat(first.t.seq, [], []);
      const again = await next('start', first.t.seq);
      expect(again.t.m).toEqual(first.t.m);
      const placement = (again.t.m as { placement: number }).placement;
      const plays: Array<[string, number]> = [['kim', placement]];
      // Its `connected` state and event are lost (their numbers skipped): the core's beat asks it to say again
      // where its avatars are, and what it says again brings the event the core missed.
      const state: GameStateMessage = { type: 'state', avatar: 'kim', placement, state: 'connected', downReason: null, endReason: null };
      lose();
      lose();
      beat(again.t.seq, [], plays);
      const mark = (await coreBeat((b) => (b.missed.r1 ?? 0) > 0)).missed.r1;
      expect(mark).toBe(said());
      const joined = once(kim, 'connected');
      say({ type: 'again', state, snapshot: snapshotOf({ inventory: { dirt: 3 } }) });
      await joined;
      expect([kim.state, kim.snapshot()?.inventory]).toEqual(['connected', { dirt: 3 }]);

      // A skill call lost on the way: the core's beat says it was sent; the host's beat says it is not open.
      const lost = kim.runSkill('where', {}, new AbortController().signal);
      const call = await next('skill', again.t.seq);
      await coreBeat((b) => (b.sent.r1 ?? 0) >= call.t.seq);
      beat(call.t.seq, [], plays);
      expect(await lost).toMatchObject({ ok: false, code: 'aborted' });

      // A call still open is not ended; its lost abort is sent again; its answer then settles it.
      const controller = new AbortController();
      const hanging = kim.runSkill('hang', {}, controller.signal);
      const open = await next('skill', call.t.seq);
      const callNo = (open.t.m as { call: number }).call;
      controller.abort(new Error('owner stop'));
      const abort = await next('abort', open.t.seq);
      beat(abort.t.seq, [callNo], plays);
      const abortAgain = await next('abort', abort.t.seq);
      expect(abortAgain.t.m).toEqual(abort.t.m);
      say({ type: 'skillResult', call: callNo, placement, result: { ok: false, code: 'aborted', detail: 'stopped on r' } }, open.reply);
      expect(await hanging).toEqual({ ok: false, code: 'aborted', detail: 'stopped on r' });
    } finally {
      await local.close();
    }
  });
  it('GIVEN a host that misses a start told to hear, a hear, a say and its answer THEN the core sends the start again with the last hear, sends the hear again while the host\'s beat shows the avatar hearing otherwise, and ends the say as not in the game', async () => {
    const { core, pool: local } = await corePool();
    const { next, say, beat, got } = await handHost(core);
    try {
      beat(0, [], []);
      await waitFor(() => local.pids().length === 1, 10_000, 'the hand-driven host to join');
      const kim = local.game('kim', SERVER, { crafting: false, hunger: false, mobs: false });
      await kim.start();
      // The start (not hearing) is lost, and so is the hear sent after it: the start goes again, hearing.
      const first = await next('start');
      expect(first.t.m).toMatchObject({ avatar: 'kim', hear: false });
      kim.hearChat(true);
      const hear = await next('hear', first.t.seq);
      beat(hear.t.seq, [], []);
      const again = await next('start', hear.t.seq);
      expect(again.t.m).toMatchObject({ avatar: 'kim', hear: true });
      const placement = (again.t.m as { placement: number }).placement;
      const plays: Array<[string, number]> = [['kim', placement]];

      // Now it plays kim; a hear to stop is lost: the host's beat shows kim still hearing, so it goes again.
      kim.hearChat(false);
      const off = await next('hear', again.t.seq);
      expect(off.t.m).toEqual({ type: 'hear', avatar: 'kim', placement, on: false });
      beat(off.t.seq, [], plays, ['kim']);
      const offAgain = await next('hear', off.t.seq);
      expect(offAgain.t.m).toEqual(off.t.m);
      // Once the beat shows it applied, it is not sent again.
      beat(offAgain.t.seq, [], plays, []);

      // A say answered comes back as said; one whose answer is lost ends not in the game.
      say({ type: 'state', avatar: 'kim', placement, state: 'connected', downReason: null, endReason: null });
      await waitFor(() => kim.state === 'connected', 10_000, 'kim to be connected');
      const answered = kim.say('hello');
      const call = await next('say', offAgain.t.seq);
      expect(call.t.m).toMatchObject({ type: 'say', avatar: 'kim', placement, line: 'hello' });
      const callNo = (call.t.m as { call: number }).call;
      say({ type: 'said', call: callNo, placement, outcome: 'said' }, call.reply);
      expect(await answered).toBe('said');
      const lost = kim.say('anyone?');
      const lostCall = await next('say', call.t.seq);
      beat(lostCall.t.seq, [], plays, []);
      expect(await lost).toBe('not_in_game');
      // The beats that showed kim not hearing sent no hear again (the messages are numbered in order).
      expect(got().filter((g) => g.t.m.type === 'hear' && g.t.seq > offAgain.t.seq)).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
