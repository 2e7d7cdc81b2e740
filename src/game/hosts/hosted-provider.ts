/**
 * The {@link GameProvider} of mindlink with avatar hosts: `AVATAR_HOSTS` ≥ 2
 * child processes, or hosts on any machine over NATS (`HOSTS=nats://…`,
 * docs/many-machines.md). The core runs the embedded world as in one
 * process, and the game of every avatar on it or on an offline server runs on
 * a host of the {@link HostPool}; the core holds a {@link HostedGame} for it.
 * An avatar on a server with Microsoft sign-in plays from the core, as in one
 * process: its sign-in codes go to its owner from there (docs/avatar-hosts.md). */
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { GameProvider } from '../game.ts';
import { addressOf, capabilitiesOf, createGameProvider, type GameAttachment } from '../provider.ts';
import { startGameProcesses, type GameProcesses } from './game-processes.ts';
import { HostedGame } from './hosted-game.ts';
import type { HostPool } from './pool.ts';

export { HOST_ENTRY } from './game-processes.ts';

/** A provider whose pool can be reached (tests: which host an avatar is on, the hosts' pids). */
export interface HostedGameProvider extends GameProvider {
  readonly pool: HostPool;
}

/**
 * Start the embedded world (unless it is off) and the hosts (`config.AVATAR_HOSTS` children, or the NATS hosts
 * of `config.HOSTS`), or take the ones {@link startGameProcesses} started already. `attach` goes on the games that play from the core (the hosts
 * attach their own reflexes).
 *
 * @example
 * const games = await createHostedProvider(config, log, { attach });
 * const core = await Mindlink.start({ config, log, games, engines, skills: hostedSkills(skills, createSkillRegistry), commands });
 */
export async function createHostedProvider(
  config: Config,
  log: Logger,
  opts: { attach?: GameAttachment } = {},
  processes: GameProcesses = startGameProcesses(config, log),
): Promise<HostedGameProvider> {
  const pool = await processes.pool.catch(async (err: unknown) => {
    await processes.world.then((w) => w?.stop(), () => undefined);
    throw err;
  });
  const world = await processes.world;
  const address = world ? addressOf(world) : null;
  const local = await createGameProvider(config, log, { ...opts, world: address });
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
