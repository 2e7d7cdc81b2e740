/**
 * The scale bench's readings (bench/scale.ts): the JSON log lines of mindlink, its avatar hosts and the
 * embedded world as they come (their `health` lines), and the figures of a window of them; the RSS of a
 * process from /proc.
 */
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import type { Proc } from '../../chaos/harness.ts';

/** A process's resident memory (MB), 0 once it is gone. */
export function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    // The process is gone: it holds no memory.
    return 0;
  }
}

export interface Reading {
  time: number;
  rssMb?: number;
  heapUsedMb?: number;
  cpuPct?: number;
  loopDelayP50Ms?: number;
  loopDelayP99Ms?: number;
  /** The avatars' physics ticks per second in that process (mean, slowest tenth); 20 when they keep up. */
  physicsTps?: number;
  physicsTpsLow?: number;
  /** Garbage collection pauses: their share of the reading's interval (%), the longest (ms). */
  gcPct?: number;
  gcMaxMs?: number;
}

export interface LogLine extends Reading {
  msg?: string;
  avatar?: string;
  pid?: number;
  avatarHost?: number;
}

/** Reads the process's JSON log lines as they come, parsing each line once. */
export class LogReader {
  readonly spawned = new Set<string>();
  /** mindlink's own health lines (`health`), the world's (`world health`), each avatar host's (`host health`, by host). */
  readonly core: Reading[] = [];
  readonly world: LogLine[] = [];
  readonly hosts: LogLine[] = [];
  spawnTimeouts = 0;
  private cursor = 0;

  constructor(private readonly proc: Proc) {}

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
      else if (entry.msg === 'health') this.core.push(entry);
      else if (entry.msg === 'world health') this.world.push(entry);
      else if (entry.msg === 'host health') this.hosts.push(entry);
      else if (entry.msg === 'no spawn in time; retrying') this.spawnTimeouts += 1;
    }
    return this;
  }
}

/** The `p`th percentile of `values` (NaN for none). */
export function pct(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The median of `values` (NaN for none). */
export function median(values: number[]): number {
  return pct(values, 50);
}

/** `n` with `digits` decimals, or a dash when it is not a number. */
export function fmt(n: number, digits = 0): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '–';
}

/** The machine's load average over the last minute. */
export function load(): string {
  return loadavg()[0]?.toFixed(1) ?? '?';
}

/** Each process's median over its readings of `pick`, then the worst (`max`/`min`) over the processes. */
export function worstOf(byProcess: LogLine[][], pick: (h: LogLine) => number | undefined, worst: (...n: number[]) => number): number {
  const medians = byProcess.map((hs) => median(hs.map((h) => pick(h) ?? NaN).filter(Number.isFinite))).filter(Number.isFinite);
  return medians.length ? worst(...medians) : NaN;
}

/** The largest of `values` that are numbers (NaN for none). */
export function longest(values: number[]): number {
  const known = values.filter(Number.isFinite);
  return known.length ? Math.max(...known) : NaN;
}

/** The world's process and the avatar hosts' processes, as their latest health lines name them. */
export function processes(logs: LogReader): { worldPid: number | undefined; hostPids: number[] } {
  const latest = new Map<number, number>();
  for (const h of logs.hosts) if (h.pid) latest.set(h.avatarHost ?? 0, h.pid);
  return { worldPid: logs.world.at(-1)?.pid, hostPids: [...latest.values()] };
}

/** Figures of the readings since `from` (indices into the reader's arrays). */
export function window(logs: LogReader, from: { core: number; world: number; hosts: number }) {
  const core = logs.core.slice(from.core);
  const world = logs.world.slice(from.world);
  const hosts = logs.hosts.slice(from.hosts);
  const byHost = new Map<number, LogLine[]>();
  for (const h of hosts) byHost.set(h.avatarHost ?? 0, [...(byHost.get(h.avatarHost ?? 0) ?? []), h]);
  return {
    coreP50: median(core.map((h) => h.loopDelayP50Ms ?? NaN)),
    coreP99: median(core.map((h) => h.loopDelayP99Ms ?? NaN)),
    coreWorstP99: Math.max(...core.map((h) => h.loopDelayP99Ms ?? 0)),
    coreCpu: median(core.map((h) => h.cpuPct ?? NaN)),
    worldP50: median(world.map((h) => h.loopDelayP50Ms ?? NaN)),
    worldP99: median(world.map((h) => h.loopDelayP99Ms ?? NaN)),
    worldCpu: median(world.map((h) => h.cpuPct ?? NaN)),
    // The worst host's median (NaN when no host reported: one process).
    hostsP50: worstOf([...byHost.values()], (h) => h.loopDelayP50Ms, Math.max),
    hostsP99: worstOf([...byHost.values()], (h) => h.loopDelayP99Ms, Math.max),
    hostsCpu: [...byHost.values()].reduce((sum, hs) => sum + median(hs.map((h) => h.cpuPct ?? 0)), 0),
    // The avatars play on the hosts, or in mindlink's own process when there is none.
    physicsTps: worstOf(byHost.size ? [...byHost.values()] : [core as LogLine[]], (h) => h.physicsTps, Math.min),
    physicsTpsLow: worstOf(byHost.size ? [...byHost.values()] : [core as LogLine[]], (h) => h.physicsTpsLow, Math.min),
    // Garbage collection where the avatars play: the worst process's median share, and the longest pause of the window.
    gcPct: worstOf(byHost.size ? [...byHost.values()] : [core as LogLine[]], (h) => h.gcPct, Math.max),
    gcMaxMs: longest((byHost.size ? hosts : core).map((h) => h.gcMaxMs ?? NaN)),
  };
}

/** The hosts' heap in use (the sum of each host's median over the readings since `from`). */
export function hostsHeap(logs: LogReader, from: { hosts: number }): number {
  const byHost = new Map<number, number[]>();
  for (const h of logs.hosts.slice(from.hosts)) byHost.set(h.avatarHost ?? 0, [...(byHost.get(h.avatarHost ?? 0) ?? []), h.heapUsedMb ?? NaN]);
  return [...byHost.values()].reduce((sum, v) => sum + median(v.filter(Number.isFinite)), 0);
}

/** Where each of the reader's arrays ends now: the start of a window for {@link window}. */
export function marks(logs: LogReader): { core: number; world: number; hosts: number } {
  return { core: logs.core.length, world: logs.world.length, hosts: logs.hosts.length };
}
