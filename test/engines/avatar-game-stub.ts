/**
 * A minimal in-test {@link AvatarGame}: a state, a snapshot the test sets, and
 * capabilities. It stands in for the game server boundary in engine tests.
 */
import { EventEmitter } from 'node:events';
import type { Bot } from 'mineflayer';
import type { AvatarGame, GameCapabilities, GameEvents, GameState, Snapshot } from '../../src/game/game.ts';
import type { CompletionCheck, GoalView } from '../../src/engines/engine.ts';
import { checkGoal } from '../../src/goals/check.ts';

import { EMBEDDED_CAPABILITIES as EMBEDDED } from '../../src/game/mineflayer-game.ts';

/** The embedded flying-squid world's and a vanilla server's capabilities. */
export { EMBEDDED_CAPABILITIES as EMBEDDED, VANILLA_CAPABILITIES as VANILLA } from '../../src/game/mineflayer-game.ts';
/** A server with no crafting and no hunger (a minimal or modded server; what the embedded world once was). */
export const BARE: GameCapabilities = Object.freeze({ crafting: false, hunger: false, mobs: false });
/** A snapshot with sensible defaults, overridable field by field. */
export { snapshotOf as makeSnapshot } from '../fakes/fake-game.ts';

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

/** The completion check the goal loop hands an engine with each request: `goal` against `game`'s snapshot when asked. */
export function completionOn(game: AvatarGame, goal: GoalView | null): () => CompletionCheck {
  return () => {
    const snap = game.snapshot();
    return goal && snap ? checkGoal(goal.text, goal.baseline, snap) : { checkable: false };
  };
}
