/**
 * minecraft-data's lookup by version, remembered.
 *
 * prismarine-physics builds a `PlayerState` on every physics tick of every bot
 * (and mineflayer-pathfinder builds more while it checks straight lines), and
 * each one calls `require('minecraft-data')(bot.version)`. That call returns
 * the same cached data every time, but first rebuilds a version object by
 * walking the whole version list: about 0.2 ms, 20 times a second per bot —
 * measured, 13 % of the CPU of bots collecting. The lookup is replaced, in
 * the module cache that prismarine-physics requires it from, by one that
 * remembers each answer; everything else minecraft-data exports stays as it
 * was. Answers are the same objects as before (minecraft-data caches them
 * itself), so nothing that reads them can tell.
 */
import { createRequire } from 'node:module';

type Lookup = ((version: string | number, preNetty?: boolean) => unknown) & Record<string, unknown>;

let installed = false;

/**
 * Install the remembering lookup (once per process).
 *
 * @example
 * rememberMinecraftData(); // before the first bot is created
 */
export function rememberMinecraftData(): void {
  if (installed) return;
  installed = true;
  // The copy prismarine-physics uses: resolved from mineflayer (our dependency) down to it.
  const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer'));
  const fromPhysics = createRequire(fromMineflayer.resolve('prismarine-physics'));
  const id = fromPhysics.resolve('minecraft-data');
  fromPhysics(id);
  const entry = fromPhysics.cache[id];
  if (!entry) return;
  const original = entry.exports as Lookup;
  const answers = new Map<string, unknown>();
  const remembered = Object.assign((version: string | number, preNetty?: boolean): unknown => {
    const key = `${String(version)}|${preNetty === true}`;
    if (answers.has(key)) return answers.get(key);
    const answer = original(version, preNetty);
    // minecraft-data answers null for a version it does not know; keep asking it then.
    if (answer !== null && answer !== undefined) answers.set(key, answer);
    return answer;
  }, original);
  entry.exports = remembered;
}
