/**
 * Mob benchmark: what the embedded world's mobs cost its process. Ten players stand spread over the world;
 * the world's CPU (its child process, user + system time from /proc) is measured for 20 s with no mobs, then
 * with the world's mob limit of mobs around them at night (zombies chasing, animals strolling), and the
 * world's memory in both. Prints figures; asserts nothing. `npm run bench -- mobs` runs only this one.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedWorld } from '../src/game/embedded/embedded-world.ts';
import { EMBEDDED_CAPABILITIES, MineflayerGame } from '../src/game/mineflayer-game.ts';
import { silentLogger } from '../src/logger.ts';

const log = silentLogger();
const PLAYERS = 10;
const MEASURE_MS = 20_000;
/** The world's cap (mob-world.cjs). */
const MOBS = 300;
const ANIMALS = ['cow', 'pig', 'sheep', 'chicken'];

/** CPU seconds (user + system) and resident memory of a process, from /proc. */
function usage(pid: number): { cpu: number; rssMb: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rssPages = Number(fields[21]);
  return { cpu: ticks / 100, rssMb: (rssPages * 4096) / 1024 / 1024 };
}

async function measure(pid: number): Promise<{ cpuPercent: number; rssMb: number }> {
  const a = usage(pid);
  const t = performance.now();
  await new Promise((r) => setTimeout(r, MEASURE_MS));
  const b = usage(pid);
  return { cpuPercent: ((b.cpu - a.cpu) / ((performance.now() - t) / 1000)) * 100, rssMb: b.rssMb };
}

export default async function bench(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mindlink-bench-mobs-'));
  const games: MineflayerGame[] = [];
  let world: EmbeddedWorld | undefined;
  try {
    world = await EmbeddedWorld.start({ dataDir: dir, log });
    await world.setMobSpawning({ animals: false, monsters: false });
    const pid = world.pid;
    if (pid === undefined) throw new Error('the world has no process id');
    const spots: Array<{ x: number; z: number }> = [];
    for (let i = 0; i < PLAYERS; i++) {
      const game = new MineflayerGame({ username: `mob${i}`, host: world.host, port: world.port, version: world.version, log, capabilities: EMBEDDED_CAPABILITIES });
      const connected = once(game, 'connected');
      await game.start();
      await connected;
      games.push(game);
      // In a ring 40 blocks apart, so each has its own mobs around it.
      const spot = { x: Math.round(Math.cos((i / PLAYERS) * Math.PI * 2) * 60) + 0.5, z: Math.round(Math.sin((i / PLAYERS) * Math.PI * 2) * 60) + 0.5 };
      spots.push(spot);
      await world.teleport(game.username, { ...spot, y: 64 });
      await world.command(`gamemode creative mob${i}`);
    }
    await world.command('time set 1000');
    const quiet = await measure(pid);
    let spawned = 0;
    for (let i = 0; spawned < MOBS; i++) {
      const spot = spots[i % spots.length]!;
      const a = (i * 2.4) % (Math.PI * 2);
      const d = 6 + (i % 20);
      const name = i % 3 === 0 ? 'zombie' : (ANIMALS[i % ANIMALS.length] as string);
      try {
        await world.spawnMob(name, { x: Math.floor(spot.x + Math.cos(a) * d) + 0.5, y: 64, z: Math.floor(spot.z + Math.sin(a) * d) + 0.5 });
        spawned++;
      } catch (err) {
        // The world's cap was reached before this bench's count: measure with what is there.
        if (!/too many mobs/.test((err as Error).message)) throw err;
        break;
      }
    }
    // Night: the zombies neither burn nor leave. The players stay creative (no target, no deaths to skew the
    // run), so zombies stroll like the animals: a step of a chase costs the same walking as a stroll.
    await world.command('time set 14000');
    const busy = await measure(pid);
    const left = (await world.mobs()).filter((m) => !m.dead).length;
    console.log(`embedded world with ${PLAYERS} players: CPU ${quiet.cpuPercent.toFixed(1)}% of a core and RSS ${quiet.rssMb.toFixed(0)} MB with no mobs`);
    console.log(`  with ${spawned} mobs around them at night (a third zombies, the rest animals, all thinking and moving; ${left} still there at the end): CPU ${busy.cpuPercent.toFixed(1)}% and RSS ${busy.rssMb.toFixed(0)} MB`);
    console.log(`  → ${(busy.cpuPercent - quiet.cpuPercent).toFixed(1)} percentage points of a core for the mobs, ${((busy.cpuPercent - quiet.cpuPercent) / Math.max(1, spawned) * 100).toFixed(2)} per 100 mobs`);
  } finally {
    await Promise.all(games.map((g) => g.stop()));
    await world?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
