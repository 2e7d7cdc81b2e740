/**
 * Game faults mid-goal: the Minecraft server is killed (kill -9) and comes
 * back after a while, then it is stopped and refuses connections for a while
 * before it comes back again. The avatar must wait, reconnect and finish the
 * same goal, and no engine turn may start while the game is down.
 *
 * It runs with the avatars in mindlink's own process (`AVATAR_HOSTS=1`) and on
 * avatar hosts (`hosts: 2`): the same faults, the same figures.
 *
 * The world here is an embedded world the harness runs itself (mindlink is
 * pointed at it with MC_HOST/MC_PORT, as at any external server), so the
 * harness can take it down and bring it back on the same port.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { silentLogger } from '../src/logger.ts';
import { EmbeddedWorld } from '../src/game/embedded/embedded-world.ts';
import { descendants, rng, startProcess, stopGracefully, tempDir, until } from './harness.ts';

/** The figures of one game-fault run. */
export interface GameFaultFigures {
  /** 1 when the goal set before the faults was reported done after them. */
  goalFinished: number;
  reconnects: number;
  /** Engine turns logged while the game was down (after a grace for the turn in flight). */
  turnsWhileDown: number;
  /** 1 when, after mindlink's own embedded world was killed mid-goal, it came back and the goal was done. */
  embeddedGoalFinished: number;
}

/** A turn in flight when the game drops ends within this; later turn logs mean a prompt while down. */
const IN_FLIGHT_GRACE_MS = 5000;

async function startWorld(dataDir: string, port = 0): Promise<EmbeddedWorld> {
  return EmbeddedWorld.start({ dataDir, port, log: silentLogger() });
}

/** kill -9 every world server process (running server.cjs) under `parent`. Returns how many. */
function killWorldHard(parent = process.pid): number {
  let killed = 0;
  for (const pid of descendants(parent)) {
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      // The process ended while we looked: nothing to kill.
      continue;
    }
    if (cmd.includes('server.cjs')) {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    }
  }
  return killed;
}

/** Run the two faults around one goal. */
export async function gameFaults(opts: { seed: number; downMs: number; hosts?: number; log?: (line: string) => void }): Promise<GameFaultFigures> {
  const hosts = String(opts.hosts ?? 1);
  const random = rng(opts.seed);
  const say = opts.log ?? (() => undefined);
  // The world's files are the external server's, not mindlink's: not in the evidence for the secrets check.
  const worldDir = await mkdtemp(path.join(tmpdir(), 'mindlink-chaos-world-'));
  const dataDir = await tempDir('game');
  let world = await startWorld(worldDir);
  const port = world.port;
  // The external server alone: mindlink's own world is the next fault's.
  const proc = startProcess({ DATA_DIR: dataDir, MC_HOST: '127.0.0.1', MC_PORT: String(port), EMBEDDED: 'off', LOG_LEVEL: 'debug', AVATAR_HOSTS: hosts });
  const downs: { from: number; to: number }[] = [];
  const fig: GameFaultFigures = { goalFinished: 0, reconnects: 0, turnsWhileDown: 0, embeddedGoalFinished: 0 };
  try {
    await proc.line(/^\[mindlink\] ready/, 90_000);
    proc.send('Goal: collect 5 oak logs');
    await proc.line(/New goal from console: collect 5 oak logs/, 60_000);
    // Mid-goal means in the world: on avatar hosts the first join can come after the goal's ack.
    await until(() => spawnCount(proc.stderr) >= 1, 'the avatar to join', 120_000);
    await new Promise((r) => setTimeout(r, 2000 + Math.floor(random() * 3000)));

    say('game faults: kill -9 of the world mid-goal');
    let from = Date.now();
    killWorldHard();
    await world.stop().catch(() => undefined);
    await new Promise((r) => setTimeout(r, opts.downMs));
    world = await startWorld(worldDir, port);
    downs.push({ from, to: Date.now() });
    await until(() => spawnCount(proc.stderr) >= 2, 'the avatar to rejoin after the kill', 120_000).catch((err: unknown) => {
      const tail = proc.stderr.filter((l) => /spawned|disconnect|connecting|host|error/.test(l)).slice(-25);
      throw new Error(`${(err as Error).message}; mindlink's log (tail):\n${tail.join('\n')}`);
    });

    say('game faults: the world refuses connections for a while');
    from = Date.now();
    await world.stop();
    await new Promise((r) => setTimeout(r, opts.downMs));
    world = await startWorld(worldDir, port);
    downs.push({ from, to: Date.now() });

    const done = await proc.line(/\[demo\] Done: collect 5 oak logs/, 240_000).then(
      () => true,
      (err: unknown) => {
        say((err as Error).message.split('\n')[0] ?? '');
        return false;
      },
    );
    fig.goalFinished = done ? 1 : 0;
    fig.reconnects = spawnCount(proc.stderr) - 1;
    for (const line of proc.stderr) {
      const entry = parseLog(line);
      if (entry?.msg !== 'turn') continue;
      if (downs.some((d) => entry.time > d.from + IN_FLIGHT_GRACE_MS && entry.time < d.to)) fig.turnsWhileDown += 1;
    }
  } finally {
    await stopGracefully(proc);
    await world.stop();
  }
  fig.embeddedGoalFinished = await embeddedWorldKilled(random, hosts, say);
  return fig;
}

/** mindlink's own embedded world killed mid-goal: mindlink starts it again, the avatar rejoins and finishes. */
async function embeddedWorldKilled(random: () => number, hosts: string, say: (line: string) => void): Promise<number> {
  const proc = startProcess({ DATA_DIR: await tempDir('embedded'), LOG_LEVEL: 'debug', AVATAR_HOSTS: hosts });
  try {
    await proc.line(/^\[mindlink\] ready/, 90_000);
    proc.send('Goal: collect 4 oak logs');
    await proc.line(/New goal from console: collect 4 oak logs/, 60_000);
    await until(() => spawnCount(proc.stderr) >= 1, 'the avatar to join', 120_000);
    await new Promise((r) => setTimeout(r, 1500 + Math.floor(random() * 3000)));
    say(`game faults: kill -9 of mindlink's embedded world (${killWorldHard(proc.pid)} process)`);
    return await proc.line(/\[demo\] Done: collect 4 oak logs/, 240_000).then(
      () => 1,
      (err: unknown) => {
        say((err as Error).message.split('\n')[0] ?? '');
        return 0;
      },
    );
  } finally {
    await stopGracefully(proc);
  }
}

function spawnCount(stderr: string[]): number {
  return stderr.filter((l) => parseLog(l)?.msg === 'spawned').length;
}

function parseLog(line: string): { msg?: string; time: number } | null {
  if (!line.startsWith('{')) return null;
  try {
    return JSON.parse(line) as { msg?: string; time: number };
  } catch {
    // A log line cut by the kill: not a turn.
    return null;
  }
}
