/**
 * Where working avatar hosts' memory goes: the real process as the scale bench runs it (bench/scale.ts: its
 * build, `AVATAR_HOSTS=2`, each avatar given a collect goal as it joins, then goals of its own), grown to each
 * of `HOSTMEM_STEPS` (default 1,10,30). After `HOSTMEM_WORK_S` seconds of work at a step (default 60), each host's
 * RSS and its V8 heap (used, committed) and external memory, the medians of its `host health` lines over the
 * last 20 s, are printed, with the hosts' RSS per avatar added since the first step. With `HOSTMEM_SNAPSHOTS=dir`
 * each host then writes a heap snapshot into `dir` (`--heapsnapshot-signal`; `bench/tools/heap-diff.ts`
 * compares two). A snapshot leaves its host's RSS higher than before: the figures of a later step are those of
 * a run without snapshots. `HOSTMEM_NODE_OPTIONS` is handed to every process of the run (e.g. V8 flags).
 *
 * Run: `npx tsx bench/tools/host-memory.ts`.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { removeEvidence, startProcess, stopGracefully, tempDir, until } from '../../chaos/harness.ts';
import { fmt, load, LogReader, median, processes, rssMb, type LogLine } from './scale-readings.ts';

const STEPS = (process.env.HOSTMEM_STEPS ?? '1,10,30').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
const WORK_MS = Number(process.env.HOSTMEM_WORK_S ?? 60) * 1000;
const SNAPSHOTS = process.env.HOSTMEM_SNAPSHOTS;
const GOAL = 'collect 3 oak logs';

type Memory = LogLine & { heapTotalMb?: number; externalMb?: number };

const nodeOptions = [process.env.HOSTMEM_NODE_OPTIONS ?? '', SNAPSHOTS ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOTS}` : ''].join(' ').trim();
const dataDir = await tempDir('host-memory');
const proc = startProcess(
  { DATA_DIR: dataDir, LOG_LEVEL: 'debug', HEALTH_LOG_MS: '1000', LOOP_PACE_MS: '3000', AVATAR_HOSTS: '2', WEB: 'off', ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) },
  [],
  { build: true },
);

/** Every host snapshot written so far is whole once the folder's sizes stop changing. */
async function snapshots(dir: string, hostPids: number[]): Promise<void> {
  const before = readdirSync(dir).length;
  for (const pid of hostPids) process.kill(pid, 'SIGUSR2');
  await until(() => readdirSync(dir).length >= before + hostPids.length, 'the snapshots', 600_000, 1000);
  let sizes = '';
  await until(
    () => {
      const now = readdirSync(dir).map((f) => statSync(path.join(dir, f)).size).join();
      const same = now === sizes;
      sizes = now;
      return same;
    },
    'the snapshots to be whole',
    600_000,
    3000,
  );
}

try {
  await proc.line(/^\[mindlink\] ready/, 120_000);
  const logs = new LogReader(proc);
  await until(() => logs.update().spawned.has('demo'), 'demo to spawn', 120_000);
  proc.send(`/goal ${GOAL} demo`);
  process.stdout.write(`steps ${STEPS.join(', ')}; AVATAR_HOSTS=2; ${WORK_MS / 1000} s of work per step${nodeOptions ? `; NODE_OPTIONS ${nodeOptions}` : ''} (load ${load()})\n`);
  let count = 1;
  let first: { n: number; rss: number } | undefined;
  for (const target of STEPS) {
    while (count < target) {
      count += 1;
      const name = `mem${String(count).padStart(3, '0')}`;
      proc.send(`/avatar create ${name}`);
      proc.send(`/play ${name}`);
      proc.send(`/goal ${GOAL} ${name}`);
    }
    await until(() => logs.update().spawned.size >= target, `${target} avatars to spawn`, 300_000, 250);
    await new Promise((r) => setTimeout(r, WORK_MS));
    const { hostPids } = processes(logs.update());
    let rss = 0;
    let cpu = 0;
    let p99 = 0;
    for (const pid of hostPids) {
      const recent = (logs.hosts as Memory[]).filter((h) => h.pid === pid && h.time >= Date.now() - 20_000);
      const m = (pick: (h: Memory) => number | undefined): string => fmt(median(recent.map((h) => pick(h) ?? NaN).filter(Number.isFinite)));
      rss += rssMb(pid);
      cpu += median(recent.map((h) => h.cpuPct ?? NaN).filter(Number.isFinite));
      p99 = Math.max(p99, median(recent.map((h) => h.loopDelayP99Ms ?? NaN).filter(Number.isFinite)));
      process.stdout.write(`${target} avatars: host ${pid} RSS ${fmt(rssMb(pid))} MB; heap used ${m((h) => h.heapUsedMb)} MB of ${m((h) => h.heapTotalMb)} MB committed; external ${m((h) => h.externalMb)} MB\n`);
    }
    first ??= { n: target, rss };
    const per = target > first.n ? ` (+${fmt((rss - first.rss) / (target - first.n), 1)} MB per avatar since ${first.n})` : '';
    process.stdout.write(
      `${target} avatars: hosts ${fmt(rss)} MB${per}, mindlink ${fmt(rssMb(proc.pid))} MB; hosts' CPU ${fmt(cpu)} % (${fmt(cpu / target, 2)} % per avatar), worst loop p99 ${fmt(p99)} ms (load ${load()})\n`,
    );
    if (SNAPSHOTS) {
      await snapshots(SNAPSHOTS, hostPids);
      process.stdout.write(`${target} avatars: snapshots in ${SNAPSHOTS}\n`);
    }
  }
} finally {
  await stopGracefully(proc, 180_000);
  await removeEvidence();
}
