/**
 * Where start-up's time goes: runs `npm start --silent` (a fresh data folder, the embedded defaults, the console
 * on, the log at debug) until its first avatar line, `--runs` times (default 5), and prints when each phase came,
 * in ms from launching npm: each process's start (the core, the world, the avatar hosts), its libraries loaded,
 * the world listening, the hosts ready, the first host's games' code loaded, the avatar placed, connecting and
 * spawned, the ready line and the first avatar line; per run, then the median, best and worst of each phase, and
 * the CPU each process had used by the first avatar line (from /proc, as `npm run bench -- startup` counts it).
 * The marks come from the processes' own log lines (docs/benchmarks.md, "Start-up").
 *
 *   npx tsx bench/tools/startup-timeline.ts [--runs 5]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildFirst, cpuByRole, cpuLine, median, type Marks } from '../startup.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIMEOUT_MS = 120_000;

/** One pino record, as the processes write them on stderr. */
interface LogLine {
  time: number;
  msg: string;
  avatarHost?: number;
  sinceStartMs?: number;
  ms?: number;
  loadedMs?: number;
  listeningMs?: number;
  codecsMs?: number;
  spawnAreaMs?: number;
}

/** The phases, in the order they usually come, each named by what happened. */
const PHASES = [
  'core: process started',
  'world: process started',
  'host 0: process started',
  'host 1: process started',
  'host 0: ready for messages',
  'host 1: ready for messages',
  'core: modules loaded',
  'world: modules loaded',
  'world: listening',
  'world: codecs compiled',
  'world: spawn area loaded',
  'host 0: games code loaded',
  'host 0: bot code loaded',
  'core: world ready',
  'core: avatar placed on a host',
  'core: ready line',
  'host 0: avatar connecting',
  'host 0: avatar spawned',
  'first avatar line',
] as const;

/**
 * The marks of one line (ms from `t0`, the launch): a process's start is the line's time less the time since its
 * start that the line gives.
 */
function marksOf(l: LogLine, t0: number): Marks {
  const at = l.time - t0;
  const host = `host ${l.avatarHost ?? '?'}`;
  switch (l.msg) {
    case 'core loaded':
      return { 'core: process started': at - (l.sinceStartMs ?? NaN), 'core: modules loaded': at };
    case 'embedded world listening':
      return { 'world: process started': at - (l.listeningMs ?? NaN), 'world: modules loaded': at - (l.listeningMs ?? NaN) + (l.loadedMs ?? NaN), 'world: listening': at };
    case 'embedded world warmed up':
      return { 'world: codecs compiled': at - (l.spawnAreaMs ?? NaN) + (l.codecsMs ?? NaN), 'world: spawn area loaded': at };
    case 'embedded world ready':
      return { 'core: world ready': at };
    case 'avatar host ready':
      return { [`${host}: process started`]: at - (l.sinceStartMs ?? NaN), [`${host}: ready for messages`]: at };
    case 'games code loaded':
    case 'bot code loaded':
      return { [`${host}: ${l.msg}`]: at };
    case 'placed on an avatar host':
      return { 'core: avatar placed on a host': at };
    case 'connecting':
      return { [`${host}: avatar connecting`]: at };
    case 'spawned':
      return { [`${host}: avatar spawned`]: at };
    default:
      return {};
  }
}

/** One `npm start` to its first avatar line: its marks, and the CPU its processes had used by then. */
function run(): Promise<{ marks: Marks; cpu: Marks }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-timeline-'));
  return new Promise<{ marks: Marks; cpu: Marks }>((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir, CONSOLE: 'on', LOG_LEVEL: 'debug', WEB: 'off' },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const marks: Marks = {};
    const cpu: Marks = {};
    const tail: string[] = [];
    const put = (found: Marks): void => {
      for (const [name, at] of Object.entries(found)) marks[name] ??= at;
    };
    const timer = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), TIMEOUT_MS);
    createInterface({ input: child.stdout }).on('line', (l) => {
      if (/^\[mindlink\] ready/.test(l)) put({ 'core: ready line': Date.now() - t0 });
      if (/^\[demo\] /.test(l) && marks['first avatar line'] === undefined) {
        put({ 'first avatar line': Date.now() - t0 });
        Object.assign(cpu, cpuByRole(child.pid as number));
        process.kill(-(child.pid as number), 'SIGINT');
      }
    });
    createInterface({ input: child.stderr }).on('line', (l) => {
      tail.push(l.slice(0, 300));
      if (tail.length > 10) tail.shift();
      if (!l.startsWith('{')) return;
      try {
        put(marksOf(JSON.parse(l) as LogLine, t0));
      } catch (err) {
        // A line cut short or not pino's: no mark in it.
        if (!(err instanceof SyntaxError)) throw err;
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (marks['first avatar line'] !== undefined) resolve({ marks, cpu });
      else reject(new Error(`npm start exited before its first avatar line; last lines:\n${tail.join('\n')}`));
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The phases seen, in the order of their medians. */
function ordered(runs: Marks[]): Array<{ name: string; values: number[] }> {
  const names = [...PHASES, ...new Set(runs.flatMap((m) => Object.keys(m)))].filter((n, i, all) => all.indexOf(n) === i);
  return names
    .map((name) => ({ name, values: runs.map((m) => m[name]).filter((v): v is number => v !== undefined && Number.isFinite(v)) }))
    .filter((p) => p.values.length > 0)
    .sort((a, b) => median(a.values) - median(b.values));
}

const ms = (v: number): string => `${Math.round(v)}`.padStart(6);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
  const runs = Number(values.runs);
  buildFirst();
  const say = (line: string): void => void process.stdout.write(`${line}\n`);
  say(`start-up timeline: npm start → first avatar line, ${runs} runs (load ${loadavg()[0]?.toFixed(1)})`);
  const all: Array<{ marks: Marks; cpu: Marks }> = [];
  for (let i = 0; i < runs; i++) {
    const r = await run();
    all.push(r);
    say(`  run ${i + 1}: first avatar line ${Math.round(r.marks['first avatar line'] ?? NaN)} ms; CPU ${cpuLine(r.cpu)} (load ${loadavg()[0]?.toFixed(1)})`);
  }
  say('');
  say(`${'median'.padStart(6)} ${'best'.padStart(6)} ${'worst'.padStart(6)}  ms from launching npm`);
  for (const { name, values: v } of ordered(all.map((r) => r.marks))) say(`${ms(median(v))} ${ms(Math.min(...v))} ${ms(Math.max(...v))}  ${name}`);
  const roles = [...new Set(all.flatMap((r) => Object.keys(r.cpu)))];
  const sum = (c: Marks): number => Object.values(c).reduce((a, b) => a + b, 0);
  say(`CPU by the first avatar line, median: ${cpuLine(Object.fromEntries(roles.map((role) => [role, median(all.map((r) => r.cpu[role] ?? 0))])), median(all.map((r) => sum(r.cpu))))}`);
}

await main();
