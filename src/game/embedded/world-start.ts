/**
 * Starting the embedded world from mindlink's config. Light on purpose (no
 * game library): `src/main.ts` starts the world first thing, so it starts
 * while the core loads the rest of itself.
 */
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { WorldAddress } from '../hosts/protocol.ts';
import { WorldSupervisor } from './world-supervisor.ts';

/** The Minecraft version of the embedded world: `MC_VERSION` when no `MC_HOST` takes it, else 1.21.4. */
export function embeddedVersion(config: Config): string {
  return (config.MC_HOST ? undefined : config.MC_VERSION) ?? '1.21.4';
}

/**
 * The embedded world, started unless it is off (it restarts by itself when it dies).
 *
 * @example
 * const world = await startEmbeddedWorld(config, log); // undefined with EMBEDDED=off
 */
export async function startEmbeddedWorld(config: Config, log: Logger): Promise<WorldSupervisor | undefined> {
  if (!config.EMBEDDED) return undefined;
  // MC_PORT is the embedded world's port only when no MC_HOST takes it.
  const port = config.MC_HOST ? undefined : config.MC_PORT;
  const world = await WorldSupervisor.start({
    dataDir: config.DATA_DIR,
    ...(port ? { port } : {}),
    listenHost: config.WORLD_HOST,
    version: embeddedVersion(config),
    healthMs: config.HEALTH_LOG_MS,
    log,
  });
  log.info({ port: world.port, version: world.version }, 'embedded world ready');
  return world;
}

/** Where a running embedded world listens. */
export function addressOf(world: WorldSupervisor): WorldAddress {
  return { host: world.host, port: world.port, version: world.version };
}
