/**
 * The {@link GameProvider} of mindlink with avatar hosts (`AVATAR_HOSTS` ≥ 2):
 * the core runs the embedded world as in one process, and every avatar's
 * game runs on a host of the {@link HostPool}; the core holds a
 * {@link HostedGame} for it.
 */
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { GameProvider } from '../game.ts';
import { addressOf, capabilitiesOf, startEmbeddedWorld } from '../provider.ts';
import { HostPool } from './pool.ts';

/** The avatar hosts' entry point. */
export const HOST_ENTRY = fileURLToPath(new URL('../../avatar-host.ts', import.meta.url));

/** A provider whose pool can be reached (tests: which host an avatar is on, the hosts' pids). */
export interface HostedGameProvider extends GameProvider {
  readonly pool: HostPool;
}

/**
 * Start the embedded world (unless `MC_HOST` is set) and `config.AVATAR_HOSTS` hosts.
 *
 * @example
 * const games = await createHostedProvider(config, log);
 * const core = await Mindlink.start({ config, log, games, engines, skills: hostedSkills(skills, createSkillRegistry), commands });
 */
export async function createHostedProvider(config: Config, log: Logger): Promise<HostedGameProvider> {
  const world = await startEmbeddedWorld(config, log);
  const pool = await HostPool.start({ count: config.AVATAR_HOSTS, entry: HOST_ENTRY, world: world ? addressOf(world) : null, log: log.child({ component: 'hosts' }) }).catch(async (err: unknown) => {
    await world?.stop();
    throw err;
  });
  return {
    pool,
    create(avatar, server) {
      if (server.host === null && !world) throw new Error(`avatar ${avatar.name} is on the embedded world, but MC_HOST points elsewhere`);
      return pool.game(avatar.name, server, capabilitiesOf(server));
    },
    async close() {
      await pool.close();
      await world?.stop();
    },
  };
}
