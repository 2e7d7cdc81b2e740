/**
 * Start-up: from launching `npm start` (a fresh data folder, the console on) to the first avatar line on
 * stdout (`[demo] …`), next to what the libraries alone take in the same run: a bare flying-squid server
 * from launching `node` to listening, and a raw mineflayer bot from launching `node` to its `spawn` on that
 * server. Each is run `STARTUP_RUNS` times (default 5); the median and the best are printed, with the load
 * average. mindlink's run also prints when its ready line came, where the time went by its log
 * (world ready, hosts ready, the avatar connecting and spawned), and, where there is a /proc, the CPU each of
 * its processes had used when the first avatar line came: on a loaded machine a figure that moves less than
 * the times do. Asserts nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
const TIMEOUT_MS = 120_000;

function load(): string {
  return loadavg()[0]?.toFixed(1) ?? '?';
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

export interface Marks {
  [name: string]: number;
}

/**
 * Build dist/ now when the source changed since its build, as `npm start` would on its first run (which would then
 * time the build too).
 */
export function buildFirst(): void {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', "const { ensureBuilt } = await import('./scripts/build.mjs'); ensureBuilt();"], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`building dist/ failed (${r.signal ?? `code ${r.status}`})`);
}

/** Linux's clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = 100;

/**
 * The CPU (user and system, ms) used so far by `root` and every process under it, by role: npm, the core, the
 * world, the first avatar host and the others. Empty where there is no /proc.
 */
export function cpuByRole(root: number): Marks {
  const stats = new Map<number, { ppid: number; ms: number }>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch (err) {
      // Gone since the listing: not one of ours, or one that no longer counts.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH') continue;
      throw err;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    stats.set(Number(pid), { ppid: Number(fields[1]), ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS });
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of stats) {
      if (!tree.has(pid) && tree.has(s.ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  const out: Marks = {};
  for (const pid of tree) {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH') continue;
      throw err;
    }
    const role = /server\.cjs/.test(cmd) ? 'world' : /avatar-host/.test(cmd) ? (/"index":0[,}]/.test(cmd) ? 'host0' : 'hosts') : /npm/.test(cmd) ? 'npm' : 'core';
    out[role] = (out[role] ?? 0) + (stats.get(pid)?.ms ?? 0);
  }
  return out;
}

/**
 * Run `cmd` in its own process group and time (from launching it) the first stdout line matching each of
 * `lines` and the first log line whose `msg` matches each of `logs`; stop it once `until` is seen. With `cpu`,
 * the CPU its processes had used then is put in it (see {@link cpuByRole}).
 */
function timed(cmd: string[], env: Record<string, string>, lines: Record<string, RegExp>, logs: Record<string, RegExp>, until: string, cpu?: Marks): Promise<Marks> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd[0]!, cmd.slice(1), { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const marks: Marks = {};
    const tail: string[] = [];
    const mark = (name: string): void => {
      if (marks[name] !== undefined) return;
      marks[name] = performance.now() - t0;
      if (name === until) {
        if (cpu) Object.assign(cpu, cpuByRole(child.pid as number));
        clearTimeout(timer);
        process.kill(-(child.pid as number), 'SIGINT');
      }
    };
    const timer = setTimeout(() => {
      process.kill(-(child.pid as number), 'SIGKILL');
      reject(new Error(`${cmd.join(' ')}: no ${until} within ${TIMEOUT_MS / 1000} s; last lines:\n${tail.join('\n')}`));
    }, TIMEOUT_MS);
    createInterface({ input: child.stdout }).on('line', (l) => {
      for (const [name, re] of Object.entries(lines)) if (re.test(l)) mark(name);
    });
    createInterface({ input: child.stderr }).on('line', (l) => {
      tail.push(l.slice(0, 300));
      if (tail.length > 10) tail.shift();
      if (!l.startsWith('{')) return;
      let msg = '';
      try {
        msg = String((JSON.parse(l) as { msg?: unknown }).msg ?? '');
      } catch {
        // Not one JSON record: no log line to time.
        return;
      }
      for (const [name, re] of Object.entries(logs)) if (re.test(msg)) mark(name);
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (marks[until] !== undefined) resolve(marks);
      else reject(new Error(`${cmd.join(' ')} exited before ${until}; last lines:\n${tail.join('\n')}`));
    });
  });
}

/** A bare flying-squid (its default settings, mindlink's version) and a raw mineflayer bot, each in a `node` of its own. */
const BARE_SERVER = `
const { createMCServer } = require('flying-squid');
const serv = createMCServer({ ...require('flying-squid/config/default-settings.json'), port: 0, 'online-mode': false, logging: false, version: '1.21.4',
  worldFolder: undefined, generation: { name: 'superflat', options: {} }, 'view-distance': 4, debug: () => {} });
serv.once('listening', () => console.log('listening ' + serv.listeningPort));
`;
const RAW_BOT = `
const bot = require('mineflayer').createBot({ host: '127.0.0.1', port: Number(process.argv[2]), username: 'raw', version: '1.21.4', hideErrors: true });
bot.once('spawn', () => { console.log('spawned'); bot.end(); });
`;

async function bare(dir: string): Promise<{ server: number; bot: number }> {
  const serverFile = path.join(dir, 'bare-server.cjs');
  const botFile = path.join(dir, 'raw-bot.cjs');
  writeFileSync(serverFile, `module.paths.unshift(${JSON.stringify(path.join(ROOT, 'node_modules'))});${BARE_SERVER}`);
  writeFileSync(botFile, `module.paths.unshift(${JSON.stringify(path.join(ROOT, 'node_modules'))});${RAW_BOT}`);
  // The server stays up while the bot is timed: started here, stopped after.
  const t0 = performance.now();
  const server = spawn(process.execPath, [serverFile], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the bare server did not listen')), TIMEOUT_MS);
    createInterface({ input: server.stdout }).on('line', (l) => {
      const m = /listening (\d+)/.exec(l);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  const serverMs = performance.now() - t0;
  try {
    const bot = await timed([process.execPath, botFile, String(port)], {}, { spawned: /^spawned/ }, {}, 'spawned');
    return { server: serverMs, bot: bot.spawned ?? NaN };
  } finally {
    process.kill(-(server.pid as number), 'SIGKILL');
  }
}

/** CPU by role, in words: the core, the world, the first host, the other hosts, npm and all of them. */
export function cpuLine(cpu: Marks, all = Object.values(cpu).reduce((a, b) => a + b, 0)): string {
  const names: Array<[string, string]> = [['core', 'core'], ['world', 'world'], ['host0', 'first host'], ['hosts', 'other hosts'], ['npm', 'npm']];
  const parts = names.filter(([role]) => cpu[role] !== undefined).map(([role, words]) => `${words} ${(cpu[role]! / 1000).toFixed(2)} s`);
  return `${parts.join(', ')}; all ${(all / 1000).toFixed(2)} s`;
}

export default async function bench(): Promise<void> {
  const say = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  buildFirst();
  say(`start-up, ${RUNS} runs of each (load ${load()})`);
  const ours: Marks[] = [];
  const cpus: Marks[] = [];
  const libs: Array<{ server: number; bot: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-startup-'));
    const cpu: Marks = {};
    cpus.push(cpu);
    try {
      ours.push(
        await timed(
          ['npm', 'start', '--silent'],
          { DATA_DIR: dir, CONSOLE: 'on', LOG_LEVEL: 'debug', WEB: 'off' },
          { ready: /^\[mindlink\] ready/, first: /^\[demo\] / },
          { world: /^embedded world ready$/, hosts: /^avatar hosts ready$/, connecting: /^connecting$/, spawned: /^spawned$/ },
          'first',
          cpu,
        ),
      );
      libs.push(await bare(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const m = ours.at(-1)!;
    const b = libs.at(-1)!;
    const at = (name: string): string => (m[name] !== undefined ? `${(m[name]! / 1000).toFixed(2)} s` : '–');
    say(
      `  run ${i + 1}: npm start → first avatar line ${at('first')} (world ready ${at('world')}, hosts ready ${at('hosts')}, ready line ${at('ready')}, ` +
        `avatar connecting ${at('connecting')}, spawned ${at('spawned')}); bare flying-squid listening ${(b.server / 1000).toFixed(2)} s, ` +
        `raw mineflayer spawned ${(b.bot / 1000).toFixed(2)} s (load ${load()})`,
    );
    if (Object.keys(cpu).length > 0) say(`    CPU used by then: ${cpuLine(cpu)}`);
  }
  const s = (values: number[]): string => `median ${(median(values) / 1000).toFixed(2)} s, best ${(Math.min(...values) / 1000).toFixed(2)} s`;
  say(`npm start → first avatar line: ${s(ours.map((m) => m.first ?? NaN))} (target ≤ 1.2 s on an idle machine)`);
  if (cpus.some((c) => Object.keys(c).length > 0)) {
    const medianOf = (role: string): number => median(cpus.map((c) => c[role] ?? 0));
    const roles = [...new Set(cpus.flatMap((c) => Object.keys(c)))];
    const all = median(cpus.map((c) => Object.values(c).reduce((a, b) => a + b, 0)));
    say(`  CPU used by the first avatar line, median: ${cpuLine(Object.fromEntries(roles.map((r) => [r, medianOf(r)])), all)}`);
  }
  say(`  beside: bare flying-squid listening ${s(libs.map((b) => b.server))}; raw mineflayer spawned ${s(libs.map((b) => b.bot))} (load ${load()})`);
}
