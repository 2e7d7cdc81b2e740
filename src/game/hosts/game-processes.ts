/**
 * The game's processes, the embedded world and the avatar hosts, started
 * side by side: `AVATAR_HOSTS` child processes (told where the world listens
 * once it does), or the hosts on any machine over NATS (`HOSTS=nats://…`,
 * docs/many-machines.md), looked for while the world starts. Light on purpose
 * (no game library, and the NATS client only when `HOSTS` names a server):
 * `src/main.ts` starts them first thing, so they start while the core loads
 * the rest of itself.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { addressOf, startEmbeddedWorld } from '../embedded/world-start.ts';
import type { WorldSupervisor } from '../embedded/world-supervisor.ts';
import { HostPool } from './pool.ts';
import type { WorldAddress } from './protocol.ts';

/** The avatar hosts' entry point: `src/avatar-host.ts`, or its build (`dist/src/avatar-host.js`) when mindlink runs from the build. */
export const HOST_ENTRY = fileURLToPath(new URL(`../../avatar-host${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url));

/** The world (undefined with `EMBEDDED=off`) and the host pool, each ready when its promise resolves. */
export interface GameProcesses {
  world: Promise<WorldSupervisor | undefined>;
  pool: Promise<HostPool>;
}

/** Whether the configuration runs avatar hosts (child processes or NATS hosts) rather than everything in one process. */
export function usesHosts(config: Pick<Config, 'AVATAR_HOSTS' | 'HOSTS'>): boolean {
  return config.HOSTS !== undefined || config.AVATAR_HOSTS > 1;
}

/**
 * Start the world and the hosts at once: `config.AVATAR_HOSTS` children, or, when `config.HOSTS` names NATS
 * servers, a pool over the hosts found there. A failure of either is seen where they are awaited
 * (`createHostedProvider`), which leaves no process of the two running.
 *
 * @example
 * const processes = startGameProcesses(config, log); // before loading the rest of mindlink
 * const games = await createHostedProvider(config, log, { attach }, processes);
 */
export function startGameProcesses(config: Config, log: Logger): GameProcesses {
  const world = startEmbeddedWorld(config, log);
  const address = world.then((w) => (w ? addressOf(w) : null));
  const hostsLog = log.child({ component: 'hosts' });
  const pool = config.HOSTS
    ? natsPool(config, config.HOSTS, address, hostsLog)
    : HostPool.start({ count: config.AVATAR_HOSTS, entry: HOST_ENTRY, world: address, log: hostsLog });
  // Awaited later, once the core has loaded: not unhandled meanwhile.
  address.catch(() => undefined);
  world.catch(() => undefined);
  pool.catch(() => undefined);
  return { world, pool };
}

/**
 * A pool over the NATS hosts: it connects while the world starts, and beats (which is how the hosts learn where
 * the world is, so none needs a `world` message) only once the world listens. Closing the pool closes the
 * connection.
 */
async function natsPool(config: Config, servers: string[], world: Promise<WorldAddress | null>, log: Logger): Promise<HostPool> {
  const [{ connectNats }, { NatsHosts }] = await Promise.all([import('./nats/connect.ts'), import('./nats/nats-hosts.ts')]);
  const nc = await connectNats({ servers, token: config.NATS_TOKEN, user: config.NATS_USER, pass: config.NATS_PASS, name: 'mindlink core' }, log);
  try {
    const address = await world;
    // NATS hosts on other machines reach the world at its public address.
    const shared = address && { ...address, host: config.WORLD_PUBLIC_HOST ?? address.host };
    const source = new NatsHosts({ nc, cluster: config.NATS_CLUSTER, world: shared, silenceMs: config.HOST_SILENCE_MS, log, closesConnection: true });
    return await HostPool.over(source, log);
  } catch (err) {
    await nc.close();
    throw err;
  }
}
