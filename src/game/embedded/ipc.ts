/**
 * What the embedded world's host (`embedded-world.ts`, in mindlink's process) and its child (`server.cjs`)
 * say to each other: the start-up config, the messages each way over the IPC channel, and the admin
 * operations a request names with their arguments and results. Types only, defined once: the host
 * imports them, the child's CommonJS reads them through JSDoc (`import('./ipc.ts')`), and `npm run
 * typecheck` checks both sides against them.
 */
import type { Vec3Like } from '../game.ts';

/** The child's config, JSON in its first argument (`node server.cjs '<json>'`). */
export interface WorldConfig {
  /** The world is saved under `<dataDir>/world`. */
  dataDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  version: string;
  seed: number;
  viewDistance: number;
  maxPlayers?: number;
  /** Items lying about at most (a drop beyond is not made): entity-cap.cjs. */
  maxItems?: number;
  /** Write flying-squid's debug lines to stdout. */
  verbose?: boolean;
  /** Send a `health` message this often (ms); 0 or absent never. */
  healthMs?: number;
}

/** The world process's cost over the last interval (the `health` message). */
export interface WorldHealth {
  pid: number;
  rssMb: number;
  /** Percent of one core. */
  cpuPct: number;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  players: number;
  /** Packets sent to the players per socket write over the interval (write-batch.cjs); absent without writes. */
  packetsPerWrite?: number;
}

/** An item as the server's admin operations report it. */
export interface ServerItem {
  name: string;
  count: number;
}

/** A player's inventory as the embedded server holds it (the `inventory` operation). */
export interface ServerInventory {
  /** Window-0 slot number (9–35 main, 36–44 hotbar, 1–4 crafting grid, 45 offhand) → item. */
  slots: Record<string, ServerItem>;
  cursor: ServerItem | null;
  heldItemSlot: number;
  tableOpen: boolean;
}

/** A player's hunger as the embedded server holds it. */
export interface ServerHunger {
  food: number;
  saturation: number;
  exhaustion: number;
  health: number;
}

/** An embedded-world furnace as the server holds it (the `furnace` operation). */
export interface ServerFurnace {
  input: ServerItem | null;
  fuel: ServerItem | null;
  output: ServerItem | null;
  /** Fuel ticks left, and the burn time of the fuel item burning now. */
  burn: number;
  burnTotal: number;
  /** Progress of the input item, in ticks (200 to smelt). */
  cook: number;
  lit: boolean;
}

/** A mob of the embedded world as the server holds it (the `mobs` operation). */
export interface ServerMob {
  id: number;
  name: string;
  x: number;
  y: number;
  z: number;
  health: number;
  onFire: boolean;
  dead: boolean;
}

/** One admin operation: what a request carries, and what its reply's `result` is (`void`: none to read). */
interface Op<Args, Result> {
  args: Args;
  result: Result;
}

type NoArgs = Record<string, never>;

/** The operations `server.cjs` itself answers. */
export interface ServerOps {
  kick: Op<{ username: string; reason: string }, void>;
  /** `count` defaults to 1. */
  give: Op<{ username: string; item: string; count?: number }, void>;
  setBlock: Op<Vec3Like & { name: string }, void>;
  blockAt: Op<Vec3Like, string | null>;
  findBlocks: Op<{ from: Vec3Like; to: Vec3Like; names: string[] }, Array<Vec3Like & { name: string }>>;
  sendPacket: Op<{ username: string; name: string; params: Record<string, unknown> }, void>;
  /** The result: how many players wait. */
  holdLogins: Op<{ hold: boolean }, number>;
  players: Op<NoArgs, string[]>;
  /** Where the items lying about are (entity-cap.cjs keeps their number). */
  items: Op<NoArgs, Vec3Like[]>;
  teleport: Op<Vec3Like & { username: string }, void>;
  command: Op<{ text: string }, void>;
}

/** The operations the plugins add (`plugins.cjs`). */
export interface PluginOps {
  inventory: Op<{ username: string }, ServerInventory>;
  clearInventory: Op<{ username: string }, void>;
  hunger: Op<{ username: string }, ServerHunger>;
  setHunger: Op<Partial<ServerHunger> & { username: string }, void>;
  kill: Op<{ username: string }, void>;
  /** The result: how many respawn requests were left unanswered since the hold began. */
  holdRespawns: Op<{ hold: boolean }, number>;
  /** The result: the mob's entity id. */
  spawnMob: Op<Vec3Like & { name: string }, number>;
  mobs: Op<NoArgs, ServerMob[]>;
  setMobSpawning: Op<{ animals?: boolean; monsters?: boolean }, void>;
  clearMobs: Op<NoArgs, void>;
  furnace: Op<Vec3Like, ServerFurnace | null>;
}

/** Every admin operation by name. */
export type WorldOps = ServerOps & PluginOps;
export type WorldOpName = keyof WorldOps;

/** A handler's answer: its result, at once or as a promise; one with no result to read (`void`) may answer anything. */
type Answer<Result> = [Result] extends [void] ? unknown : Result | Promise<Result>;

/** The child's handlers of some operations. */
export type OpHandlers<Ops extends { [K in keyof Ops]: Op<unknown, unknown> }> = {
  [K in keyof Ops]: (args: Ops[K]['args']) => Answer<Ops[K]['result']>;
};

/** child → parent. */
export type ChildMessage =
  /**
   * Once it listens; with when (ms since the child's process started) its libraries were loaded and it listened,
   * for the start-up timeline (docs/benchmarks.md).
   */
  | { type: 'ready'; port: number; loadedMs: number; listeningMs: number }
  /**
   * Once what the first join would wait for is done (see first-join.cjs): when (ms since the child's process started)
   * the packet codecs were compiled and the spawn's columns loaded, for the start-up timeline.
   */
  | { type: 'warmedUp'; codecsMs: number; spawnAreaMs: number }
  /** Every `healthMs` when the config sets it. */
  | ({ type: 'health' } & WorldHealth)
  /** Start-up failed; it then exits with code 1. */
  | { type: 'failed'; message: string }
  /** The answer to the request with the same `id`. */
  | { type: 'reply'; id: number; ok: boolean; result?: unknown; error?: string };

/** A request for one operation, answered by a `reply` with the same `id`. */
export type WorldRequest = { [K in WorldOpName]: { type: 'request'; id: number; op: K; args: WorldOps[K]['args'] } }[WorldOpName];

/** parent → child: a request, or `stop` (save, kick everyone, exit 0). */
export type ParentMessage = { type: 'stop' } | WorldRequest;
