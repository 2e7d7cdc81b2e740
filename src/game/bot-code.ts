/**
 * The code a live bot needs and nothing else does: mineflayer, its pathfinder and the avatars' moves (which
 * extend the pathfinder's), loaded by the first join. A core whose avatars all play on hosts never loads them,
 * nor what they load (minecraft-protocol, the packet codecs' compiler…).
 */
import { createRequire } from 'node:module';
import type mineflayer from 'mineflayer';
import type pf from 'mineflayer-pathfinder';
import { leanProtocol } from './lean-protocol.cjs';
import type { AvatarMovements } from './movements.ts';

/** What {@link loadBotCode} resolves with. */
export interface BotCode {
  mineflayer: typeof mineflayer;
  pathfinder: typeof pf.pathfinder;
  AvatarMovements: typeof AvatarMovements;
}

const requireHere = createRequire(import.meta.url);
let botCode: Promise<BotCode> | undefined;

/**
 * Load the bot's code once (a failed load is tried again by the next call).
 *
 * @example
 * const { mineflayer, pathfinder } = await loadBotCode();
 */
export function loadBotCode(): Promise<BotCode> {
  // minecraft-protocol without what an avatar never runs, and its codecs from the cache (lean-protocol.cjs).
  botCode ??= Promise.resolve()
    .then(() => leanProtocol(requireHere.resolve('mineflayer')))
    .then(() => import('./movements.ts'))
    .then((moves) => ({
      mineflayer: requireHere('mineflayer') as typeof mineflayer,
      pathfinder: (requireHere('mineflayer-pathfinder') as typeof pf).pathfinder,
      AvatarMovements: moves.AvatarMovements,
    }));
  botCode.catch(() => (botCode = undefined));
  return botCode;
}
