/**
 * The embedded Minecraft world: a flying-squid server in a child process on 127.0.0.1 (or the address `WORLD_HOST` names).
 *
 * The child (`server.cjs`, beside this file) is plain CommonJS, started with
 * `process.execPath` and an IPC channel. Running it out of process keeps its
 * stdout prompt, its ticking intervals and its process-wide handlers away from
 * mindlink; its output is logged at debug. It quits when mindlink dies.
 *
 * The child runs in its own process group (`detached`), so the signals a
 * terminal sends to the whole foreground group (Ctrl-C's SIGINT, a group
 * SIGTERM) reach mindlink only. mindlink then stops it itself, last, over IPC:
 * loops paused, bots quit (the world saves each player as it leaves), the
 * world saved, then the child exits. Were the child to take the group's
 * signal, it would kick the avatars and exit before they left, and what they
 * gathered since their last save would be lost.
 *
 * The world uses mindlink's own deterministic generator (flat grass over dirt
 * over stone, an oak tree in most chunks, a clear spawn at 0 64 0) and is saved
 * under `<dataDir>/world`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { gameProcessEnvironment } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import { childReady } from '../child-ready.ts';
import { profilingArgs } from '../profiling-args.ts';
import type { Vec3Like } from '../game.ts';
import type {
  ChildMessage,
  ParentMessage,
  ServerFurnace,
  ServerHunger,
  ServerInventory,
  ServerMob,
  WorldConfig,
  WorldOpName,
  WorldOps,
  WorldRequest,
} from './ipc.ts';

/** Options of {@link EmbeddedWorld.start}. */
export interface EmbeddedWorldOptions {
  /** The world is saved under `<dataDir>/world`. */
  dataDir: string;
  /** TCP port; 0 or absent picks a free one. */
  port?: number;
  /** The address it listens on: 127.0.0.1 unless avatar hosts on other machines join it (`WORLD_HOST`, docs/many-machines.md). */
  listenHost?: string;
  /** Minecraft version; flying-squid 1.12 serves up to 1.21.4. */
  version?: string;
  /** World seed for new worlds (an existing world keeps the seed in its `level.dat`). */
  seed?: number;
  /** Chunks sent around each player; at least 3 (with 2, mineflayer never finishes loading chunks). */
  viewDistance?: number;
  /** How long to wait for the child to listen. */
  startTimeoutMs?: number;
  /** Items lying about at most: a drop beyond is not made (the block is dug all the same). */
  maxItems?: number;
  /** Log a `world health` line (memory, CPU, event-loop delay of the world's process) at debug this often; 0 never. */
  healthMs?: number;
  log: Logger;
}

/** Defaults of {@link EmbeddedWorldOptions}. */
export const DefaultEmbeddedWorldOptions = {
  port: 0,
  listenHost: '127.0.0.1',
  version: '1.21.4',
  seed: 20240601,
  viewDistance: 4,
  startTimeoutMs: 30_000,
  maxItems: 400,
  healthMs: 0,
} satisfies Required<Omit<EmbeddedWorldOptions, 'dataDir' | 'log'>>;

/** Events of an {@link EmbeddedWorld}. */
export interface EmbeddedWorldEvents {
  /** The child process exited (after {@link EmbeddedWorld.stop} or on its own). */
  exit: [code: number | null, signal: NodeJS.Signals | null];
}

/** The address this machine reaches a server listening on `listenHost` at. */
function localAddress(listenHost: string): string {
  return /^(0\.0\.0\.0|::|\[::\])$/.test(listenHost) ? '127.0.0.1' : listenHost;
}

const SERVER_SCRIPT = fileURLToPath(new URL('./server.cjs', import.meta.url));
// flying-squid colours its log lines and redraws a `> ` prompt.
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/**
 * A running embedded world.
 *
 * @example
 * const world = await EmbeddedWorld.start({ dataDir: 'data', log });
 * const game = new MineflayerGame({ username: 'steve', host: world.host, port: world.port, version: world.version, log, capabilities: EMBEDDED_CAPABILITIES });
 * await world.stop();
 */
export class EmbeddedWorld extends EventEmitter<EmbeddedWorldEvents> {
  /** Where this machine reaches it: the address it listens on, or 127.0.0.1 when it listens on every one. */
  readonly host: string;
  /** The port the world listens on (the one asked for, or the free one it found). */
  readonly port: number;
  /** The Minecraft version it serves. */
  readonly version: string;
  /** The data dir; the world is saved in its `world/` folder. */
  readonly dataDir: string;
  #child: ChildProcess;
  #log: Logger;
  #exited: Promise<void>;
  #alive = true;
  #nextId = 1;
  #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(child: ChildProcess, host: string, port: number, version: string, dataDir: string, log: Logger, exited: Promise<void>) {
    super();
    this.#child = child;
    this.host = host;
    this.port = port;
    this.version = version;
    this.dataDir = dataDir;
    this.#log = log;
    this.#exited = exited;
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'health') {
        const { type: _type, ...reading } = m;
        this.#log.debug(reading, 'world health');
        return;
      }
      if (m.type === 'warmedUp') {
        this.#log.debug({ codecsMs: m.codecsMs, spawnAreaMs: m.spawnAreaMs }, 'embedded world warmed up');
        return;
      }
      if (m.type !== 'reply') return;
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(m.error ?? 'embedded world request failed'));
    });
    child.on('exit', (code, signal) => {
      this.#alive = false;
      for (const p of this.#pending.values()) p.reject(new Error('the embedded world exited'));
      this.#pending.clear();
      this.#log.info({ code, signal }, 'embedded world exited');
      this.emit('exit', code, signal);
    });
  }

  /**
   * Start a world and resolve once it accepts connections.
   * Rejects if the child fails to start (e.g. the port is taken) or does not listen in time.
   */
  static async start(opts: EmbeddedWorldOptions): Promise<EmbeddedWorld> {
    const o = { ...DefaultEmbeddedWorldOptions, ...opts };
    const log = opts.log.child({ component: 'embedded-world' });
    const dataDir = path.resolve(o.dataDir);
    mkdirSync(path.join(dataDir, 'world'), { recursive: true });
    const config = JSON.stringify({
      dataDir,
      host: o.listenHost,
      port: o.port,
      version: o.version,
      seed: o.seed,
      viewDistance: Math.max(3, o.viewDistance),
      healthMs: o.healthMs,
      maxItems: o.maxItems,
    } satisfies WorldConfig);
    const started = Date.now();
    const child = spawn(process.execPath, [...profilingArgs(), SERVER_SCRIPT, config], {
      // The child's own cwd: flying-squid resolves nothing relative to it once logging is off, but keep it in the data dir.
      cwd: dataDir,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // A loader or a preload given to mindlink is not the world's.
      env: { ...gameProcessEnvironment(), NODE_OPTIONS: '' },
      // Its own process group: a terminal's Ctrl-C reaches mindlink only, which stops the world last (see above).
      detached: true,
    });
    const tail: string[] = [];
    const pipe = (stream: NodeJS.ReadableStream | null, name: string): void => {
      if (!stream) return;
      createInterface({ input: stream }).on('line', (raw) => {
        const line = raw.replace(ANSI, '').replace(/^(> )+/, '').trim();
        if (!line) return;
        tail.push(line);
        if (tail.length > 20) tail.shift();
        log.debug({ stream: name }, line);
      });
    };
    pipe(child.stdout, 'stdout');
    pipe(child.stderr, 'stderr');
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

    const ready = await childReady<ChildMessage, Extract<ChildMessage, { type: 'ready' }>>(child, {
      timeoutMs: o.startTimeoutMs,
      answer: (m) =>
        m.type === 'ready' ? { ready: m } : m.type === 'failed' ? { failed: new Error(`the embedded world failed to start: ${m.message}`) } : undefined,
      timedOut: () => new Error(`the embedded world did not start within ${o.startTimeoutMs} ms: ${tail.slice(-3).join(' | ')}`),
      // The whole tail: a crash's first lines (the error itself) come well before its last (the stack's end).
      exited: (code) => new Error(`the embedded world exited during start-up (code ${code}): ${tail.join(' | ')}`),
    });
    const port = ready.port;
    // The child's own marks (ms since its process started) are for the start-up timeline (docs/benchmarks.md).
    log.info({ port, version: o.version, ms: Date.now() - started, loadedMs: ready.loadedMs, listeningMs: ready.listeningMs, dataDir }, 'embedded world listening');
    return new EmbeddedWorld(child, localAddress(o.listenHost), port, o.version, dataDir, log, exited);
  }

  /** The world's process id (for supervision and tests). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the child process is still running. */
  get running(): boolean {
    return this.#alive;
  }

  /**
   * Stop the world: players are kicked with "Server closed", the world is saved, the child exits.
   * If it has not exited after `graceMs`, it is killed. Saving is quick when the machine is idle; the generous
   * limits (here and in the child) keep a loaded machine from cutting a save short.
   */
  async stop(graceMs = 20_000): Promise<void> {
    if (!this.#alive) return this.#exited;
    // The child may be exiting already (it lost its IPC channel, or someone signalled it directly): a failed send is expected then.
    if (this.#child.connected) {
      this.#child.send({ type: 'stop' } satisfies ParentMessage, (err) => {
        if (err) this.#log.debug({ err }, 'stop message not delivered; the world is exiting already');
      });
    } else this.#child.kill('SIGTERM');
    const timer = setTimeout(() => {
      this.#log.warn('embedded world did not exit in time; killing it');
      this.#child.kill('SIGKILL');
    }, graceMs);
    await this.#exited;
    clearTimeout(timer);
  }

  /** Ask the child for one operation (see ipc.ts); resolves with its result. */
  #request<K extends WorldOpName>(op: K, args: WorldOps[K]['args']): Promise<WorldOps[K]['result']> {
    if (!this.#alive || !this.#child.connected) return Promise.reject(new Error('the embedded world is not running'));
    const id = this.#nextId++;
    return new Promise<WorldOps[K]['result']>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      const request = { type: 'request', id, op, args } as WorldRequest;
      this.#child.send(request, (err) => {
        if (!err) return;
        this.#pending.delete(id);
        reject(err);
      });
    });
  }

  /** Kick a player with a reason (admin; used by tests and the operator). */
  kick(username: string, reason: string): Promise<void> {
    return this.#request('kick', { username, reason });
  }

  /** Put items into a player's inventory (through the server's inventory, not `/give`, whose counts are broken). */
  give(username: string, item: string, count = 1): Promise<void> {
    return this.#request('give', { username, item, count });
  }

  /** Set the block at a position by name (`air` removes it). */
  setBlock(pos: Vec3Like, name: string): Promise<void> {
    return this.#request('setBlock', { x: pos.x, y: pos.y, z: pos.z, name });
  }

  /** The block name at a position (generating the chunk if needed). */
  blockAt(pos: Vec3Like): Promise<string | null> {
    return this.#request('blockAt', { x: pos.x, y: pos.y, z: pos.z });
  }

  /** Every block named in `names` inside the box `from`–`to` (inclusive), as seen by the server. */
  findBlocks(from: Vec3Like, to: Vec3Like, names: string[]): Promise<Array<Vec3Like & { name: string }>> {
    return this.#request('findBlocks', { from, to, names });
  }

  /**
   * Write one raw packet (protocol name and fields) to a player, past every server plugin: how tests
   * send a packet the player's client cannot handle.
   */
  sendPacket(username: string, name: string, params: Record<string, unknown>): Promise<void> {
    return this.#request('sendPacket', { username, name, params });
  }

  /**
   * Hold players who join from now on just before their login (`true`; they wait on the server, already
   * among its entities), or let them all in (`false`). Resolves with how many are waiting. For tests of
   * what reaches a player before its login.
   */
  holdLogins(hold: boolean): Promise<number> {
    return this.#request('holdLogins', { hold });
  }

  /** Usernames of the players online. */
  players(): Promise<string[]> {
    return this.#request('players', {});
  }

  /** Where the items lying about are (server side). */
  items(): Promise<Vec3Like[]> {
    return this.#request('items', {});
  }

  /** Teleport a player (server side). */
  teleport(username: string, pos: Vec3Like): Promise<void> {
    return this.#request('teleport', { username, ...pos });
  }

  /** Run a server console command without the slash, e.g. `time set 1000`. */
  command(text: string): Promise<void> {
    return this.#request('command', { text });
  }

  /** A player's inventory as the server holds it (window-0 slot → item), its cursor item, held slot and open table. */
  inventory(username: string): Promise<ServerInventory> {
    return this.#request('inventory', { username });
  }

  /** Empty a player's inventory (server side). */
  clearInventory(username: string): Promise<void> {
    return this.#request('clearInventory', { username });
  }

  /** A player's food, saturation, exhaustion and health as the server holds them. */
  hunger(username: string): Promise<ServerHunger> {
    return this.#request('hunger', { username });
  }

  /**
   * Kill a player, as the `/kill` command does (admin; tests and the operator): it dies ("<player> was
   * killed") and respawns at the spawn once its client asks.
   */
  kill(username: string): Promise<void> {
    return this.#request('kill', { username });
  }

  /**
   * Leave the players' respawn requests unanswered from now on (`true`: a server that does not respawn a dead
   * player), or answer them again (`false`; a dead player is respawned at its client's next request).
   * Resolves with how many requests were left unanswered since the hold began. For tests.
   */
  holdRespawns(hold: boolean): Promise<number> {
    return this.#request('holdRespawns', { hold });
  }

  /** Spawn a mob (`cow`, `pig`, `sheep`, `chicken`, `zombie`) with its feet at a position; resolves with its entity id. */
  spawnMob(name: string, pos: Vec3Like): Promise<number> {
    return this.#request('spawnMob', { name, x: pos.x, y: pos.y, z: pos.z });
  }

  /** Every mob in the world, as the server holds them. */
  mobs(): Promise<ServerMob[]> {
    return this.#request('mobs', {});
  }

  /** Turn the natural spawning of animals and/or monsters on or off (tests that want a quiet world). */
  setMobSpawning(opts: { animals?: boolean; monsters?: boolean }): Promise<void> {
    return this.#request('setMobSpawning', opts);
  }

  /** Take every mob out of the world. */
  clearMobs(): Promise<void> {
    return this.#request('clearMobs', {});
  }

  /** The furnace at a position as the server holds it, or null when it holds nothing. */
  furnace(pos: Vec3Like): Promise<ServerFurnace | null> {
    return this.#request('furnace', { x: pos.x, y: pos.y, z: pos.z });
  }

  /** Set any of a player's food, saturation, exhaustion and health (server side). */
  setHunger(username: string, values: Partial<ServerHunger>): Promise<void> {
    return this.#request('setHunger', { username, ...values });
  }
}
