/**
 * Survival benchmark: the real process (`src/main.ts`, embedded world, scripted engine, defaults) with a new
 * avatar left alone for 20 minutes: how long until its own goals have given it a wooden, a stone and an iron
 * pickaxe, how many nights it lived through and how often it died. It asks `/status` on the console every
 * few seconds (the inventory line) and what time it is (the game's clock, from the avatar's answer), and reads
 * the log (at debug level) for deaths, reflexes and skill runs: for each of its own goals how long it ran, how it
 * ended and where the time went (survival-report.ts), and each death's cause, place, tick and goal.
 * SURVIVAL_LOG=file keeps every line the process wrote. Prints figures; asserts nothing.
 * `npm run bench -- survival` runs only this one.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SurvivalTimeline } from './survival-report.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** How long the avatar is left alone. */
const RUN_MS = 20 * 60_000;
const POLL_MS = 5000;
const MILESTONES = ['wooden_pickaxe', 'stone_pickaxe', 'iron_pickaxe'] as const;
/** Vanilla's night, when monsters spawn (ticks of the day). */
const isNight = (tick: number): boolean => tick >= 13_188 && tick < 22_812;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(0)} s`;

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-bench-survival-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    // The debug log says when each skill run starts and ends (the time per goal below).
    env: { ...process.env, DATA_DIR: dir, CONSOLE: 'on', LOG_LEVEL: process.env.LOG_LEVEL ?? 'debug' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  /** How the process ended, when it ended before the run did (said in the figures: they then cover less). */
  let earlyEnd: string | undefined;
  let stopping = false;
  /** The last lines on stderr, to say why the process ended early. */
  const tail: string[] = [];
  const exited = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      if (!stopping) earlyEnd = `after ${seconds(performance.now() - t0)} (code ${code}, signal ${signal}): ${tail.join(' | ')}`;
      resolve();
    }),
  );
  const t0 = performance.now();
  /** SURVIVAL_LOG=file keeps every line the process wrote, stamped with the seconds since start. */
  const keep = process.env.SURVIVAL_LOG ? createWriteStream(process.env.SURVIVAL_LOG) : undefined;
  const stamp = (from: string, line: string): void => {
    keep?.write(`${((performance.now() - t0) / 1000).toFixed(1)} ${from} ${line}\n`);
  };
  let ready: number | undefined;
  const reached = new Map<string, number>();
  const goals: string[] = [];
  const timeline = new SurvivalTimeline();
  const deaths: number[] = [];
  const reflexes = new Map<string, number>();
  /** Nights seen: when each began and ended (ms since start), and whether a death fell in it. */
  const nights: Array<{ from: number; to?: number }> = [];
  let lastTick: number | undefined;

  createInterface({ input: child.stdout }).on('line', (line) => {
    stamp('out', line);
    const now = performance.now() - t0;
    if (ready === undefined && /^\[mindlink\] ready/.test(line)) ready = now;
    const goal = /^\[demo\] New goal \(my choice\): (.+)$/.exec(line);
    if (goal?.[1]) {
      goals.push(`${seconds(now - (ready ?? 0))} ${goal[1]}`);
      timeline.goal(goal[1], now);
    }
    const done = /^\[demo\] Done: (.+)$/.exec(line);
    if (done?.[1]) timeline.done(done[1], now);
    if (/^\[demo\] inventory: /.test(line)) for (const m of MILESTONES) if (!reached.has(m) && line.includes(`${m}×`)) reached.set(m, now);
    const tick = /\(tick (\d+) of 24000\)/.exec(line);
    if (tick?.[1]) {
      const t = Number(tick[1]);
      const open = nights[nights.length - 1];
      if (isNight(t) && (!open || open.to !== undefined)) nights.push({ from: now });
      else if (!isNight(t) && open && open.to === undefined) open.to = now;
      lastTick = t;
      timeline.tick(t);
    }
  });
  createInterface({ input: child.stderr }).on('line', (line) => {
    stamp('err', line);
    tail.push(line.slice(0, 300));
    if (tail.length > 5) tail.shift();
    if (!line.startsWith('{')) return;
    let entry: { msg?: string; avatar?: string; reflex?: string; code?: string; skill?: string; ok?: boolean; ms?: number; cause?: string; position?: { x: number; y: number; z: number } };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      // A log line that is not JSON (pino always writes JSON; a stray line is not a figure).
      return;
    }
    if (entry.avatar !== 'demo') return;
    const now = performance.now() - t0;
    if (entry.msg === 'died') {
      deaths.push(now);
      timeline.died(now, entry.cause ?? 'cause unknown', entry.position);
    }
    if (entry.reflex && entry.msg?.startsWith('reflex: ')) reflexes.set(entry.reflex, (reflexes.get(entry.reflex) ?? 0) + 1);
    if (entry.reflex && entry.msg?.startsWith(`reflex ${entry.reflex}: `) && entry.ms !== undefined) timeline.reflexEnded(entry.reflex, entry.ms);
    if (entry.skill && entry.msg === 'running a skill') timeline.skillStarted(entry.skill, now);
    else if (entry.skill && entry.ok !== undefined && entry.code) timeline.skillEnded(entry.skill, now);
  });
  let polls = 0;
  const poll = setInterval(() => {
    child.stdin.write(polls++ % 2 === 0 ? '/status\n' : 'what time is it?\n');
  }, POLL_MS / 2);
  try {
    await Promise.race([new Promise((r) => setTimeout(r, RUN_MS + (ready ?? 60_000))), exited]);
  } finally {
    clearInterval(poll);
    if (child.exitCode === null) {
      stopping = true;
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
    keep?.end();
  }
  const since = ready ?? 0;
  console.log(`new avatar left alone on the embedded world for ${seconds(RUN_MS)} (scripted engine, default pacing); ready ${seconds(since)} after start`);
  if (earlyEnd) console.log(`  THE PROCESS ENDED BEFORE THE RUN DID, ${earlyEnd}`);
  for (const m of MILESTONES) {
    const at = reached.get(m);
    console.log(`  first ${m}: ${at === undefined ? `not within the run` : `${seconds(at - since)} after ready`}`);
  }
  const inNight = (t: number): boolean => nights.some((n) => t >= n.from && t <= (n.to ?? Infinity));
  const lived = nights.filter((n) => n.to !== undefined && !deaths.some((d) => d >= n.from && d <= (n.to as number))).length;
  console.log(`  nights: ${nights.length} began, ${nights.filter((n) => n.to !== undefined).length} ended, ${lived} lived through without dying (game clock at the end: tick ${lastTick ?? '?'})`);
  console.log(`  deaths: ${deaths.length} (${deaths.filter(inNight).length} at night)${deaths.length ? ` at ${deaths.map((d) => seconds(d - since)).join(', ')}` : ''}`);
  console.log(`  reflexes fired: ${[...reflexes].map(([r, n]) => `${r} ${n}`).join(', ') || 'none'}`);
  console.log(`  its own goals: ${goals.join(' → ') || 'none'}`);
  for (const line of timeline.lines(since, performance.now() - t0)) console.log(line);
}
