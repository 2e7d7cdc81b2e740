/**
 * The {@link GameProvider} of mindlink with avatar hosts (`AVATAR_HOSTS` ≥ 2):
 * the core runs the embedded world as in one process, and the game of every
 * avatar on it or on an offline server runs on a host of the
 * {@link HostPool}; the core holds a {@link HostedGame} for it. An avatar on a
 * server with Microsoft sign-in plays from the core, as in one process: its
 * sign-in codes go to its owner from there (docs/avatar-hosts.md).
 */
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { GameProvider } from '../game.ts';
import { addressOf, capabilitiesOf, createGameProvider, startEmbeddedWorld, type GameAttachment } from '../provider.ts';
import { HostedGame } from './hosted-game.ts';
import { HostPool } from './pool.ts';

/** The avatar hosts' entry point. */
export const HOST_ENTRY = fileURLToPath(new URL('../../avatar-host.ts', import.meta.url));

/** A provider whose pool can be reached (tests: which host an avatar is on, the hosts' pids). */
export interface HostedGameProvider extends GameProvider {
  readonly pool: HostPool;
}

/**
 * Start the embedded world (unless it is off) and `config.AVATAR_HOSTS` hosts. `attach` goes on the
 * games that play from the core (the hosts attach their own reflexes).
 *
 * @example
 * const games = await createHostedProvider(config, log, { attach });
 * const core = await Mindlink.start({ config, log, games, engines, skills: hostedSkills(skills, createSkillRegistry), commands });
 */
export async function createHostedProvider(config: Config, log: Logger, opts: { attach?: GameAttachment } = {}): Promise<HostedGameProvider> {
  const world = await startEmbeddedWorld(config, log);
  const address = world ? addressOf(world) : null;
  const local = await createGameProvider(config, log, { ...opts, world: address });
  const pool = await HostPool.start({ count: config.AVATAR_HOSTS, entry: HOST_ENTRY, world: address, log: log.child({ component: 'hosts' }) }).catch(async (err: unknown) => {
    await local.close();
    await world?.stop();
    throw err;
  });
  return {
    pool,
    create(avatar, server, avatarLog) {
      const onHost = server.host === null ? world !== undefined : server.auth === 'offline';
      return onHost ? pool.game(avatar.name, server, capabilitiesOf(server)) : local.create(avatar, server, avatarLog);
    },
    release(game) {
      if (!(game instanceof HostedGame)) local.release?.(game);
    },
    renamed: (from, to) => local.renamed?.(from, to),
    forget: (name) => local.forget?.(name),
    embedded: () => local.embedded?.(),
    async close() {
      await pool.close();
      await local.close();
      await world?.stop();
    },
  };
}
