/**
 * Game benchmark: start-up to first spawn, memory per avatar, and event-loop delay while avatars work.
 * Prints figures; asserts nothing. The embedded world runs in a child process, so the RSS figures are
 * mindlink's own process (the avatars), not the server.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { EmbeddedWorld } from '../src/game/embedded/embedded-world.ts';
import { AVATAR_BRAND, EMBEDDED_CAPABILITIES, MineflayerGame } from '../src/game/mineflayer-game.ts';
import { silentLogger } from '../src/logger.ts';
import { getSkill, runSkill } from '../skills/index.ts';

const log = silentLogger();
const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

function rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

async function join(world: EmbeddedWorld, name: string): Promise<MineflayerGame> {
  const game = new MineflayerGame({ username: name, host: world.host, port: world.port, version: world.version, log, capabilities: EMBEDDED_CAPABILITIES, brand: AVATAR_BRAND });
  const connected = once(game, 'connected');
  await game.start();
  await connected;
  return game;
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-bench-'));
  const games: MineflayerGame[] = [];
  let world: EmbeddedWorld | undefined;
  try {
    const t0 = performance.now();
    world = await EmbeddedWorld.start({ dataDir: dir, log });
    const tWorld = performance.now();
    const base = rss();
    games.push(await join(world, 'bench0'));
    const tSpawn = performance.now();
    console.log(`start-up: world listening ${(tWorld - t0).toFixed(0)} ms, first avatar spawned ${(tSpawn - t0).toFixed(0)} ms after start`);

    const rssAt: Record<number, number> = { 1: rss() };
    for (const target of [10, 25]) {
      const t = performance.now();
      while (games.length < target) {
        const batch = Array.from({ length: Math.min(5, target - games.length) }, (_, i) => join(world!, `bench${games.length + i}`));
        games.push(...(await Promise.all(batch)));
      }
      rssAt[target] = rss();
      console.log(`  ${target} avatars connected (${((performance.now() - t) / 1000).toFixed(1)} s for the last ${target === 10 ? 9 : 15})`);
    }
    console.log(`RSS before avatars ${mb(base)}${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: figures include garbage)'}`);
    let prevN = 0;
    let prevRss = base;
    for (const n of [1, 10, 25]) {
      const r = rssAt[n] ?? base;
      const note = n === 1 ? ' (the first one also loads minecraft-data for the version)' : '';
      console.log(
        `  ${String(n).padStart(2)} avatars: RSS ${mb(r)}, +${mb((r - prevRss) / (n - prevN))} per additional avatar${note}, ${mb((r - base) / n)} per avatar overall`,
      );
      prevN = n;
      prevRss = r;
    }
    // Keep 10 avatars, spread them over the map so they do not fight over one tree, and let them collect logs.
    const workers = games.slice(0, 10);
    await Promise.all(games.slice(10).map((g) => g.stop()));
    games.length = 10;
    await Promise.all(workers.map((g, i) => world!.teleport(g.username, { x: (i % 5) * 40 + 0.5, y: 64, z: Math.floor(i / 5) * 40 + 0.5 })));
    await new Promise((r) => setTimeout(r, 1500));
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    const t = performance.now();
    const collect = getSkill('collect');
    if (!collect) throw new Error('no collect skill');
    const results = await Promise.all(workers.map((g) => runSkill(collect, g, { item: 'log', count: 3 }, new AbortController().signal)));
    h.disable();
    const codes = results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.code]: (acc[r.code] ?? 0) + 1 }), {});
    console.log(`10 avatars collecting 3 logs each: ${((performance.now() - t) / 1000).toFixed(1)} s, results ${JSON.stringify(codes)}`);
    for (const [i, r] of results.entries()) if (!r.ok) console.log(`  ${workers[i]?.username}: ${r.code} — ${r.detail}`);
    console.log(
      `  event-loop delay: p50 ${(h.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms, max ${(h.max / 1e6).toFixed(1)} ms`,
    );
  } finally {
    await Promise.all(games.map((g) => g.stop()));
    await world?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
