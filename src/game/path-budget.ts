/**
 * One thinking budget for every avatar's pathfinder in this process.
 *
 * mineflayer-pathfinder thinks up to `tickTimeout` ms per bot on each physics
 * tick (default 40 ms, of a 50 ms tick). All bots share one event loop, so 25
 * avatars finding paths at once held it for about a second per tick round
 * (measured: event-loop delay p50 1.2 s, `/status` answered in 0.6–3.9 s). The
 * budget is split among the connected bots instead, so the loop stays free
 * for chat, the goal loops and the other bots' packets; a path then takes
 * more ticks to find, not more of the loop.
 */
import type { Bot } from 'mineflayer';

/** Milliseconds of path search per physics tick for all bots together. */
export const PATH_BUDGET_MS = 20;
/** What one bot may think per tick: never less than this (a path must still be found), never more than the library's default. */
const MIN_PER_BOT_MS = 1;
const MAX_PER_BOT_MS = 40;

const bots = new Set<Bot>();

/** The per-bot share of the budget for `n` bots. */
export function perBotThinkMs(n: number): number {
  return Math.max(MIN_PER_BOT_MS, Math.min(MAX_PER_BOT_MS, Math.floor(PATH_BUDGET_MS / Math.max(1, n))));
}

function rebalance(): void {
  const share = perBotThinkMs(bots.size);
  for (const bot of bots) bot.pathfinder.tickTimeout = share;
}

/**
 * Count a spawned bot in the budget; the returned function takes it out (on `end`).
 *
 * @example
 * const leave = joinPathBudget(bot);
 * bot.once('end', leave);
 */
export function joinPathBudget(bot: Bot): () => void {
  bots.add(bot);
  rebalance();
  return () => {
    if (bots.delete(bot)) rebalance();
  };
}
