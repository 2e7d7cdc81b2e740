/**
 * The game's child processes, the embedded world and the avatar hosts,
 * started side by side (the hosts are told where the world listens once it
 * does). Light on purpose (no game library): `src/main.ts` starts them first
 * thing, so they start while the core loads the rest of itself.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { addressOf, startEmbeddedWorld } from '../embedded/world-start.ts';
import type { WorldSupervisor } from '../embedded/world-supervisor.ts';
import { HostPool } from './pool.ts';

/** The avatar hosts' entry point: `src/avatar-host.ts`, or its build (`dist/src/avatar-host.js`) when mindlink runs from the build. */
export const HOST_ENTRY = fileURLToPath(new URL(`../../avatar-host${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/** The world (undefined with `EMBEDDED=off`) and the host pool, each ready when its promise resolves. */
export interface GameProcesses {
  world: Promise<WorldSupervisor | undefined>;
  pool: Promise<HostPool>;
}

/**
 * Start the world and `config.AVATAR_HOSTS` hosts at once. A failure of either is seen where they are
 * awaited (`createHostedProvider`), which leaves no process of the two running.
 *
 * @example
 * const processes = startGameProcesses(config, log); // before loading the rest of mindlink
 * const games = await createHostedProvider(config, log, { attach }, processes);
 */
export function startGameProcesses(config: Config, log: Logger): GameProcesses {
  const world = startEmbeddedWorld(config, log);
  const pool = HostPool.start({
    count: config.AVATAR_HOSTS,
    entry: HOST_ENTRY,
    world: world.then((w) => (w ? addressOf(w) : null)),
    log: log.child({ component: 'hosts' }),
  });
  // Awaited later, once the core has loaded: not unhandled meanwhile.
  world.catch(() => undefined);
  pool.catch(() => undefined);
  return { world, pool };
}
