// @ts-check
'use strict';
/*
 * The embedded Minecraft world: flying-squid in a child process.
 *
 * Started by EmbeddedWorld (embedded-world.ts, beside it) with
 * `node server.cjs '<json config>'` and an IPC channel. Plain CommonJS so it
 * needs no TypeScript loader.
 *
 * The config, the messages each way and the admin operations (OPS here and the plugins' ops) are
 * defined once, in ipc.ts; `npm run typecheck` checks this file against it.
 *
 * The child quits when the IPC channel closes or the parent process is gone.
 * flying-squid writes its log (and a `> ` prompt) to stdout; the parent logs it at debug.
 */
const path = require('node:path');

/**
 * @typedef {import('./types.cjs').Serv} Serv
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./ipc.ts').ChildMessage} ChildMessage
 * @typedef {import('./ipc.ts').ParentMessage} ParentMessage
 */

const cfg = /** @type {import('./ipc.ts').WorldConfig} */ (JSON.parse(process.argv[2] || '{}'));
const PARENT_PID = process.ppid;
/** Items lying about at most, by default (flying-squid's own cap was 500 entities, players included). */
const MAX_ITEMS = 400;

/** @param {unknown} err an error's stack, or the thing thrown as text */
const stackOf = (err) => String((err && /** @type {{ stack?: unknown }} */ (err).stack) || err);
/** @param {unknown} err an error's message, or the thing thrown as text */
const messageOf = (err) => String((err && /** @type {{ message?: unknown }} */ (err).message) || err);

/** @type {Serv | undefined} the server, once created */
let running;
/** @type {() => Promise<unknown>} The plugins' own state to write before exiting (see plugins.cjs). */
let flushPlugins = async () => {};
/** @type {{ counts(): { packets: number, writes: number } } | undefined} */
let batching;
let stopping = false;
/** @type {Set<Promise<unknown>>} Player saves under way (player-sessions.cjs adds and removes them). */
const pendingSaves = new Set();

/** @param {ChildMessage} msg */
function send(msg) {
  if (process.connected) process.send?.(msg);
}

/** @param {number} code */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  const hardExit = setTimeout(() => process.exit(code), 15_000);
  hardExit.unref();
  try {
    const serv = running;
    if (serv) {
      // Save everyone still here (inventory, place) before they are kicked, and wait for saves under way.
      await Promise.race([
        Promise.all([...serv.players.map((p) => p.save()), ...pendingSaves]),
        new Promise((r) => setTimeout(r, 5000)),
      ]);
      // Kicking players waits for each to disconnect; do not let one stuck client hold the world.
      await Promise.race([serv.quit('Server closed'), new Promise((r) => setTimeout(r, 3000))]);
      await Promise.race([Promise.all([...pendingSaves]), new Promise((r) => setTimeout(r, 3000))]);
      serv.stopTickInterval?.();
      await Promise.race([flushPlugins(), new Promise((r) => setTimeout(r, 3000))]);
      if (serv.overworld?.storageProvider) {
        await Promise.race([serv.overworld.waitSaving(), new Promise((r) => setTimeout(r, 6000))]);
      }
    }
  } catch (err) {
    process.stderr.write(`shutdown: ${stackOf(err)}\n`);
  }
  process.exit(code);
}

process.on('disconnect', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGINT', () => void shutdown(0));
// If the parent dies without closing the channel (SIGKILL), notice it within two seconds.
setInterval(() => {
  try {
    process.kill(PARENT_PID, 0);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err)?.code === 'ESRCH') void shutdown(0);
  }
}, 2000).unref();

/**
 * Every `ms`: the world's memory, CPU (percent of one core) and event-loop delay over the interval, so
 * mindlink's log (and `npm run bench -- scale`) can tell the world's cost from mindlink's own.
 * @param {number} ms
 */
function reportHealth(ms) {
  /** Packets sent to the players per socket write over the interval (write-batch.cjs); none without writes. */
  const packetsPerWrite = () => {
    const c = batching?.counts();
    return c && c.writes > 0 ? { packetsPerWrite: round(c.packets / c.writes) } : {};
  };
  const { monitorEventLoopDelay } = require('node:perf_hooks');
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  /** @param {number} n */
  const round = (n) => Math.round(n * 10) / 10;
  let cpu = process.cpuUsage();
  let at = performance.now();
  setInterval(() => {
    const used = process.cpuUsage(cpu);
    const now = performance.now();
    send({
      type: 'health',
      pid: process.pid,
      rssMb: round(process.memoryUsage().rss / 1048576),
      cpuPct: round((used.user + used.system) / 10 / Math.max(1, now - at)),
      loopDelayP50Ms: round(histogram.percentile(50) / 1e6),
      loopDelayP99Ms: round(histogram.percentile(99) / 1e6),
      loopDelayMaxMs: round(histogram.max / 1e6),
      players: running ? running.players.length : 0,
      ...packetsPerWrite(),
    });
    histogram.reset();
    cpu = process.cpuUsage();
    at = now;
  }, ms).unref();
}

/**
 * The prismarine-world internals the saving fix replaces and reads.
 * @typedef {{ chunkX: number, chunkZ: number }} ChunkKey
 * @typedef {object} SavedWorld
 * @property {Map<string, ChunkKey>} savingQueue
 * @property {Map<string, ChunkKey>} unloadQueue
 * @property {Record<string, unknown>} columns
 * @property {{ save(chunkX: number, chunkZ: number, column: unknown): Promise<void> }} storageProvider
 * @property {(key: string, chunkX: number, chunkZ: number) => void} forceUnloadColumn
 * @property {(event: string) => void} emit
 * @property {Promise<void>} finishedSaving
 * @property {(this: SavedWorld) => Promise<void>} saveNow
 * @property {(this: SavedWorld) => Promise<void>} waitSaving
 */

/**
 * Make a prismarine-world save only what it wrote, one save at a time (see the call site).
 * @param {SavedWorld} world
 */
function fixSaving(world) {
  /** @type {Promise<void>} */
  let chain = Promise.resolve();
  world.saveNow = function saveNow() {
    const run = chain.then(async () => {
      if (this.savingQueue.size === 0) return;
      const batch = [...this.savingQueue.entries()];
      for (const [key] of batch) this.savingQueue.delete(key);
      await Promise.all(
        batch.map(([key, { chunkX, chunkZ }]) => (this.columns[key] ? this.storageProvider.save(chunkX, chunkZ, this.columns[key]) : undefined)),
      );
      for (const [key, { chunkX, chunkZ }] of [...this.unloadQueue.entries()]) {
        if (!this.savingQueue.has(key)) this.forceUnloadColumn(key, chunkX, chunkZ);
      }
      this.emit('doneSaving');
    });
    chain = run.catch((err) => void process.stderr.write(`saving the world failed: ${stackOf(err)}\n`));
    this.finishedSaving = chain;
    return run;
  };
  world.waitSaving = async function waitSaving() {
    // Everything queued so far, including changes made while an earlier save ran.
    while (this.savingQueue.size > 0) await this.saveNow();
    await chain;
  };
}

function start() {
  // minecraft-protocol without what a local world never runs, and its codecs from the cache (lean-protocol.cjs).
  require('../lean-protocol.cjs').leanProtocol(require.resolve('flying-squid'));
  const { createMCServer } = require('flying-squid');
  const defaults = require('flying-squid/config/default-settings.json');
  const { Vec3 } = require('vec3');
  const loadedMs = Math.round(performance.now());

  const serv = /** @type {Serv} */ (createMCServer({
    ...defaults,
    motd: 'mindlink embedded world',
    host: cfg.host || '127.0.0.1',
    port: cfg.port ?? 0,
    'max-players': cfg.maxPlayers ?? 100,
    'online-mode': false,
    logging: false,
    gameMode: 0,
    difficulty: 1,
    worldFolder: path.join(cfg.dataDir, 'world'),
    generation: { name: path.join(__dirname, 'generator.cjs'), options: { seed: cfg.seed ?? 20240601 } },
    'view-distance': Math.max(3, cfg.viewDistance ?? 4),
    'everybody-op': true,
    // No cap of flying-squid's (it throws from a dig's drop, ending the world): entity-cap.cjs caps the items.
    'max-entities': Number.MAX_SAFE_INTEGER,
    version: cfg.version || '1.21.4',
    // minecraft-protocol checks the whole protocol's schema (ajv) for every login unless told not to: a quarter
    // of a second of the world's one thread per player joining, for a schema that does not change.
    validateChannelProtocol: false,
    // Players are on this machine: no compression (plain-packets.cjs).
    beforeLogin: require('./plain-packets.cjs').withoutCompression,
    // A debug function also stops flying-squid from installing a process-wide uncaughtException handler that exits.
    debug: (/** @type {string} */ msg) => {
      if (cfg.verbose) process.stdout.write(`[debug] ${msg}\n`);
    },
  }));
  running = serv;

  const { known } = require('./registry-util.cjs');
  // First: its write is the innermost, so it counts the packets that are written.
  batching = require('./write-batch.cjs').install(serv);
  require('./spawn-gate.cjs').install(serv);
  require('./entity-cap.cjs').install(serv, { maxItems: cfg.maxItems ?? MAX_ITEMS });
  const { registry } = serv;
  const Item = /** @type {import('./types.cjs').ItemLoader} */ (/** @type {unknown} */ (require('prismarine-item')))(registry);
  const playerTypeId = known(registry.entitiesByName, 'player', 'entity').id;
  const spawn = new Vec3(0.5, 64, 0.5);

  // mindlink's plugins (crafting, tools, hunger, furnaces, mobs): see plugins.cjs.
  const extra = require('./plugins.cjs').install(serv, { registry, Item, seed: cfg.seed ?? 20240601, worldFolder: path.join(cfg.dataDir, 'world'), spawn, viewDistance: Math.max(3, cfg.viewDistance ?? 4) });
  flushPlugins = extra.flush;

  // A fixed spawn point on the flat, clear area the generator keeps around (0, 0).
  // Tests can hold joining players here, just before their login (OPS.holdLogins).
  /** @type {{ gate: Promise<void> | null, release: (() => void) | null, held: number }} */
  const loginHold = { gate: null, release: null, held: 0 };
  serv.getSpawnPoint = async () => {
    if (loginHold.gate) {
      loginHold.held++;
      await loginHold.gate.finally(() => loginHold.held--);
    }
    return spawn.clone();
  };

  // prismarine-world's saveNow() clears the whole saving queue after its writes finish, so a block changed
  // while a save is in flight is dropped from the queue and never written (and its chunk may then be
  // unloaded unsaved). Save in one chain, taking only the entries present when each save starts.
  // The world plugin creates serv.overworld asynchronously: patch it once the plugins are loaded.
  serv.once('pluginsReady', () => {
    if (serv.overworld && serv.overworld.storageProvider) fixSaving(serv.overworld);
  });

  // What newer protocol versions need that flying-squid does not send right: see packet-fixes.cjs.
  require('./packet-fixes.cjs').install(serv, { registry, playerTypeId });

  // Player saves tracked for shutdown, a quick relogin waiting for its last save, a failed login ending one connection.
  require('./player-sessions.cjs').install(serv, pendingSaves);

  /** @type {import('./ipc.ts').OpHandlers<import('./ipc.ts').ServerOps>} */
  const core = {
    /** Kick a player with a reason. */
    kick({ username, reason }) {
      const p = serv.getPlayer(username);
      if (!p) throw new Error(`no player ${username}`);
      p.kick(reason || 'You were kicked!');
      return true;
    },
    /** Put `count` of an item into a player's inventory (the `/give` command stores counts as strings). */
    give({ username, item, count }) {
      const p = serv.getPlayer(username);
      if (!p) throw new Error(`no player ${username}`);
      const def = registry.itemsByName[item];
      if (!def) throw new Error(`no item ${item}`);
      let left = count ?? 1;
      while (left > 0) {
        const n = Math.min(left, def.stackSize || 64);
        const slot = p.inventory.firstEmptyInventorySlot();
        if (slot === null || slot === undefined) throw new Error('inventory full');
        p.inventory.updateSlot(slot, new Item(def.id, n));
        left -= n;
      }
      return true;
    },
    /** Set a block by name (air included). */
    async setBlock({ x, y, z, name }) {
      const b = registry.blocksByName[name];
      if (!b) throw new Error(`no block ${name}`);
      await serv.setBlock(serv.overworld, new Vec3(x, y, z), b.defaultState);
      return true;
    },
    /** The name of the block at x y z. */
    async blockAt({ x, y, z }) {
      const b = await serv.overworld.getBlock(new Vec3(x, y, z));
      return b ? b.name : null;
    },
    /** Positions of blocks with one of `names` in a box (inclusive); loads or generates the chunks. */
    async findBlocks({ from, to, names }) {
      const wanted = new Set(names);
      /** @type {Array<import('../game.ts').Vec3Like & { name: string }>} */
      const out = [];
      for (let x = from.x; x <= to.x; x++) {
        for (let z = from.z; z <= to.z; z++) {
          for (let y = from.y; y <= to.y; y++) {
            const b = await serv.overworld.getBlock(new Vec3(x, y, z));
            if (b && wanted.has(b.name)) out.push({ x, y, z, name: b.name });
          }
        }
      }
      return out;
    },
    /** Write one raw packet to a player (tests: a packet its client cannot handle). */
    sendPacket({ username, name, params }) {
      const p = serv.getPlayer(username);
      if (!p) throw new Error(`no player ${username}`);
      p._client.write(name, params || {});
      return true;
    },
    /** Hold players who join from now on just before their login (`hold`), or let them all in; returns how many wait. */
    holdLogins({ hold }) {
      if (hold && !loginHold.gate) loginHold.gate = new Promise((resolve) => (loginHold.release = resolve));
      if (!hold && loginHold.gate) {
        loginHold.release?.();
        loginHold.gate = null;
      }
      return loginHold.held;
    },
    /** Names of the players online. */
    players() {
      return serv.players.map((p) => p.username);
    },
    /** Where the items lying about are. */
    items() {
      return Object.values(serv.entities)
        .map((e) => /** @type {{ type?: string, position: import('vec3').Vec3 }} */ (e))
        .filter((e) => e.type === 'object')
        .map((e) => ({ x: e.position.x, y: e.position.y, z: e.position.z }));
    },
    /** Teleport a player. */
    async teleport({ username, x, y, z }) {
      const p = serv.getPlayer(username);
      if (!p) throw new Error(`no player ${username}`);
      await p.teleport(new Vec3(x, y, z));
      return true;
    },
    /** Run a server console command, e.g. `time set 1000`. */
    async command({ text }) {
      await serv.handleCommand(text);
      return true;
    },
  };

  const OPS = { ...core, ...extra.ops };

  process.on('message', (received) => {
    if (!received || typeof received !== 'object') return;
    // Only the host sends on this channel, and it sends ParentMessages.
    const msg = /** @type {ParentMessage} */ (received);
    if (msg.type === 'stop') {
      void shutdown(0);
      return;
    }
    if (msg.type === 'request') {
      // An op is looked up by the name the request gives (an unknown name is answered with an error).
      const op = /** @type {Record<string, ((args: object) => unknown) | undefined>} */ (/** @type {unknown} */ (OPS))[msg.op];
      Promise.resolve()
        .then(() => {
          if (!op) throw new Error(`unknown op ${msg.op}`);
          return op(msg.args || {});
        })
        .then(
          (result) => send({ type: 'reply', id: msg.id, ok: true, result }),
          (err) => send({ type: 'reply', id: msg.id, ok: false, error: messageOf(err) }),
        );
    }
  });

  // flying-squid's own `ready` waits at most 5 s for its plugins (loading the world takes longer on a loaded
  // machine), and then its rejected wait ends the process. mindlink waits for both itself, without that bound
  // (the parent's start timeout is the bound); that one rejection is expected and left alone (see below).
  let ready = false;
  const pluginsReady = serv.pluginsReady ? Promise.resolve() : new Promise((resolve) => serv.once('pluginsReady', resolve));
  const listening = new Promise((resolve) => serv.once('listening', resolve));
  void Promise.all([pluginsReady, listening]).then(() => {
    ready = true;
    send({ type: 'ready', port: serv.listeningPort, loadedMs, listeningMs: Math.round(performance.now()) });
    if (cfg.healthMs) reportHealth(cfg.healthMs);
    // Compile the packet codecs now and load the spawn's columns, while no one has joined yet, not on the first login.
    setImmediate(() => {
      const firstJoin = require('./first-join.cjs');
      firstJoin.warmUp(cfg.version || '1.21.4');
      const codecsMs = Math.round(performance.now());
      firstJoin.loadSpawnArea(serv, spawn).then(
        () => send({ type: 'warmedUp', codecsMs, spawnAreaMs: Math.round(performance.now()) }),
        (/** @type {unknown} */ err) => process.stderr.write(`loading the spawn area failed: ${stackOf(err)}\n`),
      );
    });
  });

  serv.on('error', (/** @type {unknown} */ err) => {
    if (!ready) {
      send({ type: 'failed', message: messageOf(err) });
      void shutdown(1);
    }
  });
}

process.on('unhandledRejection', (err) => {
  if (err instanceof Error && /^Timeout waiting for '(pluginsReady|listening)' event$/.test(err.message)) return;
  process.stderr.write(`unhandled rejection: ${stackOf(err)}\n`);
  process.exit(1);
});

try {
  start();
} catch (err) {
  send({ type: 'failed', message: messageOf(err) });
  process.exitCode = 1;
  setTimeout(() => process.exit(1), 100);
}
