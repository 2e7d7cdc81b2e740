/**
 * Whole-product scale: the real mindlink process as `npm start` runs it (its build; core, scripted engine,
 * outbox, store, console bridge, mineflayer avatars on the embedded world),
 * grown step by step (1, 25, 50, 100 avatars) from the console as an owner
 * would, each avatar given a `collect` goal (then it works on goals of its own). It prints a line as it goes (every
 * few seconds while avatars spawn, and one per step), so a run that stalls
 * still says where, and a table at the end. mindlink's cost (its own process,
 * and its avatar hosts) is told apart from the embedded world's (its own
 * process: memory, CPU, event-loop delay from its `world health` lines).
 * Asserts nothing.
 *
 * `SCALE_STEPS=1,5` and `SCALE_HOSTS=1` (comma lists) pick other steps and
 * host settings (`AVATAR_HOSTS` of each run); `SCALE_WINDOW_S` the measuring
 * window of each step. `SCALE_CPU_PROF=dir` runs every process of the run (mindlink, its hosts, the world)
 * with `--cpu-prof` into `dir/hosts=N/`, and prints each step's measuring window in the profiles' clock
 * (`bench/tools/cpu-profile.ts --from … --to …` summarises that window). `SCALE_LOG=file` keeps every line the
 * process wrote (stdout and its JSON log on stderr), each stamped with the seconds since start and `out`/`err`
 * (`.hosts=N` is added to the name per host setting), to count skill results afterwards.
 */
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { removeEvidence, startProcess, stopGracefully, tempDir, until, type Proc } from '../chaos/harness.ts';
import { comparison, natsAsked, overNats, type OverNats } from './scale-nats.ts';
import { fmt, hostsHeap, load, LogReader, marks, median, pct, processes, rssMb, window } from './tools/scale-readings.ts';

const STEPS = list(process.env.SCALE_STEPS, [1, 25, 50, 100]);
const HOSTS = list(process.env.SCALE_HOSTS, [1, 2]);
const WINDOW_MS = Number(process.env.SCALE_WINDOW_S ?? 60) * 1000;
const CPU_PROF = process.env.SCALE_CPU_PROF;
const LOG = process.env.SCALE_LOG;
/** A step whose spawn count has not moved for this long is reported as stalled, and the run ends there. */
const STALL_MS = 180_000;
const PROGRESS_EVERY_MS = 10_000;
const GOAL = 'collect 3 oak logs';

function list(raw: string | undefined, fallback: number[]): number[] {
  const parsed = (raw ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return parsed.length > 0 ? parsed : fallback;
}

/** Longest wait for one `/status` reply; a reply that does not come in time counts as this long. */
const STATUS_WAIT_MS = 60_000;

/** Type `/status demo` and time the first line of its reply (`STATUS_WAIT_MS` when none came in time). */
async function statusTime(proc: Proc): Promise<number> {
  const before = proc.stdout.length;
  const t = performance.now();
  proc.send('/status demo');
  try {
    await until(() => proc.stdout.slice(before).some((l) => /^\[demo\] (stopped|choosing|working|wrapup|waiting)/.test(l)), 'a /status reply', STATUS_WAIT_MS, 2);
  } catch (err) {
    process.stdout.write(`  (${(err as Error).message} within ${STATUS_WAIT_MS / 1000} s)\n`);
  }
  return performance.now() - t;
}

/** One step's figures. */
interface StepFigures {
  avatars: number;
  spawned: number;
  spawnS: number;
  stalled: boolean;
  rssCoreMb: number;
  rssHostsMb: number;
  rssWorldMb: number;
  coreP50: number;
  coreP99: number;
  coreWorstP99: number;
  coreCpu: number;
  hostsP99: number;
  hostsCpu: number;
  /** The avatars' side: the event loop of the processes they play in (the hosts, or mindlink's own with one), its CPU per working avatar, their physics ticks per second. */
  avatarsP50: number;
  avatarsP99: number;
  cpuPerAvatar: number;
  physicsTps: number;
  physicsTpsLow: number;
  gcPct: number;
  gcMaxMs: number;
  worldP99: number;
  worldCpu: number;
  statusP50: number;
  statusP99: number;
  donePerMin: number;
  load: string;
}


/** The figures of one run (one `AVATAR_HOSTS` setting). */
interface RunFigures {
  hosts: number;
  idleStatusP50: number;
  steps: StepFigures[];
}


async function run(hosts: number, say: (line: string) => void, nats?: OverNats): Promise<RunFigures> {
  const dataDir = await tempDir('scale');
  const profDir = CPU_PROF ? path.resolve(CPU_PROF, `hosts=${hosts}`) : undefined;
  // The hosts and the world are started with the same flags (src/game/profiling-args.ts).
  const proc = startProcess(
    { DATA_DIR: dataDir, LOG_LEVEL: 'debug', HEALTH_LOG_MS: '1000', LOOP_PACE_MS: '3000', AVATAR_HOSTS: String(hosts), WEB: 'off' },
    profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
    // As `npm start` runs it: from the build.
    { build: true },
  );
  const figures: RunFigures = { hosts, idleStatusP50: NaN, steps: [] };
  const keep = LOG ? createWriteStream(`${LOG}.hosts=${hosts}`) : undefined;
  if (keep) {
    const t0 = performance.now();
    const stamp = (from: string) => (line: string): void => void keep.write(`${((performance.now() - t0) / 1000).toFixed(1)} ${from} ${line}\n`);
    createInterface({ input: proc.child.stdout as NodeJS.ReadableStream }).on('line', stamp('out'));
    createInterface({ input: proc.child.stderr as NodeJS.ReadableStream }).on('line', stamp('err'));
  }
  const tag = nats?.tag ?? `[hosts=${hosts}]`;
  nats?.attach(proc);
  // Each avatar is given a collect goal as it joins, then works on its own goals (the curriculum): every
  // `Done:` counts. (Giving a new goal on every `Done:` would queue the bench's own commands before the
  // /status it times: the console answers one line at a time.)
  const goalOf = (name: string): string => `/goal ${GOAL} ${name}`;
  const working = new Set<string>();
  const doneCount = (): number => proc.stdout.filter((l) => /^\[\w+\] Done: /.test(l)).length;
  try {
    await proc.line(/^\[mindlink\] ready/, 120_000);
    const logs = new LogReader(proc);
    await until(() => logs.update().spawned.has('demo'), 'demo to spawn', 120_000);
    await new Promise((r) => setTimeout(r, 3000));
    const idle: number[] = [];
    for (let i = 0; i < 20; i += 1) idle.push(await statusTime(proc));
    figures.idleStatusP50 = median(idle);
    say(`${tag} idle /status round trip p50 ${fmt(figures.idleStatusP50, 1)} ms, p99 ${fmt(pct(idle, 99), 1)} ms (load ${load()})`);
    let count = 1;
    const rssAtOne = { total: NaN };
    for (const target of STEPS) {
      const t0 = performance.now();
      const names: string[] = count === 1 && !working.has('demo') ? ['demo'] : [];
      while (count < target) {
        count += 1;
        const name = `bench${String(count).padStart(3, '0')}`;
        names.push(name);
        proc.send(`/avatar create ${name}`);
        proc.send(`/play ${name}`);
      }
      let lastCount = logs.update().spawned.size;
      let lastMove = performance.now();
      let lastSay = performance.now();
      let stalled = false;
      let from = marks(logs);
      while (logs.update().spawned.size < target) {
        await new Promise((r) => setTimeout(r, 250));
        const now = performance.now();
        if (logs.spawned.size !== lastCount) {
          lastCount = logs.spawned.size;
          lastMove = now;
        }
        if (now - lastSay >= PROGRESS_EVERY_MS) {
          const w = window(logs, from);
          from = marks(logs);
          const { worldPid, hostPids } = processes(logs);
          const hostsRss = hostPids.reduce((s, p) => s + rssMb(p), 0);
          say(
            `${tag}   ${logs.spawned.size}/${target} spawned, ${fmt((now - t0) / 1000)} s; mindlink ${fmt(rssMb(proc.pid))} MB${hostPids.length ? ` + hosts ${fmt(hostsRss)} MB` : ''}, ` +
              `loop p50 ${fmt(w.coreP50)} / p99 ${fmt(w.coreP99)} ms, CPU ${fmt(w.coreCpu)} %; ` +
              `world ${fmt(worldPid ? rssMb(worldPid) : NaN)} MB, loop p50 ${fmt(w.worldP50)} / p99 ${fmt(w.worldP99)} ms, CPU ${fmt(w.worldCpu)} %; ` +
              `spawn timeouts ${logs.spawnTimeouts} (load ${load()})`,
          );
          lastSay = now;
        }
        if (now - lastMove > STALL_MS) {
          stalled = true;
          break;
        }
      }
      const spawnS = (performance.now() - t0) / 1000;
      for (const name of names) {
        working.add(name);
        proc.send(goalOf(name));
      }
      say(`${tag} ${logs.spawned.size}/${target} spawned in ${fmt(spawnS, 1)} s${stalled ? ` — STALLED: no new spawn in ${STALL_MS / 1000} s` : ''}; ${names.length} given "${GOAL}" (load ${load()})`);
      // Every goal acknowledged (the console answers one line at a time), then let them start and walk off.
      const acked = (): number => names.filter((n) => proc.stdout.some((l) => l.startsWith(`[${n}] New goal from console: ${GOAL}`))).length;
      await until(() => acked() >= names.length, `${names.length} goals to be acknowledged`, STALL_MS, 500).catch(() => say(`${tag}   only ${acked()} of ${names.length} goals acknowledged`));
      await new Promise((r) => setTimeout(r, 15_000));
      const start = marks(logs.update());
      const doneBefore = doneCount();
      const t1 = performance.now();
      const profFrom = process.hrtime.bigint() / 1000n;
      const status: number[] = [];
      while (performance.now() - t1 < WINDOW_MS) {
        status.push(await statusTime(proc));
        await new Promise((r) => setTimeout(r, 1000));
      }
      const minutes = (performance.now() - t1) / 60_000;
      const profTo = process.hrtime.bigint() / 1000n;
      const w = window(logs.update(), start);
      const { worldPid, hostPids } = processes(logs);
      const step: StepFigures = {
        avatars: target,
        spawned: logs.spawned.size,
        spawnS,
        stalled,
        rssCoreMb: rssMb(proc.pid),
        rssHostsMb: hostPids.reduce((s, p) => s + rssMb(p), 0),
        rssWorldMb: worldPid ? rssMb(worldPid) : NaN,
        coreP50: w.coreP50,
        coreP99: w.coreP99,
        coreWorstP99: w.coreWorstP99,
        coreCpu: w.coreCpu,
        hostsP99: w.hostsP99,
        hostsCpu: w.hostsCpu,
        avatarsP50: hostPids.length ? w.hostsP50 : w.coreP50,
        avatarsP99: hostPids.length ? w.hostsP99 : w.coreP99,
        cpuPerAvatar: (hostPids.length ? w.hostsCpu : w.coreCpu) / target,
        physicsTps: w.physicsTps,
        physicsTpsLow: w.physicsTpsLow,
        gcPct: w.gcPct,
        gcMaxMs: w.gcMaxMs,
        worldP99: w.worldP99,
        worldCpu: w.worldCpu,
        statusP50: median(status),
        statusP99: pct(status, 99),
        donePerMin: (doneCount() - doneBefore) / minutes,
        load: load(),
      };
      figures.steps.push(step);
      const total = step.rssCoreMb + step.rssHostsMb;
      if (target === 1) rssAtOne.total = total;
      const perAvatar = target > 1 ? (total - rssAtOne.total) / (target - 1) : NaN;
      say(
        `${tag} STEP ${target} working: mindlink ${fmt(step.rssCoreMb)} MB${hostPids.length ? ` + hosts ${fmt(step.rssHostsMb)} MB` : ''}` +
          `${Number.isFinite(perAvatar) ? ` (+${fmt(perAvatar, 1)} MB per avatar after the first)` : ''}, world ${fmt(step.rssWorldMb)} MB; ` +
          `core loop p50 ${fmt(step.coreP50)} / p99 ${fmt(step.coreP99)} ms (worst 1-s window ${fmt(step.coreWorstP99)}), CPU ${fmt(step.coreCpu)} %` +
          `${hostPids.length ? `; hosts ${fmt(hostsHeap(logs, start))} MB heap used, CPU ${fmt(step.hostsCpu)} %` : ''}; ` +
          `avatars' side: loop p50 ${fmt(step.avatarsP50)} / p99 ${fmt(step.avatarsP99)} ms, CPU ${fmt(step.cpuPerAvatar, 2)} % per working avatar, ` +
          `physics ${fmt(step.physicsTps, 1)} ticks/s (slowest tenth ${fmt(step.physicsTpsLow, 1)}), GC ${fmt(step.gcPct, 1)} % of the time, longest pause ${fmt(step.gcMaxMs)} ms; ` +
          `world loop p99 ${fmt(step.worldP99)} ms, CPU ${fmt(step.worldCpu)} %; ` +
          `/status p50 ${fmt(step.statusP50, 1)} ms, p99 ${fmt(step.statusP99, 1)} ms (${fmt(step.statusP50 / figures.idleStatusP50, 1)}× idle); ` +
          `${fmt(step.donePerMin, 1)} goals done/min, ${fmt(step.donePerMin / target, 2)} per avatar (load ${step.load})`,
      );
      if (profDir) say(`${tag}   profile window of step ${target}: --from ${profFrom} --to ${profTo}; mindlink pid ${proc.pid}, hosts ${hostPids.join(', ') || '–'}, world ${worldPid ?? '–'} (profiles in ${profDir})`);
      if (stalled) break;
    }
  } finally {
    await stopGracefully(proc, 180_000);
    keep?.end();
    await removeEvidence();
  }
  return figures;
}

/** The table of docs/guarantees.md "Scale", pasted there as is: one row per step, the host settings side by side in each cell. */
function table(runs: RunFigures[]): string {
  const head = runs.map((r) => `AVATAR_HOSTS=${r.hosts}`).join(' / ');
  const rows = [
    `| working avatars (${head}) | spawned | RSS mindlink (+ hosts) per avatar | core event-loop p99 | /status round trip (× idle) | goals done / min (per avatar) | avatars' loop p50 / p99 | CPU per working avatar | physics ticks/s (slowest tenth) | avatars' GC (time, longest pause) | world CPU, loop p99 | load |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const n of STEPS) {
    const cells = runs.map((r) => {
      const s = r.steps.find((x) => x.avatars === n);
      const first = r.steps[0];
      const per = s && first && n > first.avatars ? (s.rssCoreMb + s.rssHostsMb - first.rssCoreMb - first.rssHostsMb) / (n - first.avatars) : NaN;
      return { s, per, idle: r.idleStatusP50 };
    });
    const join = (f: (s: StepFigures, c: (typeof cells)[number]) => string): string => cells.map((c) => (c.s ? f(c.s, c) : '–')).join(' / ');
    rows.push(
      `| ${n} | ${join((s) => `${s.spawned}${s.stalled ? ' (stalled)' : ''}`)} | ` +
        `${join((s, c) => (Number.isFinite(c.per) ? `${fmt(c.per, 1)} MB` : `${fmt(s.rssCoreMb + s.rssHostsMb)} MB in all`))} | ` +
        `${join((s) => `${fmt(s.coreP99)} ms`)} | ` +
        `${join((s, c) => `${fmt(s.statusP50, 1)} ms (${fmt(s.statusP50 / c.idle, 1)}×)`)} | ` +
        `${join((s) => `${fmt(s.donePerMin, 1)} (${fmt(s.donePerMin / n, 2)})`)} | ` +
        `${join((s) => `${fmt(s.avatarsP50)} / ${fmt(s.avatarsP99)} ms`)} | ` +
        `${join((s) => `${fmt(s.cpuPerAvatar, 2)} %`)} | ` +
        `${join((s) => `${fmt(s.physicsTps, 1)} (${fmt(s.physicsTpsLow, 1)})`)} | ` +
        `${join((s) => `${fmt(s.gcPct, 1)} %, ${fmt(s.gcMaxMs)} ms`)} | ` +
        `${join((s) => `${fmt(s.worldCpu)} %, ${fmt(s.worldP99)} ms`)} | ` +
        `${join((s) => s.load)} |`,
    );
  }
  return rows.join('\n');
}

export default async function bench(): Promise<void> {
  const say = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  // `--hosts nats` (scale-nats.ts): `AVATAR_HOSTS=<n>` children, then <n> hosts over NATS, compared.
  if (natsAsked()) {
    const n = Number(process.env.SCALE_NATS_HOSTS ?? 2);
    say(`steps ${STEPS.join(', ')}; AVATAR_HOSTS=${n}, then ${n} hosts over NATS; each avatar given "${GOAL}" as it joins; ${WINDOW_MS / 1000} s measured per step (load ${load()})`);
    const ipc = await run(n, say);
    const nats = await overNats(n, say, (over) => run(n, say, over));
    say('');
    say(comparison(ipc, `AVATAR_HOSTS=${n}`, nats, `NATS ×${n}`));
    return;
  }
  say(`steps ${STEPS.join(', ')}; AVATAR_HOSTS ${HOSTS.join(', ')}; each avatar given "${GOAL}" as it joins, then its own goals; ${WINDOW_MS / 1000} s measured per step (load ${load()})`);
  const runs: RunFigures[] = [];
  for (const hosts of HOSTS) runs.push(await run(hosts, say));
  say('');
  say(table(runs));
  for (const r of runs) {
    const last = r.steps.at(-1);
    const base = r.steps.find((x) => x.avatars === 25) ?? r.steps[0];
    if (last && base && last !== base) {
      say(`AVATAR_HOSTS=${r.hosts}: goals done per minute at ${last.avatars} are ${fmt(last.donePerMin / base.donePerMin, 2)}× those at ${base.avatars} (${fmt(last.avatars / base.avatars, 1)}× the avatars)`);
    }
  }
}
