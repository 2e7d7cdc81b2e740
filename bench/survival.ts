/**
 * Survival benchmark: the real process (`src/main.ts`, embedded world, scripted engine, defaults) with a new
 * avatar left alone; how long until its own goals have given it a wooden pickaxe, then a stone pickaxe.
 * It asks `/status` on the console every few seconds and reads the inventory line. Prints figures;
 * asserts nothing. `npm run bench -- survival` runs only this one.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Give up after this long. */
const LIMIT_MS = 15 * 60_000;
const POLL_MS = 5000;
const MILESTONES = ['wooden_pickaxe', 'stone_pickaxe'] as const;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(0)} s`;

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-bench-survival-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, CONSOLE: 'on', LOG_LEVEL: 'warn' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const t0 = performance.now();
  let ready: number | undefined;
  const reached = new Map<string, number>();
  const goals: string[] = [];
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  createInterface({ input: child.stdout }).on('line', (line) => {
    const now = performance.now() - t0;
    if (ready === undefined && /^\[mindlink\] ready/.test(line)) ready = now;
    const goal = /^\[demo\] New goal \(my choice\): (.+)$/.exec(line);
    if (goal?.[1]) goals.push(`${seconds(now)} ${goal[1]}`);
    if (/^\[demo\] inventory: /.test(line)) {
      for (const m of MILESTONES) if (!reached.has(m) && line.includes(`${m}×`)) reached.set(m, now);
      if (MILESTONES.every((m) => reached.has(m))) finish();
    }
  });
  const poll = setInterval(() => child.stdin.write('/status\n'), POLL_MS);
  const limit = setTimeout(finish, LIMIT_MS);
  try {
    await Promise.race([finished, exited]);
  } finally {
    clearInterval(poll);
    clearTimeout(limit);
    if (child.exitCode === null) {
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  const since = ready ?? 0;
  console.log(`new avatar left alone on the embedded world (scripted engine, default pacing); ready ${seconds(since)} after start`);
  for (const m of MILESTONES) {
    const at = reached.get(m);
    console.log(`  first ${m}: ${at === undefined ? `not within ${seconds(LIMIT_MS)}` : `${seconds(at - since)} after ready`}`);
  }
  console.log(`  its own goals: ${goals.join(' → ') || 'none'}`);
}
