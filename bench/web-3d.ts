/**
 * What an open 3D view costs the core (part of `npm run bench -- web`): the real process (the embedded
 * world, demo walking back and forth) and a real headless Chromium, one page switched between the
 * dashboard's rows (no 3D view) and demo's world view (its map and its 3D view), and, beside the rows, the
 * 3D stream read without drawing (what the core itself does for a view), several rounds each; the
 * core's event-loop delay from its own `health` lines. Chromium runs at the lowest priority, standing in
 * for the viewer's own machine (its drawing, on the CPU here, would otherwise compete with the core). Run
 * with the avatars in the core's process (where the blocks are read on the core's event loop) and on an
 * avatar host. Also the 3D stream's bytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../test/bridges/browser.ts';
import { startMindlink, type MindlinkProcess } from '../test/e2e/process.ts';

/** How often the core logs its health (ms): one reading per health line. */
const HEALTH_MS = 2000;
/** Rounds per condition; each round drops the reading taken across the switch and keeps the next two. */
const ROUNDS = 8;

interface Health {
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  cpuPct: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** The next `health` line of the core's log from now on. */
async function nextHealth(m: MindlinkProcess): Promise<Health> {
  const line = await m.logLine(/"msg":"health"/, HEALTH_MS * 4);
  return JSON.parse(line) as Health;
}

/** Signed in: the page on the dashboard's rows. */
async function signIn(m: MindlinkProcess, page: Page): Promise<string> {
  m.send('/web');
  const link = /(http:\S+\/login#\S+)/.exec(await m.line(/^\[mindlink\] Your dashboard: /))?.[1] ?? '';
  const origin = new URL(link).origin;
  await page.goto(link);
  await page.waitForURL(`${origin}/`);
  await page.locator('[data-avatar="demo"]').waitFor();
  return origin;
}

/** The 3D stream read as a page reads it, without drawing: its bytes so far, and how to end it. */
async function openStream(origin: string, cookie: string): Promise<{ bytes: () => number; close: () => Promise<void> }> {
  const controller = new AbortController();
  const res = await fetch(`${origin}/api/avatars/demo/scene`, { headers: { Cookie: cookie }, signal: controller.signal });
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`the 3D stream answered ${res.status}`);
  let bytes = 0;
  const reading = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done || !chunk.value) return;
      bytes += chunk.value.length;
    }
  })();
  return {
    bytes: () => bytes,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

type Condition = 'none' | 'stream' | 'view';
/** The order of the conditions, over and over: each comes before and after each other alike. */
const ORDER: Condition[] = ['none', 'stream', 'view', 'view', 'stream', 'none'];

async function oneRun(browser: Browser, hosts: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-bench-web-3d-'));
  const m = startMindlink({ DATA_DIR: dir, LOG_LEVEL: 'debug', HEALTH_LOG_MS: String(HEALTH_MS), AVATAR_HOSTS: String(hosts) });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 760 } });
  try {
    await m.line(/^\[mindlink\] ready/, 120_000);
    await m.line(/^\[demo\] New goal \(my choice\): /, 60_000);
    const page = await ctx.newPage();
    const origin = await signIn(m, page);
    const cookie = (await ctx.cookies(origin)).map((c) => `${c.name}=${c.value}`).join('; ');
    // demo walks back and forth 16 blocks, a new leg every reading (before it arrives), in every condition alike.
    let leg = 0;
    const walk = (): void => m.send(`Goal: go to ${leg % 2 ? -8 : 8} 64 ${leg++ % 2 ? -3 : 3}`);
    const reading = (): Promise<Health> => {
      walk();
      return nextHealth(m);
    };
    const samples: Record<Condition, Health[]> = { none: [], stream: [], view: [] };
    for (let round = 0; round < ROUNDS * 3; round++) {
      const condition = ORDER[round % ORDER.length] ?? 'none';
      await page.goto(condition === 'view' ? `${origin}/avatar/demo/world` : `${origin}/`);
      if (condition === 'view') await page.locator('[data-scene-caption]').filter({ hasText: /^demo at / }).waitFor({ timeout: 30_000 });
      const stream = condition === 'stream' ? await openStream(origin, cookie) : null;
      // Chromium sets its renderers' priorities itself as pages come and go: lowered again after each switch.
      browserLast();
      await reading();
      samples[condition].push(await reading(), await reading());
      await stream?.close();
    }
    const p99 = (c: Condition): number => median(samples[c].map((h) => h.loopDelayP99Ms));
    const cpu = (c: Condition): string => `${median(samples[c].map((h) => h.cpuPct)).toFixed(0)}%`;
    const where = hosts > 1 ? `demo on an avatar host (AVATAR_HOSTS=${hosts})` : 'demo in the core’s process (AVATAR_HOSTS=1)';
    console.log(`3D view, ${where}, demo walking; core event-loop p99, the median of ${samples.none.length} ${HEALTH_MS / 1000}-s readings each:`);
    console.log(`  no view ${p99('none').toFixed(1)} ms (core CPU ${cpu('none')})`);
    console.log(`  one view's stream, read without drawing: ${p99('stream').toFixed(1)} ms, ×${(p99('stream') / p99('none')).toFixed(2)} (core CPU ${cpu('stream')})`);
    console.log(`  one view open in Chromium (the world view: map and 3D, drawn on this machine's CPUs): ${p99('view').toFixed(1)} ms, ×${(p99('view') / p99('none')).toFixed(2)} (core CPU ${cpu('view')})`);
    if (hosts === 1) {
      await page.goto(`${origin}/`);
      const walking = setInterval(walk, HEALTH_MS);
      const stream = await openStream(origin, cookie);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const first = stream.bytes();
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      const perSecond = (stream.bytes() - first) / 10;
      await stream.close();
      clearInterval(walking);
      console.log(`3D stream: ${first.toLocaleString('en-US')} bytes in its first 2 s (pose and every block in reach), then ${Math.round(perSecond).toLocaleString('en-US')} bytes/s while demo walks (poses and changed blocks only)`);
    }
  } finally {
    await ctx.close();
    m.child.kill('SIGTERM');
    await m.exited;
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Chromium's processes at the lowest priority (nice 19): it stands in for a viewer's own machine, and on
 * this one it would otherwise take the CPUs the core runs on.
 */
function browserLast(): void {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .map(([pid, ppid, comm]) => ({ pid: Number(pid), ppid: Number(ppid), comm: comm ?? '' }));
  // This process's descendants (the mindlink processes are among them; only Chromium's are named so).
  const ours = new Set([process.pid]);
  let size = 0;
  while (ours.size !== size) {
    size = ours.size;
    for (const r of rows) if (ours.has(r.ppid)) ours.add(r.pid);
  }
  const pids = rows.filter((r) => ours.has(r.pid) && /chrom/i.test(r.comm)).map((r) => String(r.pid));
  if (pids.length) execFileSync('renice', ['-n', '19', '-p', ...pids]);
}

/** Print the 3D view's cost to the core, in-process and on an avatar host, and its stream's bytes. */
export async function sceneCost(): Promise<void> {
  const browser = await launchChromium();
  try {
    await oneRun(browser, 1);
    await oneRun(browser, 2);
  } finally {
    await browser.close();
  }
}
