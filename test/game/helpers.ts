/**
 * Helpers for the game tests: a real embedded world in a temp dir, real mineflayer games, and
 * waiting on conditions with a deadline (never fixed sleeps).
 */
import { once } from 'node:events';
import type { Bot } from 'mineflayer';
import { getSkill } from '../../skills/index.ts';
import type { Skill } from '../../src/game/skill.ts';
import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { AVATAR_BRAND, EMBEDDED_CAPABILITIES, MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { createLogger, silentLogger, type Logger } from '../../src/logger.ts';

/** A logger for tests: silent unless TEST_LOG is set (e.g. TEST_LOG=debug). */
export function testLogger(): Logger {
  const level = process.env.TEST_LOG;
  return level ? createLogger(level, { pretty: false }) : silentLogger();
}

/** A fresh temp data dir and a function that removes it. */
export function tempDataDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `mindlink-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Start an embedded world in `dir` (at the embedded world's default version unless `version` says another). */
export function startWorld(dir: string, log: Logger, port?: number, version?: string): Promise<EmbeddedWorld> {
  return EmbeddedWorld.start({ dataDir: dir, log, ...(port !== undefined ? { port } : {}), ...(version !== undefined ? { version } : {}) });
}

/** The one embedded world of a test file, started before its tests and stopped after them. */
export interface FileWorld {
  /** The running world (after a restart, the new one). */
  readonly world: EmbeddedWorld;
  readonly log: Logger;
  /** Games the tests joined: each is stopped after the file's tests. */
  readonly games: MineflayerGame[];
  /** Start the world again in the same folder, on `port` (the tests stopped it themselves). */
  startAgain(port: number): Promise<EmbeddedWorld>;
  /** A player joined and settled at (x, 64, z), holding these items. */
  avatar(name: string, x: number, z: number, items?: Array<[string, number]>): Promise<{ game: MineflayerGame; bot: Bot }>;
}

/** The bot's inventory-window slots from `from` to 45 (1–4 the crafting grid, 9–45 the inventory) as `slot → name×count`. */
export function botSlots(bot: Bot, from = 9): Record<string, string> {
  const out: Record<string, string> = {};
  for (let s = from; s <= 45; s++) {
    const item = bot.inventory.slots[s];
    if (item) out[s] = `${item.name}×${item.count}`;
  }
  return out;
}

/** The server's record of the same slots, and the player's cursor. */
export async function serverSlots(world: EmbeddedWorld, username: string, from = 9): Promise<{ slots: Record<string, string>; cursor: unknown }> {
  const inv = await world.inventory(username);
  const slots: Record<string, string> = {};
  for (const [slot, item] of Object.entries(inv.slots)) if (Number(slot) >= from) slots[slot] = `${item.name}×${item.count}`;
  return { slots, cursor: inv.cursor };
}

/**
 * The bot's and the server's slots once they agree (the server's answers to the bot's last clicks may still be on
 * their way), or as they are after 10 s; the caller asserts they are equal, so a failure shows both.
 */
export async function slotsOnBothSides(world: EmbeddedWorld, bot: Bot, username: string, from = 9): Promise<{ bot: Record<string, string>; server: Record<string, string>; cursor: unknown }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const server = await serverSlots(world, username, from);
    const mine = botSlots(bot, from);
    if (JSON.stringify(server.slots) === JSON.stringify(mine) || Date.now() > deadline) return { bot: mine, server: server.slots, cursor: server.cursor };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A skill of the engines' registry by its id (a test names only skills that exist). */
export function skillNamed(id: string): Skill {
  const s = getSkill(id);
  if (!s) throw new Error(`no skill ${id}`);
  return s;
}

/** How many of an item the bot carries. */
export function held(bot: Bot, name: string): number {
  return bot.inventory.count(bot.registry.itemsByName[name]!.id, null);
}

/**
 * What {@link digsArriveAtOnce} tells: how many digs it held back, how many of their blocks the world sent back, how
 * many digs the bot ended in all since, and a stop.
 */
export interface HeldDigs {
  held(): number;
  ended(): number;
  sentBack(): number;
  stop(): void;
}

/**
 * Make the bot's next `n` digs reach the world as they would after a stall of its loop: the start of each is held
 * back and sent together with its end, so the world sees a dig that took no time and refuses it as too fast,
 * sending the block back. Counts the blocks the world sent back: the block a held dig was of, again at its spot.
 */
export function digsArriveAtOnce(bot: Bot, n: number): HeldDigs {
  const client = bot._client;
  const write = client.write.bind(client);
  type Spot = { x: number; y: number; z: number };
  const same = (a: Spot, b: Spot): boolean => a.x === b.x && a.y === b.y && a.z === b.z;
  let held = 0;
  let sentBack = 0;
  let ended = 0;
  let start: { status: number; location: Spot } | undefined;
  const dug: Array<{ at: Spot; state: number }> = [];
  client.write = (name: string, params: { status?: number; location?: Spot }) => {
    if (name === 'block_dig' && params.status === 2) ended += 1;
    if (name === 'block_dig' && held < n && params.location) {
      if (params.status === 0) {
        start = params as { status: number; location: Spot };
        return;
      }
      if (start) {
        write(name, start);
        const state = bot.blockAt(bot.entity.position.clone().set(start.location.x, start.location.y, start.location.z))?.stateId;
        if (params.status === 2 && state !== undefined) {
          held += 1;
          dug.push({ at: start.location, state });
        }
        start = undefined;
      }
    }
    write(name, params);
  };
  const onChange = (p: { location: Spot; type: number }): void => {
    if (dug.some((d) => same(d.at, p.location) && d.state === p.type)) sentBack += 1;
  };
  client.on('block_change', onChange);
  return {
    held: () => held,
    ended: () => ended,
    sentBack: () => sentBack,
    stop: () => {
      client.write = write;
      client.off('block_change', onChange);
    },
  };
}

/**
 * A world for this test file (its data in a temp folder, removed after), with animals and monsters kept out
 * unless `mobs` is true: nothing wanders in to push a player away or hurt it. `version` serves another
 * Minecraft version than the embedded world's default.
 */
export function worldPerFile(prefix: string, opts: { mobs?: boolean; version?: string } = {}): FileWorld {
  const log = testLogger();
  const data = tempDataDir(prefix);
  const games: MineflayerGame[] = [];
  let world: EmbeddedWorld | undefined;
  const start = async (port?: number): Promise<EmbeddedWorld> => {
    world = await startWorld(data.dir, log, port, opts.version);
    if (!opts.mobs) await world.setMobSpawning({ animals: false, monsters: false });
    return world;
  };
  beforeAll(async () => {
    await start();
  });
  afterAll(async () => {
    await Promise.all(games.map((g) => g.stop()));
    await world?.stop();
    data.remove();
  });
  const running = (): EmbeddedWorld => {
    if (!world) throw new Error(`the ${prefix} world is not started`);
    return world;
  };
  return {
    get world(): EmbeddedWorld {
      return running();
    },
    log,
    games,
    startAgain: start,
    async avatar(name, x, z, items = []) {
      const game = await connectedGame(running(), name, log);
      games.push(game);
      await teleportAndSettle(running(), game, { x: x + 0.5, y: 64, z: z + 0.5 });
      const bot = game.bot!;
      for (const [item, n] of items) await running().give(name, item, n);
      await waitFor(() => items.every(([item, n]) => held(bot, item) >= n), 10_000, `${name}'s items`);
      return { game, bot };
    },
  };
}

/**
 * A mineflayer game for `username` on the world, not started, reconnecting at the tests' pace: an avatar, as
 * mindlink runs it there, or a person (a client that does not say it is mindlink's, so the world spares it nothing).
 */
export function worldGame(world: EmbeddedWorld, username: string, log: Logger, as: 'avatar' | 'person' = 'avatar'): MineflayerGame {
  return new MineflayerGame({
    username,
    host: world.host,
    port: world.port,
    version: world.version,
    log,
    capabilities: EMBEDDED_CAPABILITIES,
    reconnect: { minMs: 200, maxMs: 1000 },
    ...(as === 'avatar' ? { brand: AVATAR_BRAND } : {}),
  });
}

/** A connected game on the world (waits for `connected`), an avatar unless told a person (see worldGame). */
export async function connectedGame(world: EmbeddedWorld, username: string, log: Logger, as: 'avatar' | 'person' = 'avatar'): Promise<MineflayerGame> {
  const game = worldGame(world, username, log, as);
  const connected = once(game, 'connected');
  await game.start();
  await connected;
  return game;
}

/** Poll `cond` every 50 ms until it holds; throws after `ms`, saying `what` (a function is asked at that moment). */
export async function waitFor(cond: () => boolean, ms: number, what: string | (() => string) = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolve with the args of the next `event`, or reject after `ms`, saying what `seen` describes then. */
export async function nextEvent<T extends unknown[]>(emitter: NodeJS.EventEmitter, event: string, ms: number, seen?: () => string): Promise<T> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(new Error(`no ${event} within ${ms} ms${seen ? `; ${seen()}` : ''}`)), ms);
  try {
    return (await once(emitter, event, { signal: ac.signal })) as T;
  } finally {
    clearTimeout(timer);
  }
}

/** Push every complete line written to `stream` onto `lines` (a chunk may end mid-line). */
export function collectLines(stream: NodeJS.ReadableStream, lines: string[]): void {
  let buf = '';
  stream.on('data', (b: Buffer | string) => {
    buf += b.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (line !== '') lines.push(line);
    }
  });
}

/**
 * Teleport a player (server side) and wait until its bot stands there. A teleport sent while the server still
 * finishes the login can be overridden by the client's own position, so it is sent again until it holds.
 */
export async function teleportAndSettle(world: EmbeddedWorld, game: { readonly username: string; readonly bot: Bot | undefined }, to: { x: number; y: number; z: number }, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  const there = (): boolean => {
    const e = game.bot?.entity;
    return !!e && Math.hypot(e.position.x - to.x, e.position.y - to.y, e.position.z - to.z) < 1.5 && e.onGround;
  };
  while (!there()) {
    if (Date.now() > deadline) {
      throw new Error(`${game.username} did not settle at ${to.x} ${to.y} ${to.z} within ${ms} ms; it is at ${game.bot?.entity.position}`);
    }
    await world.teleport(game.username, to);
    const retry = Date.now() + 3000;
    while (!there() && Date.now() < retry) await new Promise((r) => setTimeout(r, 50));
  }
}
