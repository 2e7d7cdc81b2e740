/**
 * What one more avatar costs an avatar host, measured apart from the rest of mindlink: the embedded world in
 * its child process, and this process playing the avatars as a host does (mineflayer games with their
 * reflexes, a skill registry each). Grown step by step (`MEM_STEPS`, default 1,10,30), each avatar sent a few
 * blocks away from the spawn (so the columns each one holds are not all the same ones), then, after a full
 * garbage collection, the process's RSS, V8 heap and external memory (Buffers, typed arrays) are printed with
 * the cost per avatar added since the step before. `MEM_SNAPSHOTS=dir` writes a heap snapshot at each step
 * into `dir` (`bench/tools/heap-diff.ts` compares two of them). With `MEM_WORK_S=n`, at each step the avatars
 * first work for n seconds (each in turn walks to a place up to 40 blocks off, picked by a seeded random source,
 * and collects a log), and the readings are taken while they work, with no forced collection: the process's RSS,
 * its committed and used V8 heap, and the CPU and garbage collection time it took over the window.
 *
 * Run: `node --expose-gc --import tsx bench/tools/avatar-memory.ts`.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { AVATAR_BRAND, EMBEDDED_CAPABILITIES, MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { silentLogger } from '../../src/logger.ts';
import { createSkillRegistry, type SkillRegistry } from '../../skills/index.ts';
import { rng } from '../../chaos/harness.ts';
import { Reflexes } from '../../skills/reflexes.ts';

const STEPS = (process.env.MEM_STEPS ?? '1,10,30').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
const SNAPSHOTS = process.env.MEM_SNAPSHOTS;
const WORK_MS = Number(process.env.MEM_WORK_S ?? 0) * 1000;
const log = silentLogger();
const mb = (n: number): string => (n / 1024 / 1024).toFixed(1);

interface Reading {
  rss: number;
  heap: number;
  external: number;
  arrayBuffers: number;
}

async function settle(): Promise<Reading> {
  const gc = (globalThis as { gc?: (o?: unknown) => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 200));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}

/** Garbage collection time (ms) since the process started, by kind (`minor`, `major` …). */
const gcMs = { total: 0, major: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcMs.total += e.duration;
    // NODE_PERFORMANCE_GC_MAJOR is 4.
    if ((e.detail as { kind?: number } | undefined)?.kind === 4) gcMs.major += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

/** Each V8 heap space's size and use, for those over 1 MB. */
function spaces(): string {
  return getHeapSpaceStatistics()
    .filter((s) => s.space_size > 1 << 20)
    .map((s) => `${s.space_name.replace('_space', '')} ${mb(s.space_used_size)}/${mb(s.space_size)}`)
    .join(', ');
}

/** While `until` has not passed, each avatar walks to a random place near it and collects a log, in turn. */
async function work(game: MineflayerGame, skills: SkillRegistry, random: () => number, until: number): Promise<void> {
  const signal = AbortSignal.timeout(Math.max(1, until - Date.now()));
  while (Date.now() < until && game.bot) {
    const at = game.bot.entity.position;
    await skills.run('go_to', { x: Math.round(at.x + (random() - 0.5) * 80), y: Math.round(at.y), z: Math.round(at.z + (random() - 0.5) * 80), range: 3 }, signal);
    if (Date.now() >= until) break;
    await skills.run('collect', { item: 'log', count: 1 }, signal);
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-mem-'));
  const games: MineflayerGame[] = [];
  const reflexes: Reflexes[] = [];
  const registries: SkillRegistry[] = [];
  const random = rng(7);
  const world = await EmbeddedWorld.start({ dataDir: dir, log });
  const join = async (name: string, i: number): Promise<void> => {
    const game = new MineflayerGame({ username: name, host: world.host, port: world.port, version: world.version, log, capabilities: EMBEDDED_CAPABILITIES, brand: AVATAR_BRAND });
    const r = new Reflexes(game, log);
    r.start();
    const skills = createSkillRegistry(game);
    const connected = once(game, 'connected');
    await game.start();
    await connected;
    // Spread out on a ring (radius 24-48 blocks) so each holds columns of its own as well as shared ones.
    const angle = (i * 2.399963) % (2 * Math.PI);
    const radius = 24 + (i % 4) * 8;
    await world.teleport(name, { x: Math.round(Math.cos(angle) * radius) + 0.5, y: 64, z: Math.round(Math.sin(angle) * radius) + 0.5 });
    games.push(game);
    reflexes.push(r);
    registries.push(skills);
  };
  try {
    let prev: { n: number; r: Reading } | undefined;
    for (const target of STEPS) {
      while (games.length < target) {
        const batch = Array.from({ length: Math.min(5, target - games.length) }, (_, k) => join(`mem${String(games.length + k).padStart(3, '0')}`, games.length + k));
        await Promise.all(batch);
      }
      // The columns around the new places arrive after the teleport.
      await new Promise((r) => setTimeout(r, 5000));
      if (WORK_MS > 0) {
        const until = Date.now() + WORK_MS;
        const working = Promise.all(games.map((g, i) => work(g, registries[i]!, random, until)));
        // The readings are those of the second half of the window (the heap has grown to what the work needs).
        await new Promise((r) => setTimeout(r, WORK_MS / 2));
        const cpu = process.cpuUsage();
        const gc = { ...gcMs };
        const t = performance.now();
        const peak = { rss: 0, heapTotal: 0, heapUsed: 0 };
        const sampler = setInterval(() => {
          const m = process.memoryUsage();
          peak.rss = Math.max(peak.rss, m.rss);
          peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
          peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
        }, 500);
        await working;
        clearInterval(sampler);
        const ms = performance.now() - t;
        const used = process.cpuUsage(cpu);
        const m = process.memoryUsage();
        console.log(
          `${String(target).padStart(3)} working: RSS ${mb(m.rss)} MB (peak ${mb(peak.rss)}), heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)} MB committed (peak ${mb(peak.heapTotal)}), ` +
            `external ${mb(m.external)} MB; ${spaces()}; CPU ${((used.user + used.system) / 10 / ms).toFixed(0)} %, GC ${((100 * (gcMs.total - gc.total)) / ms).toFixed(1)} % of the time (major ${((100 * (gcMs.major - gc.major)) / ms).toFixed(1)} %)`,
        );
      }
      const r = await settle();
      const per = prev ? (k: keyof Reading) => `${mb((r[k] - prev!.r[k]) / (target - prev!.n))}` : () => '–';
      console.log(
        `${String(target).padStart(3)} avatars: RSS ${mb(r.rss)} MB (+${per('rss')}/avatar), heap ${mb(r.heap)} MB (+${per('heap')}), ` +
          `external ${mb(r.external)} MB (+${per('external')}), of it array buffers ${mb(r.arrayBuffers)} MB (+${per('arrayBuffers')})`,
      );
      if (SNAPSHOTS) console.log(`  heap snapshot ${writeHeapSnapshot(path.join(SNAPSHOTS, `avatars-${target}.heapsnapshot`))}`);
      prev = { n: target, r };
    }
  } finally {
    for (const r of reflexes) r.stop();
    await Promise.all(games.map((g) => g.stop()));
    await world.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
