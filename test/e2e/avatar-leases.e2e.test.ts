/**
 * Avatars held by leases, on one machine: a real nats-server, a real
 * PostgreSQL, the core (`src/main.ts` with `HOSTS` and `DATABASE_URL`) and two
 * avatar hosts (`npm run host -- --nats … --id …`, one given `--database`, the
 * other `DATABASE_URL`), each its own process with its own DATA_DIR. Three
 * avatars spread over both hosts, each with a lease naming its host; a host
 * killed with SIGKILL renews no more, and the other takes its avatars at a
 * higher epoch once their leases lapse (the silence bound is set far longer,
 * so the leases alone move them), where they finish the goal they were on
 * and the next one. A host whose NATS connection is cut (a proxy that drops
 * its packets) hears the core no more, renews no more and leaves its avatar's
 * game before the lease lapses; the other host takes the avatar, and the cut
 * host coming back changes nothing of it. No secret is in any output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../../chaos/harness.ts';
import { openDatabase, type Database } from '../../src/db/connect.ts';
import { Leases, type Lease } from '../../src/db/leases.ts';
import { NATS_SERVER, startNats, type TestNats } from '../nats-server.ts';
import { PG_BIN, startPostgres, type TestPostgres } from '../postgres-server.ts';
import { startProxy, type TestProxy } from '../tcp-proxy.ts';
import { startHost, startMindlink, type HostRun, type MindlinkProcess } from './process.ts';

const TOKEN = 'leases-e2e-token-7d1e4a9c';
const LEASE_MS = 8000;
/** Far longer than the lease: a dead host's avatars move because their leases lapse, not because it went silent. */
const SILENCE_MS = 120_000;

interface LogEntry {
  msg?: string;
  time?: number;
  avatar?: string;
  avatarHost?: string | number;
  pid?: number;
  epoch?: number;
}

function entries(lines: string[]): LogEntry[] {
  return lines.flatMap((l) => {
    try {
      return [JSON.parse(l) as LogEntry];
    } catch {
      // Not a log record (a stray line): nothing to read.
      return [];
    }
  });
}

describe.skipIf(!NATS_SERVER || !PG_BIN)('mindlink with avatars held by leases (NATS hosts, PostgreSQL)', () => {
  let nats: TestNats;
  let pg: TestPostgres;
  let db: Database;
  let leases: Leases;
  const dirs: string[] = [];
  let core: MindlinkProcess;
  const hosts = new Map<string, HostRun>();
  let proxy: TestProxy | undefined;
  /** Every core log line (the harness keeps only its tail). */
  const coreLog: string[] = [];

  const dir = async (name: string): Promise<string> => {
    const d = await mkdtemp(join(tmpdir(), `mindlink-e2e-leases-${name}-`));
    dirs.push(d);
    return d;
  };
  /** `north` is given the database as `--database`, `south` as DATABASE_URL. */
  const host = async (id: string, npm = false): Promise<HostRun> => {
    const args = ['--nats', proxy && id === 'east' ? `nats://127.0.0.1:${proxy.port}` : nats.url, '--id', id, '--cluster', 'leases', ...(id === 'north' ? ['--database', pg.url] : [])];
    const env = { DATA_DIR: await dir(id), NATS_TOKEN: TOKEN, LOG_LEVEL: 'debug', ...(id === 'north' ? {} : { DATABASE_URL: pg.url }) };
    const run = startHost(args, env, { npm });
    hosts.set(id, run);
    await run.logLine(/avatar host ready; waiting for a core/);
    return run;
  };
  const pidOf = (run: HostRun): number => entries(run.stderr).find((e) => e.msg === 'avatar host ready; waiting for a core')?.pid ?? -1;
  /** The avatars' leases by avatar name. */
  const avatarLeases = async (): Promise<Map<string, Lease & { live: boolean }>> => new Map((await leases.list('avatar:')).map((l) => [l.name.slice('avatar:'.length), l]));
  const hostOf = (lease: Lease | undefined): string | undefined => lease?.holder.split('/')[0];

  beforeAll(async () => {
    [nats, pg] = await Promise.all([startNats({ token: TOKEN }), startPostgres()]);
    db = openDatabase(pg.url, pino({ level: 'silent' }));
    leases = new Leases(db);
    await Promise.all([host('north', true), host('south')]);
    core = startMindlink({
      DATA_DIR: await dir('core'),
      HOSTS: nats.url,
      NATS_TOKEN: TOKEN,
      NATS_CLUSTER: 'leases',
      DATABASE_URL: pg.url,
      LEASE_MS: String(LEASE_MS),
      HOST_SILENCE_MS: String(SILENCE_MS),
      LOOP_PACE_MS: '500',
      LOG_LEVEL: 'debug',
    });
    createInterface({ input: core.child.stderr as NodeJS.ReadableStream }).on('line', (l) => coreLog.push(l));
  }, 180_000);

  afterAll(async () => {
    if (core && core.child.exitCode === null) {
      core.child.kill('SIGINT');
      await core.exited;
    }
    for (const run of hosts.values()) {
      if (run.child.exitCode === null && run.child.pid) {
        try {
          process.kill(-run.child.pid, 'SIGTERM');
        } catch (err) {
          // ESRCH: its group is gone already (the host killed in the test, and npm after it).
          if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
        }
      }
      await run.exited;
    }
    await db?.end();
    await proxy?.close();
    await Promise.all([nats?.close(), pg?.close()]);
    // The token and the database's password are secrets: no line of any process shows them.
    const all = [...(core?.lines ?? []), ...coreLog, ...[...hosts.values()].flatMap((h) => h.stderr)];
    expect(all.filter((l) => l.includes(TOKEN) || (pg && l.includes(pg.password)))).toEqual([]);
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }, 120_000);

  it('GIVEN demo, bob and cat spread over two hosts, each held by a lease naming its host WHEN the host of demo is killed with SIGKILL mid-goal THEN the other host takes its avatars at a higher epoch within the lease time, and they finish the goal they were on and the next one', async () => {
    await core.line(/^\[mindlink\] ready — playing: demo$/, 180_000);
    for (const name of ['bob', 'cat']) {
      core.send(`/avatar create ${name}`);
      await core.line(new RegExp(`^\\[${name}\\] Created ${name} on embedded`));
      core.send(`/play ${name}`);
      await core.line(new RegExp(`^\\[${name}\\] Playing\\.`));
    }
    await until(async () => (await avatarLeases()).size === 3, 'three leases');
    const before = await avatarLeases();
    // Spread over both hosts, each lease held by the host its avatar plays on.
    expect(new Set([...before.values()].map(hostOf))).toEqual(new Set(['north', 'south']));
    expect([...before.values()].every((l) => l.live)).toBe(true);
    const victim = hostOf(before.get('demo'))!;
    const survivor = victim === 'north' ? 'south' : 'north';
    const moving = [...before].filter(([, l]) => hostOf(l) === victim).map(([name]) => name);
    expect(moving).toContain('demo');

    core.send('/goal collect 3 oak logs demo');
    core.send('/goal collect 3 oak logs bob');
    await core.line(/^\[demo\] New goal from console: collect 3 oak logs\.$/);
    await hosts.get(victim)!.logLine(/"avatar":"demo".*"skill":"collect".*"msg":"running a skill"/, 180_000);
    const killed = pidOf(hosts.get(victim)!);
    const killedAt = Date.now();
    process.kill(killed, 'SIGKILL');

    // Its leases lapse (it renews no more) and the core takes them for the other host at a higher epoch.
    const taken = new Map<string, number>();
    await until(async () => {
      const now = await avatarLeases();
      for (const name of moving) if (!taken.has(name) && hostOf(now.get(name)) === survivor) taken.set(name, Date.now() - killedAt);
      return taken.size === moving.length;
    }, 'the surviving host to hold the moved avatars\' leases', 120_000);
    const after = await avatarLeases();
    for (const name of moving) expect(after.get(name)?.epoch, name).toBeGreaterThan(before.get(name)!.epoch);
    // Moved by their leases, not by the silence bound; and within the lease time, give or take the core's look at
    // the leases (every second) on a busy machine.
    const log = entries(coreLog);
    expect(log.filter((e) => e.msg === 'an avatar host went silent; taking it as gone')).toEqual([]);
    expect(log.filter((e) => e.msg?.startsWith('the lease of an avatar lapsed') && e.avatarHost === victim).map((e) => e.avatar).sort()).toEqual([...moving].sort());
    const slowest = Math.max(...taken.values());
    expect(slowest, `leases taken after ${JSON.stringify(Object.fromEntries(taken))} ms`).toBeLessThan(LEASE_MS + 5000);
    process.stderr.write(`avatar leases e2e: SIGKILL of ${victim} → leases taken by ${survivor} after ${JSON.stringify(Object.fromEntries(taken))} ms (LEASE_MS ${LEASE_MS})\n`);

    const spawned = JSON.parse(await hosts.get(survivor)!.logLine(/"avatar":"demo".*"msg":"spawned"/, 120_000)) as LogEntry;
    process.stderr.write(`avatar leases e2e: demo back in the world from ${survivor} ${(spawned.time ?? 0) - killedAt} ms after the kill\n`);
    await core.line(/^\[demo\] Done: collect 3 oak logs$/, 300_000);
    await core.line(/^\[bob\] Done: collect 3 oak logs$/, 300_000);
    const from = core.lines.length;
    for (const name of moving) core.send(`/goal collect 2 dirt ${name}`);
    for (const name of moving) await core.line(new RegExp(`^\\[${name}\\] Done: collect 2 dirt$`), 300_000, from);

    expect(core.child.exitCode).toBeNull();
    expect(alive(killed)).toBe(false);
    expect(alive(pidOf(hosts.get(survivor)!)), 'the surviving host still runs').toBe(true);
    const joinedAt = entries(coreLog).find((e) => e.msg === 'took the lease of an avatar for its avatar host' && e.avatar === 'demo' && e.avatarHost === survivor)?.time;
    if (joinedAt) process.stderr.write(`avatar leases e2e: demo's lease taken for ${survivor} ${joinedAt - killedAt} ms after the kill (core's clock)\n`);
  }, 900_000);

  it('GIVEN dan collecting on a new host whose NATS connection is then cut THEN that host leaves his game before his lease is taken, the other host takes him at a higher epoch, and when the cut host is back he plays on where he is and finishes his goals', async () => {
    const survivor = [...hosts].find(([, run]) => run.child.exitCode === null && alive(pidOf(run)))![0];
    proxy = await startProxy(nats.port);
    const joins = entries(coreLog).filter((e) => e.msg === 'avatar host joined').length;
    const east = await host('east');
    await until(async () => entries(coreLog).filter((e) => e.msg === 'avatar host joined').length > joins, 'east to join');
    core.send('/avatar create dan');
    await core.line(/^\[dan\] Created dan on embedded/);
    core.send('/play dan');
    await until(async () => hostOf((await avatarLeases()).get('dan')) === 'east', 'dan to be held by east');
    const before = (await avatarLeases()).get('dan')!;
    core.send('/goal collect 3 oak logs dan');
    await east.logLine(/"avatar":"dan".*"skill":"collect".*"msg":"running a skill"/, 180_000);
    const from = core.lines.length;
    const cutAt = Date.now();
    proxy.cut('silent');

    await until(async () => hostOf((await avatarLeases()).get('dan')) === survivor, `${survivor} to hold dan's lease`, 120_000);
    const takenMs = Date.now() - cutAt;
    const after = (await avatarLeases()).get('dan')!;
    expect(after.epoch).toBeGreaterThan(before.epoch);
    // east let him go (it heard the core no more) before the core took his lease for the other host: never two bots.
    const left = JSON.parse(await east.logLine(/"avatar":"dan".*"msg":"lost the lease of an avatar; leaving its game"/, 30_000)) as LogEntry & { why?: string };
    expect(left.why).toMatch(/the core was not heard/);
    // The core writes its line after the lease's row, which the wait above reads: the line may come a moment later.
    const tookLine = (): LogEntry | undefined => entries(coreLog).find((e) => e.msg === 'took the lease of an avatar for its avatar host' && e.avatar === 'dan' && e.avatarHost === survivor);
    await until(async () => tookLine() !== undefined, `the core's line that ${survivor} took dan's lease`);
    const took = tookLine();
    expect(took?.time).toBeGreaterThan(left.time ?? Infinity);
    // Within the lease time after east's last renewal, which comes at most two of the core's beats (4 s) after its
    // last word from the core; give or take the core's look at the leases on a busy machine.
    expect(takenMs).toBeLessThan(LEASE_MS + 4000 + 5000);
    process.stderr.write(`avatar leases e2e: NATS of east cut → east left dan after ${(left.time ?? 0) - cutAt} ms, ${survivor} took his lease after ${takenMs} ms\n`);
    await core.line(/^\[dan\] Done: collect 3 oak logs$/, 300_000, from);

    // east comes back under its session (the silence bound is long): what it says late about dan changes nothing.
    proxy.mend();
    await east.logLine(/NATS connection back/, 60_000);
    const next = core.lines.length;
    core.send('/goal collect 2 dirt dan');
    await core.line(/^\[dan\] Done: collect 2 dirt$/, 300_000, next);
    expect(hostOf((await avatarLeases()).get('dan'))).toBe(survivor);
    // The chat saw goals and their ends, nothing about a host.
    const said = core.lines.slice(from);
    expect(said.filter((l) => /host|Stopped|crash|went wrong/i.test(l)), said.join('\n')).toEqual([]);
  }, 900_000);

  /** Wait until `test` holds, asking again at each core log line (or every half second). */
  async function until(test: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await test())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; core log tail:\n${coreLog.slice(-30).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
});
