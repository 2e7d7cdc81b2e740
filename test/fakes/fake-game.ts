/**
 * The one stand-in for the Minecraft side of one avatar, for the goal loop's
 * tests with fake timers, the engines' tests and the core tests that need no
 * world: a state, a snapshot the test sets, capabilities. (The real game is
 * tested against the embedded world in test/game/.)
 */
import { EventEmitter } from 'node:events';
import type { Bot } from 'mineflayer';
import type { AvatarGame, Death, GameCapabilities, GameEvents, GameState, SayOutcome, Scene, Snapshot } from '../../src/game/game.ts';
import type { TopDownMap } from '../../src/game/top-down.ts';

/** How a {@link FakeGame} starts out. */
export interface FakeGameOptions {
  /** Its state; `connected` when a snapshot is given, else `idle`. */
  state?: GameState;
  /** What it sees and carries (while connected). */
  snap?: Snapshot;
  /** What its server can do; none of crafting, hunger and mobs by default. */
  capabilities?: GameCapabilities;
}

export function snapshotOf(partial: Partial<Snapshot> = {}): Snapshot {
  return {
    position: { x: 0, y: 64, z: 0 },
    health: 20,
    food: 20,
    xp: { level: 0, points: 0 },
    inventory: {},
    timeOfDay: 1000,
    dimension: 'overworld',
    nearbyBlocks: {},
    nearbyEntities: [],
    takenAt: 0,
    ...partial,
  };
}

/**
 * @example
 * const game = new FakeGame('steve');                                   // idle until start()
 * const seeing = new FakeGame('demo', { snap: snapshotOf({ inventory: { oak_log: 2 } }) }); // connected
 */
export class FakeGame extends EventEmitter<GameEvents> implements AvatarGame {
  state: GameState;
  snap: Snapshot;
  bot: Bot | undefined = undefined;
  capabilities: GameCapabilities;
  starts = 0;
  stops = 0;
  /** What the 3D view is answered (its blocks only when asked for them), and how often it asked, and for the blocks. */
  view: Scene = { pose: { x: 0.5, y: 64, z: 0.5, yaw: 0, pitch: 0 }, entities: [], blocks: { takenAt: 1, from: { x: -16, y: 48, z: -16 }, to: { x: 16, y: 80, z: 16 }, palette: ['grass_block'], blocks: [0, 63, 0, 0] } };
  sceneCalls = 0;
  blockCalls = 0;
  /** Whether it reports the chat it hears (`hearChat`), and the lines it said (`say`). */
  hearing = false;
  said: string[] = [];
  /** What the world view's map is answered while connected (none unless a test sets one). */
  map: TopDownMap | null = null;

  constructor(
    readonly username = 'steve',
    opts: FakeGameOptions = {},
  ) {
    super();
    this.state = opts.state ?? (opts.snap ? 'connected' : 'idle');
    this.snap = opts.snap ?? snapshotOf();
    this.capabilities = opts.capabilities ?? { crafting: false, hunger: false, mobs: false };
  }

  async start(): Promise<void> {
    this.starts++;
    this.state = 'connected';
    queueMicrotask(() => this.emit('connected'));
  }

  async stop(): Promise<void> {
    this.stops++;
    this.state = 'idle';
  }

  snapshot(): Snapshot | undefined {
    return this.state === 'connected' || this.state === 'dead' ? this.snap : undefined;
  }

  async scene(_radius: number, withBlocks: boolean): Promise<Scene | null> {
    this.sceneCalls++;
    if (withBlocks) this.blockCalls++;
    return this.state === 'connected' ? { ...this.view, blocks: withBlocks ? this.view.blocks : null } : null;
  }

  hearChat(on: boolean): void {
    this.hearing = on;
  }

  async say(line: string): Promise<SayOutcome> {
    if (this.state !== 'connected') return 'not_in_game';
    this.said.push(line);
    return 'said';
  }

  /** A line of the public chat, heard as the real game hears one: only while hearing is on. */
  hear(from: string | null, text: string): void {
    if (this.hearing) this.emit('heard', { from, text });
  }

  worldMap(): TopDownMap | null {
    return this.state === 'connected' ? this.map : null;
  }

  /** Simulate the server dropping the connection. */
  drop(): void {
    this.state = 'down';
    this.emit('disconnected', 'connection reset');
  }

  reconnect(): void {
    this.state = 'connected';
    this.emit('connected');
  }

  /** Simulate a death in the game: dead (at health 0) until {@link FakeGame.respawn}. */
  die(death: Death): void {
    this.state = 'dead';
    this.snap = { ...this.snap, health: 0 };
    this.emit('died', death);
  }

  /** Back at the spawn after `death`, with full health. */
  respawn(death: Death): void {
    this.state = 'connected';
    this.snap = { ...this.snap, health: 20 };
    this.emit('respawned', death);
  }

  /** Gain items, as if a skill ran. */
  give(item: string, n: number): void {
    this.snap = { ...this.snap, inventory: { ...this.snap.inventory, [item]: (this.snap.inventory[item] ?? 0) + n } };
  }
}
