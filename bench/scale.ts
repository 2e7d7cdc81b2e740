/**
 * Whole-product scale: the real mindlink process (core, scripted engine,
 * outbox, store, console bridge, mineflayer avatars on the embedded world),
 * grown to 1, 25 and 100 avatars from the console as an owner would.
 * Prints RSS per additional avatar, event-loop delay while 25 avatars work on
 * their goals (from the process's own `health` log lines), and the message →
 * reply time at that load next to the idle figure. Asserts nothing.
 */
import { readFileSync } from 'node:fs';
import { removeEvidence, startProcess, stopGracefully, tempDir, until, type Proc } from '../chaos/harness.ts';

const STEPS = [1, 25, 100];
/** The load figures are taken at this many avatars. */
const LOAD_AT = 25;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

interface LogLine {
  msg?: string;
  avatar?: string;
  time: number;
  loopDelayP50Ms?: number;
  loopDelayP99Ms?: number;
}

/** Reads the process's JSON log lines as they come, parsing each line once. */
class LogReader {
  readonly spawned = new Set<string>();
  readonly entries: LogLine[] = [];
  private cursor = 0;

  constructor(private readonly proc: Proc) {}

  /** Parse what arrived since the last call. */
  update(): this {
    const lines = this.proc.stderr;
    for (; this.cursor < lines.length; this.cursor += 1) {
      const l = lines[this.cursor] ?? '';
      if (!l.startsWith('{')) continue;
      let entry: LogLine;
      try {
        entry = JSON.parse(l) as LogLine;
      } catch {
        // A line that is not one JSON record: not a reading.
        continue;
      }
      if (entry.msg === 'spawned' && entry.avatar) this.spawned.add(entry.avatar);
      if (entry.msg === 'health' || entry.msg === 'turn') this.entries.push(entry);
    }
    return this;
  }
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** `samples` times: type `/status demo` and time the first line of its reply. */
async function replyTimes(proc: Proc, samples: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const before = proc.stdout.length;
    const t = performance.now();
    proc.send('/status demo');
    await until(() => proc.stdout.slice(before).some((l) => /^\[demo\] (stopped|choosing|working|wrapup|waiting)/.test(l)), 'a /status reply', 60_000, 2);
    out.push(performance.now() - t);
  }
  return out;
}

export default async function bench(): Promise<void> {
  const dataDir = await tempDir('scale');
  const proc = startProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'debug', HEALTH_LOG_MS: '1000', LOOP_PACE_MS: '3000' });
  try {
    await proc.line(/^\[mindlink\] ready/, 90_000);
    const logs = new LogReader(proc);
    await until(() => logs.update().spawned.has('demo'), 'demo to spawn', 90_000);
    await new Promise((r) => setTimeout(r, 3000));
    const idle = await replyTimes(proc, 30);
    const rssAt = new Map<number, number>([[1, rssMb(proc.pid)]]);
    let count = 1;
    let delay: { p50: number; p99: number; max: number } | undefined;
    let loaded: number[] = [];
    for (const target of STEPS.slice(1)) {
      const t0 = performance.now();
      while (count < target) {
        count += 1;
        const name = `bench${String(count).padStart(3, '0')}`;
        proc.send(`/avatar create ${name}`);
        proc.send(`/play ${name}`);
      }
      await until(() => logs.update().spawned.size >= target, `${target} avatars to spawn`, 600_000, 200);
      process.stdout.write(`  ${target} avatars spawned (${((performance.now() - t0) / 1000).toFixed(1)} s for the last ${target - (STEPS[STEPS.indexOf(target) - 1] ?? 0)})\n`);
      // Let them choose goals and start working before measuring.
      await new Promise((r) => setTimeout(r, 10_000));
      rssAt.set(target, rssMb(proc.pid));
      if (target === LOAD_AT) {
        const from = logs.update().entries.length;
        loaded = await replyTimes(proc, 30);
        await new Promise((r) => setTimeout(r, Math.max(0, 20_000 - loaded.reduce((a, b) => a + b, 0))));
        const window = logs.update().entries.slice(from);
        const health = window.filter((l) => l.msg === 'health');
        const working = window.filter((l) => l.msg === 'turn').length;
        delay = {
          p50: pct(health.map((h) => h.loopDelayP50Ms ?? 0), 50),
          p99: pct(health.map((h) => h.loopDelayP99Ms ?? 0), 50),
          max: Math.max(...health.map((h) => h.loopDelayP99Ms ?? 0)),
        };
        process.stdout.write(`  ${working} engine turns in the ${health.length} s measured at ${LOAD_AT} avatars\n`);
      }
    }
    let prev: [number, number] | undefined;
    for (const [n, r] of rssAt) {
      const per = prev ? ` (+${((r - prev[1]) / (n - prev[0])).toFixed(1)} MB per additional avatar)` : ' (the first also loads minecraft-data)';
      process.stdout.write(`RSS at ${n} avatar${n === 1 ? '' : 's'}: ${r.toFixed(0)} MB${per}\n`);
      prev = [n, r];
    }
    if (delay) process.stdout.write(`event-loop delay with ${LOAD_AT} avatars working: p50 ${delay.p50} ms, p99 ${delay.p99} ms (median of 1-s windows; worst window ${delay.max} ms)\n`);
    const idle99 = pct(idle, 99);
    const load99 = pct(loaded, 99);
    process.stdout.write(`message → reply (/status on the console): idle p50 ${pct(idle, 50).toFixed(1)} ms, p99 ${idle99.toFixed(1)} ms; with ${LOAD_AT} avatars p50 ${pct(loaded, 50).toFixed(1)} ms, p99 ${load99.toFixed(1)} ms (${(load99 / idle99).toFixed(1)}× idle)\n`);
  } finally {
    await stopGracefully(proc, 120_000);
    await removeEvidence();
  }
}
