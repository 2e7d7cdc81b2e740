/**
 * An avatar host's entry point (docs/avatar-hosts.md): wiring only, like
 * `src/main.ts`. It runs the games of the avatars placed on it, with the same
 * skills and reflexes as one process does, in one of two ways:
 *
 * - a child of mindlink (its one argument is its {@link HostConfig} as JSON):
 *   it talks to the core over its IPC channel, says it is ready as soon as it
 *   takes messages, and builds the games once it knows where the embedded
 *   world is (told at once, or by a `world` message when it was started while
 *   the world still started), warming up the version's packet codecs
 *   meanwhile; it exits when the core tells it to, and at once when the core
 *   is gone;
 * - on any machine, `npm run host -- --nats nats://… --id <name>`
 *   (docs/many-machines.md): it talks to the core over NATS, warms up while
 *   it waits for a core, plays for the core it hears (the core's beat names
 *   its world, so it never needs a `world` message), and runs until it is
 *   stopped (SIGTERM, Ctrl-C). With a database (`--database`, or
 *   `DATABASE_URL`) it renews the leases of its avatars for a core that holds
 *   them by leases.
 */
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { foreignClaim, shareClaims } from '../skills/claims.ts';
import type { Config } from './config.ts';
import type { CoreToHost, HostConfig, HostToCore, WorldAddress } from './game/hosts/protocol.ts';
import type { HostRuntime } from './game/hosts/host-runtime.ts';
import { NatsAuthError, natsSecrets } from './game/hosts/nats/credentials.ts';
import { SUBJECT_TOKEN } from './game/hosts/nats/subjects.ts';
import type { Database } from './db/connect.ts';
import type { Leases } from './db/leases.ts';
import { shownUrl, urlSecrets } from './db/url-secrets.ts';
import type { GameAttachment } from './game/provider.ts';
import { warmUp } from './game/warm-up.ts';
import type { Logger } from './logger.ts';

/**
 * What a host reads before it plays, loaded when first needed: a child host other than the first reads none of it
 * until the core first asks something of it (see {@link child}). The config (one that will not do is a
 * {@link UsageError}; its secrets are registered with the log), the log, the health line and the embedded world's
 * version.
 */
async function hostParts() {
  const [{ loadConfig }, { createLogger, registerSecret }, { startHealthLog }, { readTickRates }, { embeddedVersion }] = await Promise.all([
    import('./config.ts'),
    import('./logger.ts'),
    import('./health.ts'),
    import('./game/tick-meter.ts'),
    import('./game/embedded/world-start.ts'),
  ]);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  for (const secret of [config.TELEGRAM_TOKEN, config.DISCORD_TOKEN, config.LLM_API_KEY, config.NATS_TOKEN, config.NATS_PASS]) registerSecret(secret);
  const startHealth = (log: Logger, message: string): void => void startHealthLog(log, config.HEALTH_LOG_MS, message, readTickRates);
  return { config, createLogger, registerSecret, startHealth, embeddedVersion };
}

/**
 * The games' code (mineflayer, the pathfinder, the skills), loaded once, when first needed: a child host says it is
 * ready before it loads, and a host other than the first loads it only once the core asks something of it (see
 * {@link child}), so at start-up it takes no CPU from the world, the core and the first host.
 */
let gamesCode: ReturnType<typeof importGamesCode> | undefined;
function importGamesCode() {
  const loading = Promise.all([import('./game/provider.ts'), import('./game/hosts/host-runtime.ts'), import('../skills/index.ts'), import('../skills/reflexes.ts')]);
  // A failure is thrown where the games are built (runtimeFor), which may be later than it happens.
  loading.catch(() => undefined);
  return loading;
}

/** Where this process's block claims go (avatars collecting side by side spread out across hosts too). */
let claimsTo: ((m: HostToCore) => void) | undefined;
shareClaims((key, by, until) => claimsTo?.({ type: 'claim', key, by, until }));

/** The games of one core's avatars, on its world, their messages going out through `send`. */
async function runtimeFor(config: Config, log: Logger, world: WorldAddress | null, send: (m: HostToCore) => void): Promise<HostRuntime> {
  gamesCode ??= importGamesCode();
  const [{ createGameProvider }, { runHost }, { createSkillRegistry }, { Reflexes }] = await gamesCode;
  // Reflexes (defend > eat > flee) act on every avatar's game with no engine call.
  const attach: GameAttachment = (game, gameLog) => {
    const reflexes = new Reflexes(game, gameLog);
    reflexes.start();
    return reflexes;
  };
  const games = await createGameProvider(config, log, { world, attach });
  claimsTo = send;
  return runHost({ games, skills: createSkillRegistry, log, send, foreignClaim });
}

/** The config, the log (its health line started) and the world's version of a child host. */
async function childParts(host: HostConfig): Promise<{ config: Config; log: Logger; embeddedVersion: (config: Config) => string }> {
  const parts = await hostParts();
  const log = parts.createLogger(parts.config.LOG_LEVEL, { sync: true }).child({ avatarHost: host.index });
  parts.startHealth(log, 'host health');
  return { config: parts.config, log, embeddedVersion: parts.embeddedVersion };
}

/**
 * A child of mindlink, on its IPC channel. The first host reads its config and starts its log at once; the others
 * say they are ready having read nothing, keep what the core tells them (where the world is, other hosts' block
 * claims) and read their config, start their log and load the games' code only when the core first asks something
 * of them (an avatar placed on them): at start-up they take no CPU from the world, the core and the first host.
 */
async function child(host: HostConfig): Promise<void> {
  let log: Logger | undefined;
  const send = (m: HostToCore): void => {
    if (process.connected) process.send?.(m);
  };
  let runtime: HostRuntime | undefined;
  /** What the core asked before the games could be built (the world was still starting). */
  const waiting: CoreToHost[] = [];
  let worldIs: (world: WorldAddress | null) => void = () => undefined;
  const worldKnown = host.world !== undefined ? Promise.resolve(host.world) : new Promise<WorldAddress | null>((resolve) => (worldIs = resolve));
  let leaving = false;
  const leave = (why: string): void => {
    if (leaving) return;
    leaving = true;
    log?.info({ why }, 'avatar host stopping');
    // Without its core there is no one to carry on for: a second at most to leave the games.
    const limit = setTimeout(() => process.exit(0), why === 'the core is gone' ? 1000 : 15_000);
    limit.unref();
    void (runtime?.shutdown() ?? Promise.resolve())
      .catch((err: unknown) => log?.warn({ err }, 'leaving the games failed'))
      .finally(() => process.exit(0));
  };
  let asked: () => void = () => undefined;
  const askedOnce = new Promise<void>((resolve) => (asked = resolve));
  process.on('message', (m: CoreToHost) => {
    if (m.type === 'shutdown') leave('asked by the core');
    else if (m.type === 'world') worldIs(m.world);
    else if (runtime) runtime.handle(m);
    // Another host's block claim needs no game here: the skills' claims keep it for the avatars to come.
    else if (m.type === 'claim') foreignClaim(m.key, m.by, m.until);
    else {
      waiting.push(m);
      asked();
    }
  });
  process.on('disconnect', () => leave('the core is gone'));
  process.on('SIGTERM', () => leave('SIGTERM'));
  process.on('SIGINT', () => leave('SIGINT'));
  const first = host.index === 0 ? await childParts(host) : undefined;
  log = first?.log;
  if (leaving) return;
  process.send?.({ type: 'ready', pid: process.pid });
  // sinceStartMs (ms since this process started): for the start-up timeline (docs/benchmarks.md).
  const saidReady = (hostLog: Logger): void => hostLog.info({ pid: process.pid, sinceStartMs: Math.round(performance.now()) }, 'avatar host ready');
  if (log) saidReady(log);
  // Alive while the games are not built yet (the runtime says so from then on).
  const alive = setInterval(() => send({ type: 'alive', avatars: [] }), 2000);
  alive.unref();
  // While the world starts (and the core loads), the games' code and what the first join would wait for, on the
  // first host only, where the first avatar is placed. The others would only take CPU from the world, the core and
  // the first host now: each loads its code when the core first asks something of it (an avatar placed on it),
  // and warms up on its first join.
  if (first) {
    const firstLog = first.log;
    gamesCode ??= importGamesCode();
    // A failure to load is thrown where the games are built (runtimeFor).
    gamesCode.then(
      () => firstLog.debug({ sinceStartMs: Math.round(performance.now()) }, 'games code loaded'),
      () => undefined,
    );
    if (first.config.EMBEDDED) warmUp(first.embeddedVersion(first.config));
    // And the bot's own code (mineflayer, its pathfinder), which the first join would otherwise load before it
    // connects. A failure to load is thrown by that join, which tries again.
    import('./game/bot-code.ts')
      .then((code) => code.loadBotCode())
      .then(
        () => firstLog.debug({ sinceStartMs: Math.round(performance.now()) }, 'bot code loaded'),
        () => undefined,
      );
  }
  const world = await worldKnown;
  if (leaving) return;
  if (!first) await askedOnce;
  if (leaving) return;
  const { config, log: hostLog } = first ?? (await childParts(host));
  if (!log) {
    log = hostLog;
    saidReady(hostLog);
  }
  if (leaving) return;
  const built = await runtimeFor(config, hostLog, world, send);
  clearInterval(alive);
  if (leaving) return;
  runtime = built;
  for (const m of waiting.splice(0)) runtime.handle(m);
}

/** Arguments or a configuration that will not do: one line (and the usage), exit code 2. */
class UsageError extends Error {}

/** What `npm run host` says when its arguments will not do. */
const USAGE = 'usage: npm run host -- --nats nats://host:4222 --id <name> [--capacity <avatars>] [--cluster <name>] [--database postgres://…]';

/**
 * The avatars' leases in the database of `url` (the PostgreSQL client loaded only then): renewed in one statement
 * every few seconds, so two connections are plenty, and a query that gets no answer fails within seconds instead
 * of waiting for TCP.
 */
async function leasesIn(url: string, id: string, log: Logger): Promise<{ db: Database; leases: Leases }> {
  const [{ openDatabase }, leases] = await Promise.all([import('./db/connect.ts'), import('./db/leases.ts')]);
  const db = openDatabase(url, log, { max: 2, name: `mindlink host ${id}`, queryTimeoutMs: 5000 });
  log.info({ db: shownUrl(url) }, 'avatar leases in the database');
  return { db, leases: new leases.Leases(db) };
}

/** A host on any machine, over NATS. */
async function overNats(args: string[]): Promise<void> {
  const { config, createLogger, registerSecret, startHealth, embeddedVersion } = await hostParts();
  let values: { nats?: string | undefined; id?: string | undefined; capacity?: string | undefined; cluster?: string | undefined; database?: string | undefined };
  try {
    ({ values } = parseArgs({
      args,
      options: { nats: { type: 'string' }, id: { type: 'string' }, capacity: { type: 'string' }, cluster: { type: 'string' }, database: { type: 'string' } },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  const servers = values.nats ? values.nats.split(',').map((s) => s.trim()).filter(Boolean) : config.HOSTS;
  const id = values.id ?? '';
  const cluster = values.cluster ?? config.NATS_CLUSTER;
  const capacity = values.capacity === undefined ? config.HOST_CAPACITY : Number(values.capacity);
  const database = values.database?.trim() || config.DATABASE_URL;
  const problem = !servers?.length
    ? '--nats (or HOSTS) names no NATS server'
    : !SUBJECT_TOKEN.test(id)
      ? `--id ${JSON.stringify(id)} must be 1–64 letters, digits, - or _ (this machine could be --id ${hostname().replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 64)})`
      : !SUBJECT_TOKEN.test(cluster)
        ? `--cluster ${JSON.stringify(cluster)} must be 1–64 letters, digits, - or _`
        : !Number.isInteger(capacity) || capacity < 1
          ? `--capacity ${JSON.stringify(values.capacity)} must be a whole number of avatars, 1 or more`
          : servers.some((s) => !/^(nats|tls|wss?):\/\/[^/]/.test(s))
            ? '--nats must be nats://host:port (or tls://, ws://, wss://), several comma-separated'
            : database !== undefined && !/^postgres(ql)?:\/\/\S+$/.test(database)
              ? '--database must be a postgres:// URL'
              : undefined;
  if (problem || !servers) throw new UsageError(`${problem ?? '--nats is missing'}\n${USAGE}`);
  const settings = { servers, token: config.NATS_TOKEN, user: config.NATS_USER, pass: config.NATS_PASS, name: `mindlink host ${id}` };
  for (const secret of [...natsSecrets(settings), ...urlSecrets(database)]) registerSecret(secret);
  const log = createLogger(config.LOG_LEVEL).child({ avatarHost: id });
  startHealth(log, 'host health');
  const [{ connectNats }, { NatsHost }] = await Promise.all([import('./game/hosts/nats/connect.ts'), import('./game/hosts/nats/nats-host.ts')]);
  const nc = await connectNats(settings, log);
  const { db, leases } = database ? await leasesIn(database, id, log) : {};
  // Before it looks for a core, what the first join would wait for (a host is usually started before its core, so
  // this costs no one any time). The version is this machine's guess at the core's (MC_VERSION, else the embedded
  // world's): the core's beat names the real one, and a join on another version compiles its own.
  if (config.EMBEDDED) warmUp(embeddedVersion(config));
  const host = new NatsHost({
    nc,
    cluster,
    id,
    capacity,
    log,
    runtime: (world, send) => runtimeFor(config, log, world, send),
    ...(leases ? { leases } : {}),
  });
  let leaving = false;
  const leave = (why: string, code: number): void => {
    if (leaving) return;
    leaving = true;
    log.info({ why }, 'avatar host stopping');
    const limit = setTimeout(() => process.exit(code), 15_000);
    limit.unref();
    void host
      .leave()
      .then(() => Promise.all([nc.close(), db?.end()]))
      .catch((err: unknown) => log.warn({ err }, 'leaving the games failed'))
      .finally(() => process.exit(code));
  };
  host.on('duplicate', () => leave('another host runs with this id', 1));
  process.on('SIGTERM', () => leave('SIGTERM', 0));
  process.on('SIGINT', () => leave('SIGINT', 0));
  void nc.closed().then((err) => {
    if (leaving) return;
    log.error({ err }, 'the NATS connection closed for good');
    process.exit(1);
  });
  await host.start();
  log.info({ pid: process.pid, id, cluster, capacity }, 'avatar host ready; waiting for a core');
}

async function main(): Promise<void> {
  process.umask(0o077);
  const args = process.argv.slice(2);
  if (args[0]?.startsWith('{')) await child(JSON.parse(args[0]) as HostConfig);
  else await overNats(args);
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`mindlink avatar host: ${err.message}\n`);
    process.exit(2);
  }
  if (err instanceof NatsAuthError) {
    process.stderr.write(`mindlink avatar host: ${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`mindlink avatar host: start-up failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
