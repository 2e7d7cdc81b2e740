/**
 * A minimal in-test {@link AvatarGame}: a state, a snapshot the test sets, and
 * capabilities. It stands in for the game server boundary in engine tests.
 */
import { EventEmitter } from 'node:events';
import type { Bot } from 'mineflayer';
import type { AvatarGame, GameCapabilities, GameEvents, GameState, Snapshot } from '../../src/game/game.ts';

/** The embedded flying-squid world's capabilities. */
export const EMBEDDED: GameCapabilities = { crafting: false, hunger: false, mobs: false };
/** A vanilla server's capabilities. */
export const VANILLA: GameCapabilities = { crafting: true, hunger: true, mobs: true };

/** A snapshot with sensible defaults, overridable field by field. */
export function makeSnapshot(over: Partial<Snapshot> = {}): Snapshot {
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
    ...over,
  };
}

/** An AvatarGame stand-in whose state and snapshot the test controls. */
export class StubGame extends EventEmitter<GameEvents> implements AvatarGame {
  readonly username = 'demo';
  state: GameState;
  snap: Snapshot | undefined;
  bot: Bot | undefined = undefined;
  capabilities: GameCapabilities;

  constructor(opts: { state?: GameState; snap?: Snapshot; capabilities?: GameCapabilities } = {}) {
    super();
    this.state = opts.state ?? 'idle';
    this.snap = opts.snap;
    this.capabilities = opts.capabilities ?? EMBEDDED;
  }

  async start(): Promise<void> {
    this.state = 'connected';
  }

  async stop(): Promise<void> {
    this.state = 'ended';
  }

  snapshot(): Snapshot | undefined {
    return this.snap;
  }
}
