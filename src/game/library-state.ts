/**
 * What the game libraries keep once per process, made safe for a process
 * whose bots play on servers of several Minecraft versions at once (an
 * avatar host, or mindlink's own process with `AVATAR_HOSTS=1`).
 *
 * - prismarine-recipe keeps one recipe table and one item table, set by the
 *   last bot created: each version gets its own copy of the module
 *   (`recipes-per-version.ts`).
 * - minecraft-data keeps one cache keyed by version (right for every
 *   version); its lookup is remembered for speed (`minecraft-data-memo.ts`).
 * - mineflayer-pathfinder's searches all think within one budget per tick
 *   (`path-budget.ts`), whatever the version.
 * - minecraft-protocol's packet splitter class is shared: it is replaced by
 *   one that cuts the same packets without throwing (`framing.ts`).
 * - Everything else is built per bot from the bot's own registry or
 *   version: prismarine-registry, -item, -block (its shapes are written into
 *   minecraft-data's per-version tables), -chunk, -world, -windows, -entity,
 *   -chat, prismarine-physics and mineflayer-pathfinder's `Movements`. Our
 *   own per-version caches are kept per bot or per registry (`block-search.ts`,
 *   `snapshot.ts`, `block-cache.ts`).
 * - V8 may let a busy heap grow to four times what it keeps: a process that
 *   plays avatars holds the growth at half as much again (`heap-growth.ts`).
 */
import { rememberMinecraftData } from './minecraft-data-memo.ts';
import { recipesPerVersion } from './recipes-per-version.ts';
import { sharePathBudget } from './path-budget.ts';
import { splitPacketsQuietly } from './framing.ts';
import { limitHeapGrowth } from './heap-growth.ts';

/**
 * Make the libraries' process-wide state safe for bots of any versions (once per process, before the first bot).
 *
 * @example
 * prepareLibraries();
 * const bot = mineflayer.createBot({ host, port, version, username });
 */
export function prepareLibraries(): void {
  rememberMinecraftData();
  recipesPerVersion();
  sharePathBudget();
  splitPacketsQuietly();
  limitHeapGrowth();
}
