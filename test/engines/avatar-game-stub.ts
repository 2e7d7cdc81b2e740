/**
 * The engine tests' game: the one game double of `test/fakes/fake-game.ts` as the avatar `demo`, on the
 * embedded world unless told otherwise, and the capabilities of the servers an engine meets.
 */
import type { GameCapabilities } from '../../src/game/game.ts';
import { EMBEDDED_CAPABILITIES } from '../../src/game/mineflayer-game.ts';
import { FakeGame, type FakeGameOptions } from '../fakes/fake-game.ts';

/** The embedded flying-squid world's and a vanilla server's capabilities. */
export { EMBEDDED_CAPABILITIES as EMBEDDED, VANILLA_CAPABILITIES as VANILLA } from '../../src/game/mineflayer-game.ts';
/** A server with no crafting and no hunger (a minimal or modded server; what the embedded world once was). */
export const BARE: GameCapabilities = Object.freeze({ crafting: false, hunger: false, mobs: false });
/** A snapshot with sensible defaults, overridable field by field. */
export { snapshotOf as makeSnapshot } from '../fakes/fake-game.ts';

/**
 * `demo`'s game for an engine test: idle and seeing nothing unless given a snapshot (then connected).
 *
 * @example
 * const game = demoGame({ snap: makeSnapshot({ inventory: { oak_log: 3 } }), capabilities: VANILLA });
 */
export function demoGame(opts: FakeGameOptions = {}): FakeGame {
  return new FakeGame('demo', { capabilities: EMBEDDED_CAPABILITIES, ...opts });
}
