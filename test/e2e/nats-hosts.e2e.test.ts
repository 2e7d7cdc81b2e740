/**
 * Past one machine, on one: a real nats-server, the core (`src/main.ts` with
 * `HOSTS=nats://…`) and two avatar hosts (`npm run host -- --nats … --id …`),
 * each its own process with its own DATA_DIR. Avatars spread over both hosts;
 * a host killed with SIGKILL is taken as gone by the core's own liveness (its
 * beats stop) and its avatars finish their goals on the other; the NATS
 * server killed mid-goal and back at once, or gone for longer than the
 * silence bound, is ridden out. The token is in no output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive } from '../../chaos/harness.ts';
import { NATS_SERVER, startNats, type TestNats } from '../nats-server.ts';
import { startHost, startMindlink, type HostRun, type MindlinkProcess } from './process.ts';

const TOKEN = 'nats-e2e-token-5b1f0c2d9e';
const SILENCE_MS = 5000;

interface LogEntry {
  msg?: string;
  avatar?: string;
  avatarHost?: string | number;
  pid?: number;
  silentMs?: number;
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

describe.skipIf(!NATS_SERVER)('mindlink with avatar hosts over NATS', () => {
  let nats: TestNats;
  const dirs: string[] = [];
  let core: MindlinkProcess;
  const hosts = new Map<string, HostRun>();
  /** Every core log line (the harness keeps only its tail). */
  const coreLog: string[] = [];

  const dir = async (name: string): Promise<string> => {
    const d = await mkdtemp(join(tmpdir(), `mindlink-e2e-nats-${name}-`));
    dirs.push(d);
    return d;
  };
  const host = async (id: string, npm = false): Promise<HostRun> => {
    const run = startHost(['--nats', nats.url, '--id', id, '--cluster', 'e2e'], { DATA_DIR: await dir(id), NATS_TOKEN: TOKEN, LOG_LEVEL: 'debug' }, { npm });
    hosts.set(id, run);
    await run.logLine(/avatar host ready; waiting for a core/);
    return run;
  };
  /** The host pid (the node process, also under npm) from its ready line. */
  const pidOf = (run: HostRun): number => entries(run.stderr).find((e) => e.msg === 'avatar host ready; waiting for a core')?.pid ?? -1;
  /** How often the core placed an avatar so far. */
  const placements = (avatar: string): number => entries(coreLog).filter((e) => e.msg === 'placed on an avatar host' && e.avatar === avatar).length;
  /** Where the core placed an avatar last. */
  const placedOn = (avatar: string): string | undefined => entries(coreLog).filter((e) => e.msg === 'placed on an avatar host' && e.avatar === avatar).at(-1)?.avatarHost as string | undefined;
  /** The first core log line matching (seen already, or still to come). */
  const coreLogLine = async (re: RegExp, timeoutMs = 60_000): Promise<string> => {
    await until(() => coreLog.some((l) => re.test(l)), `a core log line matching ${re}`, timeoutMs);
    return coreLog.find((l) => re.test(l)) ?? '';
  };

  beforeAll(async () => {
    nats = await startNats({ token: TOKEN });
    // The hosts run before there is a core: they wait for one.
    await Promise.all([host('north', true), host('south')]);
    core = startMindlink({ DATA_DIR: await dir('core'), HOSTS: nats.url, NATS_TOKEN: TOKEN, NATS_CLUSTER: 'e2e', HOST_SILENCE_MS: String(SILENCE_MS), LOOP_PACE_MS: '500', LOG_LEVEL: 'debug' });
    createInterface({ input: core.child.stderr as NodeJS.ReadableStream }).on('line', (l) => coreLog.push(l));
  }, 120_000);

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
          // ESRCH: its group is gone already (the host killed in the first test, and npm after it).
          if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
        }
      }
      await run.exited;
    }
    await nats?.close();
    // The token is a secret: no line of any process shows it.
    const all = [...(core?.lines ?? []), ...coreLog, ...[...hosts.values()].flatMap((h) => h.stderr)];
    expect(all.filter((l) => l.includes(TOKEN))).toEqual([]);
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }, 120_000);

  it('GIVEN demo and bob on two NATS hosts, both collecting WHEN the host of demo is killed with SIGKILL THEN the core takes it as gone within its silence bound, demo joins from the other host, and both finish their goals', async () => {
    await core.line(/^\[mindlink\] ready — playing: demo$/, 120_000);
    core.send('/avatar create bob');
    await core.line(/^\[bob\] Created bob on embedded/);
    core.send('/play bob');
    await core.line(/^\[bob\] Playing\./);
    await coreLogLine(/"avatar":"bob".*"placed on an avatar host"/);
    const demoOn = placedOn('demo');
    const bobOn = placedOn('bob');
    expect([demoOn, bobOn].sort()).toEqual(['north', 'south']);
    const demoHost = hosts.get(demoOn!)!;
    const bobHost = hosts.get(bobOn!)!;

    core.send('/goal collect 3 oak logs demo');
    core.send('/goal collect 3 oak logs bob');
    await core.line(/^\[demo\] New goal from console: collect 3 oak logs\.$/);
    // Mid-goal: demo's collect runs on its host.
    await demoHost.logLine(/"avatar":"demo".*"skill":"collect".*"msg":"running a skill"/, 120_000);
    const linesBefore = core.lines.length;
    const killed = pidOf(demoHost);
    process.kill(killed, 'SIGKILL');
    const gone = JSON.parse(await coreLogLine(/an avatar host went silent; taking it as gone/, 60_000)) as LogEntry;
    expect(gone.avatarHost).toBe(demoOn);
    // Taken as gone by the beats it no longer sent: after the bound, within a beat and a check more.
    expect(gone.silentMs).toBeGreaterThan(SILENCE_MS);
    expect(gone.silentMs, 'the beat that found it silent came that late').toBeLessThan(SILENCE_MS + 2 * 2000 + 2000);
    await coreLogLine(new RegExp(`"avatar":"demo","avatarHost":"${bobOn}".*"placed on an avatar host"`), 30_000);
    await core.line(/^\[demo\] Done: collect 3 oak logs$/, 240_000);
    await core.line(/^\[bob\] Done: collect 3 oak logs$/, 240_000);

    expect(core.child.exitCode).toBeNull();
    expect(alive(killed)).toBe(false);
    expect(alive(pidOf(bobHost)), 'bob host still runs').toBe(true);
    expect(entries(bobHost.stderr).filter((e) => e.avatar === 'bob' && e.msg === 'disconnected'), 'bob never left the game').toEqual([]);
    // The chat saw goals and their ends, nothing about a host.
    const said = core.lines.slice(linesBefore);
    expect(said.filter((l) => /host|Stopped|crash|went wrong/i.test(l)), said.join('\n')).toEqual([]);
  }, 600_000);

  it('GIVEN demo and bob collecting on one NATS host WHEN the NATS server is killed (SIGKILL) mid-goal and started again at once THEN both finish their goals', async () => {
    const survivor = [...hosts.values()].find((h) => h.child.exitCode === null && alive(pidOf(h)))!;
    const from = core.lines.length;
    const seen = survivor.stderr.length;
    core.send('/goal collect 2 oak logs demo');
    core.send('/goal collect 2 oak logs bob');
    const collecting = (avatar: string) => until(() => survivor.stderr.slice(seen).some((l) => l.includes(`"avatar":"${avatar}"`) && l.includes('"skill":"collect"') && l.includes('"msg":"running a skill"')), `${avatar} to collect`, 120_000);
    await Promise.all([collecting('demo'), collecting('bob')]);
    await nats.stop('SIGKILL');
    await nats.start();
    await core.line(/^\[demo\] Done: collect 2 oak logs$/, 240_000, from);
    await core.line(/^\[bob\] Done: collect 2 oak logs$/, 240_000, from);
  }, 600_000);

  it('GIVEN avatars playing over NATS WHEN the NATS server is down for longer than the silence bound and comes back THEN the host leaves its games, core and host reconnect, the host joins again and the avatars finish new goals', async () => {
    const survivor = [...hosts.values()].find((h) => h.child.exitCode === null && alive(pidOf(h)))!;
    const coreBack = core.logLine(/NATS connection back/, 120_000);
    const left = survivor.logLine(/no word from the core; leaving the games/, 120_000);
    const silent = core.logLine(/an avatar host went silent; taking it as gone/, 120_000);
    await nats.stop();
    await Promise.all([left, silent]);
    const before = { joins: entries(coreLog).filter((e) => e.msg === 'avatar host joined').length, demo: placements('demo'), bob: placements('bob') };
    await nats.start();
    await coreBack;
    await survivor.logLine(/NATS connection back/, 60_000);
    await until(() => entries(coreLog).filter((e) => e.msg === 'avatar host joined').length > before.joins, 'the host to join again');
    await until(() => placements('demo') > before.demo && placements('bob') > before.bob, 'demo and bob to be placed again');
    core.send('/goal collect 2 dirt demo');
    core.send('/goal collect 2 dirt bob');
    const from = core.lines.length;
    await core.line(/^\[demo\] Done: collect 2 dirt$/, 240_000, from);
    await core.line(/^\[bob\] Done: collect 2 dirt$/, 240_000, from);
  }, 600_000);

  it('GIVEN a host with the wrong token THEN it stops at once with one line saying the NATS server refused its credentials, and shows neither token', async () => {
    const wrong = 'not-the-token-8c7d6e5f';
    const run = startHost(['--nats', nats.url, '--id', 'stranger', '--cluster', 'e2e'], { DATA_DIR: await dir('stranger'), NATS_TOKEN: wrong });
    hosts.set('stranger', run);
    expect(await run.exited).toBe(1);
    const text = run.stderr.join('\n');
    expect(text).toMatch(/the NATS server nats:\/\/127\.0\.0\.1:\d+ refused the credentials .*check NATS_TOKEN/);
    expect(text).not.toContain(wrong);
    expect(text).not.toContain(TOKEN);
  }, 60_000);

  /** Wait until `test` holds, looking again at each core log line. */
  async function until(test: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; core log tail:\n${coreLog.slice(-30).join('\n')}`);
      await core.logLine(/./, 1000).catch(() => undefined);
    }
  }
});
