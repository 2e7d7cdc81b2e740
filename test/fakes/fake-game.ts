/**
 * A stand-in for the Minecraft side of one avatar, for the goal loop's pure
 * tests with fake timers. (The real game is tested against the embedded
 * world in test/game/.)
 */
import { EventEmitter } from 'node:events';
import type { AvatarGame, GameCapabilities, GameEvents, GameState, Snapshot } from '../../src/game/game.ts';

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

export class FakeGame extends EventEmitter<GameEvents> implements AvatarGame {
  state: GameState = 'idle';
  snap: Snapshot = snapshotOf();
  readonly bot = undefined;
  readonly capabilities: GameCapabilities = { crafting: false, hunger: false, mobs: false };
  starts = 0;
  stops = 0;

  constructor(readonly username = 'steve') {
    super();
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
    return this.state === 'connected' ? this.snap : undefined;
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

  /** Gain items, as if a skill ran. */
  give(item: string, n: number): void {
    this.snap = { ...this.snap, inventory: { ...this.snap.inventory, [item]: (this.snap.inventory[item] ?? 0) + n } };
  }
}
