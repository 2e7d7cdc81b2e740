/**
 * The {@link GameProvider} of mindlink with avatar hosts: `AVATAR_HOSTS` ≥ 2
 * child processes, or hosts on any machine over NATS (`HOSTS=nats://…`,
 * docs/many-machines.md). The core runs the embedded world as in one
 * process, and the game of every avatar on it or on an offline server runs on
 * a host of the {@link HostPool}; the core holds a {@link HostedGame} for it.
 * An avatar on a server with Microsoft sign-in plays from the core, as in one
 * process: its sign-in codes go to its owner from there (docs/avatar-hosts.md).
 */
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { GameProvider } from '../game.ts';
import { addressOf, capabilitiesOf, createGameProvider, startEmbeddedWorld, type GameAttachment } from '../provider.ts';
import { ChildHosts } from './child-hosts.ts';
import { HostedGame } from './hosted-game.ts';
import { connectNats } from './nats/connect.ts';
import { NatsHosts } from './nats/nats-hosts.ts';
import { HostPool } from './pool.ts';
import type { HostSource } from './source.ts';
import type { WorldAddress } from './protocol.ts';

/** The avatar hosts' entry point. */
export const HOST_ENTRY = fileURLToPath(new URL('../../avatar-host.ts', import.meta.url));

/** A provider whose pool can be reached (tests: which host an avatar is on, the hosts' pids). */
export interface HostedGameProvider extends GameProvider {
  readonly pool: HostPool;
}

/** Whether the configuration runs avatar hosts (child processes or NATS hosts) rather than everything in one process. */
export function usesHosts(config: Pick<Config, 'AVATAR_HOSTS' | 'HOSTS'>): boolean {
  return config.HOSTS !== undefined || config.AVATAR_HOSTS > 1;
}

/** The hosts' source: NATS hosts when `HOSTS` names a server, else `AVATAR_HOSTS` children. */
async function hostSource(config: Config, log: Logger, world: WorldAddress | null): Promise<{ source: HostSource; close(): Promise<void> }> {
  if (!config.HOSTS) {
    return { source: new ChildHosts({ count: config.AVATAR_HOSTS, entry: HOST_ENTRY, world, log }), close: async () => undefined };
  }
  const nc = await connectNats({ servers: config.HOSTS, token: config.NATS_TOKEN, user: config.NATS_USER, pass: config.NATS_PASS, name: 'mindlink core' }, log);
  // NATS hosts on other machines reach the world at its public address.
  const shared = world && { ...world, host: config.WORLD_PUBLIC_HOST ?? world.host };
  return { source: new NatsHosts({ nc, cluster: config.NATS_CLUSTER, world: shared, silenceMs: config.HOST_SILENCE_MS, log }), close: () => nc.close() };
}

/**
 * Start the embedded world (unless it is off) and the hosts (or find them over NATS). `attach` goes on the
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
  const hostsLog = log.child({ component: 'hosts' });
  let hosts: Awaited<ReturnType<typeof hostSource>> | undefined;
  let pool: HostPool;
  try {
    hosts = await hostSource(config, hostsLog, address);
    pool = await HostPool.over(hosts.source, hostsLog);
  } catch (err) {
    await hosts?.close();
    await local.close();
    await world?.stop();
    throw err;
  }
  const transport = hosts;
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
      await transport.close();
      await local.close();
      await world?.stop();
    },
  };
}
