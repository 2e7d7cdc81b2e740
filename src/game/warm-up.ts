/**
 * What the first avatar of a process would otherwise wait for as it joins:
 * minecraft-protocol compiling the packet codecs of its version (once per
 * process, for each state a join goes through and each direction), and minecraft-data reading that
 * version's tables. An avatar host does both while it waits to be told where
 * the world is, so the first join starts with them done.
 */
import { createRequire } from 'node:module';
import { leanProtocol } from './lean-protocol.cjs';

interface Protocol {
  createSerializer(opts: { state: string; isServer: boolean; version: string }): unknown;
  createDeserializer(opts: { state: string; isServer: boolean; version: string }): unknown;
  states: Record<string, string> & { STATUS: string };
}

/**
 * Compile the client's codecs and load the registry of `version` (the copies mineflayer uses).
 *
 * @example
 * warmUp('1.21.4');
 */
export function warmUp(version: string): void {
  const mineflayerFile = createRequire(import.meta.url).resolve('mineflayer');
  leanProtocol(mineflayerFile);
  const fromMineflayer = createRequire(mineflayerFile);
  const protocol = fromMineflayer('minecraft-protocol') as Protocol;
  // The states a join goes through: the status ping's is compiled when a ping first needs it.
  for (const state of Object.values(protocol.states).filter((s) => s !== protocol.states.STATUS)) {
    protocol.createSerializer({ state, isServer: false, version });
    protocol.createDeserializer({ state, isServer: false, version });
  }
  const registry = (fromMineflayer('prismarine-registry') as (v: string) => Record<string, unknown>)(version);
  // The tables a bot reads as it joins and spawns (minecraft-data reads each file when first asked).
  for (const table of ['blocksArray', 'itemsArray', 'entitiesArray', 'biomesArray', 'blockCollisionShapes', 'recipes', 'materials', 'effectsArray', 'enchantmentsArray']) void registry[table];
}
