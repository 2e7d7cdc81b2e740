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
import { ConfigError } from '../../errors.ts';
import { shownUrl } from '../../db/url-secrets.ts';
import type { AvatarLeases } from './avatar-leases.ts';
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
 * the world is, so none needs a `world` message) only once the world listens. With `DATABASE_URL`, each avatar
 * is held by a lease in the database (`avatar-leases.ts`). Closing the pool closes the connection and the database.
 */
async function natsPool(config: Config, servers: string[], world: Promise<WorldAddress | null>, log: Logger): Promise<HostPool> {
  const [{ connectNats }, { NatsHosts }] = await Promise.all([import('./nats/connect.ts'), import('./nats/nats-hosts.ts')]);
  const leases = config.DATABASE_URL ? await avatarLeases(config.DATABASE_URL, config.LEASE_MS, log) : undefined;
  const nc = await connectNats({ servers, token: config.NATS_TOKEN, user: config.NATS_USER, pass: config.NATS_PASS, name: 'mindlink core' }, log).catch(async (err: unknown) => {
    await leases?.close();
    throw err;
  });
  try {
    const address = await world;
    // NATS hosts on other machines reach the world at its public address.
    const shared = address && { ...address, host: config.WORLD_PUBLIC_HOST ?? address.host };
    const source = new NatsHosts({ nc, cluster: config.NATS_CLUSTER, world: shared, silenceMs: config.HOST_SILENCE_MS, log, closesConnection: true, ...(leases ? { leaseMs: leases.leaseMs } : {}) });
    return await HostPool.over(source, log, leases ? { leases } : {});
  } catch (err) {
    await nc.close();
    await leases?.close();
    throw err;
  }
}

/** The avatars' leases in the database of `url` (its schema brought up to date first); it stops the start when the database cannot be reached. */
async function avatarLeases(url: string, leaseMs: number, log: Logger): Promise<AvatarLeases> {
  const [{ openDatabase }, { migrate }, { Leases }, { AvatarLeases }] = await Promise.all([
    import('../../db/connect.ts'),
    import('../../db/migrate.ts'),
    import('../../db/leases.ts'),
    import('./avatar-leases.ts'),
  ]);
  const db = openDatabase(url, log, { name: 'mindlink core', queryTimeoutMs: 5000 });
  try {
    await migrate(db);
  } catch (err) {
    await db.end();
    throw new ConfigError(`config: DATABASE_URL: the database ${shownUrl(url)} could not be used: ${(err as Error).message}`);
  }
  log.info({ db: shownUrl(url), leaseMs }, 'avatars are held by leases in the database');
  return new AvatarLeases(new Leases(db), { leaseMs, log, close: () => db.end() });
}
