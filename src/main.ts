/**
 * mindlink's entry point: wiring only. With `src/avatar-host.ts` (the avatar
 * hosts' entry), the only modules under `src/` that import `bridges/`,
 * `commands/` or `skills/` (the import rules in `.dependency-cruiser.cjs`
 * allow them and nothing else).
 *
 * Start-up order (docs/benchmarks.md, "Start-up"): the config and the log,
 * then at once the game's processes (the embedded world and the avatar
 * hosts start side by side), and only then the rest of mindlink is loaded,
 * while they start; a chat bridge's library is loaded only when it is
 * configured.
 */
import { ConsoleBridge } from '../bridges/console.ts';
import { loadConfig, type Config } from './config.ts';
import type { Database } from './db/connect.ts';
import type { FrontendLease } from './db/frontend-lease.ts';
import { shownUrl, urlSecrets } from './db/url-secrets.ts';
import type { Mindlink } from './core.ts';
import { ConfigError, StoreCorruptError, StoreWriteError, writeFailureReason } from './errors.ts';
import { startGameProcesses, usesHosts } from './game/hosts/game-processes.ts';
import { NatsAuthError, natsSecrets } from './game/hosts/nats/credentials.ts';
import type { GameAttachment } from './game/provider.ts';
import { startHealthLog } from './health.ts';
import { readTickRates } from './game/tick-meter.ts';
import { createLogger, registerSecret, routeConsoleToLog, type Logger } from './logger.ts';
import { ensureDataDir } from './store/data-dir.ts';

/** How long start-up waits for Telegram before going on without it (it keeps connecting in the background). */
const TELEGRAM_GRACE_MS = 5000;
/** The same for Discord (discord.js retries a gateway it cannot reach). */
const DISCORD_GRACE_MS = 10_000;
/** The longest a graceful stop may take (the world alone may take 20 s to save and quit) before the process exits anyway, code 1. */
const SHUTDOWN_DEADLINE_MS = 90_000;

async function main(): Promise<void> {
  // Everything mindlink writes (store, TASK.md, lab logs, the embedded world) is its owner's alone.
  process.umask(0o077);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  try {
    await ensureDataDir(config.DATA_DIR);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
  for (const secret of [config.TELEGRAM_TOKEN, config.DISCORD_TOKEN, config.LLM_API_KEY, ...urlSecrets(config.DATABASE_URL)]) registerSecret(secret);
  for (const secret of natsSecrets({ servers: config.HOSTS ?? [], token: config.NATS_TOKEN, pass: config.NATS_PASS })) registerSecret(secret);
  const log: Logger = createLogger(config.LOG_LEVEL);
  routeConsoleToLog(log);
  // With one process the avatars play here: its health line says how many physics ticks they ran.
  startHealthLog(log, config.HEALTH_LOG_MS, 'health', readTickRates);
  // The store in PostgreSQL: reachable now, or the start stops here with one line.
  const database = config.DATABASE_URL ? await reachDatabase(config.DATABASE_URL, log) : undefined;
  // With the store in PostgreSQL one core at a time runs: a second one stands by here until the first one's lease
  // lapses, with the rest of mindlink loaded meanwhile so that it takes over sooner.
  const preloaded = database ? loadCore() : undefined;
  preloaded?.catch(() => undefined); // awaited below, where a failure to load stops the start
  const front = database ? await holdFrontEnd(database, config, log) : undefined;
  // The world and the hosts start now (or the NATS hosts are looked for), while the rest of mindlink loads.
  const processes = usesHosts(config) ? startGameProcesses(config, log) : undefined;
  const [{ Mindlink }, { createEngineProvider }, { commandList, createDispatcher, telegramMenus }, { createSkillRegistry, skills: skillList }, { Reflexes }, { llmOffered }, { readItemNames }] =
    await (preloaded ?? loadCore());
  log.debug({ sinceStartMs: Math.round(performance.now()) }, 'core loaded');
  // What the first turn reads (the item names goals are checked against), read while the world and the hosts start.
  readItemNames();

  // The console reads from the first moment so that lines typed during start-up are queued, not lost.
  const consoleBridge = config.CONSOLE ? new ConsoleBridge(process.stdin, process.stdout, log.child({ bridge: 'console' })) : undefined;

  let core: Mindlink | undefined;
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    // This timer also keeps the process alive until the stop has run to its end: with the chats closed and
    // the world quitting, nothing else might, and Node would end the process (code 0) before the data files are written.
    setTimeout(() => {
      process.stderr.write(`mindlink: the stop did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting without waiting for the rest.\n`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    void (core?.stop() ?? Promise.resolve())
      // A standby takes over at once instead of waiting for the lease to lapse.
      .then(() => front?.release())
      .then(() => database?.end())
      .then(() => {
        log.info({ signal }, 'stopped');
        process.exit(0);
      })
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        if (err instanceof StoreWriteError) {
          process.stderr.write(`mindlink: stopped without saving ${err.file}: ${writeFailureReason(err.cause)}; the changes since its last write are lost.\n`);
        }
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  try {
    // With avatar hosts (children, or over NATS) the games, skills and reflexes run there (src/avatar-host.ts); with one, here.
    // Reflexes (defend > eat > flee) act on every avatar's game with no engine call.
    const attach: GameAttachment = (game, gameLog) => {
      const reflexes = new Reflexes(game, gameLog);
      reflexes.start();
      return reflexes;
    };
    const games = processes
      ? await (await import('./game/hosts/hosted-provider.ts')).createHostedProvider(config, log, { attach }, processes)
      : await (await import('./game/provider.ts')).createGameProvider(config, log, { attach });
    const skillRegistry = processes ? (await import('./game/hosts/remote-skills.ts')).hostedSkills(skillList, createSkillRegistry) : createSkillRegistry;
    core = await Mindlink.start({ config, log, games, engines: createEngineProvider(config), skills: skillRegistry, commands: createDispatcher(), store: database ? { database, ...(front ? { fence: front.fence } : {}) } : {} }).catch(
      async (err: unknown) => {
        // The world and the avatar hosts run in processes of their own: a start that fails stops them, so none is
        // left running (and writing into DATA_DIR) after mindlink has exited.
        await games.close().catch((closeErr: unknown) => log.error({ err: closeErr }, 'could not stop the game processes'));
        throw err;
      },
    );
  } catch (err) {
    if (err instanceof StoreCorruptError) {
      process.stderr.write(`mindlink: ${err.message}\n`);
      process.exit(1);
    }
    if (err instanceof NatsAuthError) {
      process.stderr.write(`config: HOSTS: ${err.message}\n`);
      process.exit(1);
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    if (err instanceof StoreWriteError) {
      const where = config.DATABASE_URL ? `DATABASE_URL=${shownUrl(config.DATABASE_URL)}` : `DATA_DIR=${JSON.stringify(config.DATA_DIR)}`;
      process.stderr.write(`config: ${where}: could not write ${err.file}: ${writeFailureReason(err.cause)}\n`);
      process.exit(1);
    }
    throw err;
  }
  if (stopping) return;

  const running = core;
  /**
   * A chat or the web refused at start: one line, then what started is stopped (the world and the hosts write into
   * DATA_DIR, and the avatars leave their games) before the process ends with code 1.
   */
  const refuse = async (line: string): Promise<never> => {
    process.stderr.write(line);
    stopping = true;
    setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS).unref();
    await running.stop().catch((err: unknown) => log.error({ err }, 'could not stop after a refused start'));
    await front?.release().catch((err: unknown) => log.error({ err }, 'could not release the front end'));
    await database?.end().catch((err: unknown) => log.error({ err }, 'could not close the store'));
    return process.exit(1);
  };
  // The menus offer what /help offers: the llm engine's commands only where it is configured or used.
  const llm = llmOffered(config, core.avatars.all());
  if (consoleBridge) await core.addBridge(consoleBridge);
  if (config.TELEGRAM_TOKEN) {
    // Each kind of chat gets the menu of what works there (docs/telegram.md "The command menu").
    const menus = telegramMenus(commandList('telegram', { llm, mcp: config.MCP }));
    const { TelegramBridge } = await import('../bridges/telegram/telegram-bridge.ts');
    const telegram = new TelegramBridge({
      token: config.TELEGRAM_TOKEN,
      apiRoot: config.TELEGRAM_API_ROOT,
      log: log.child({ bridge: 'telegram' }),
      commands: menus.private,
      groupMenus: { groups: menus.groups, groupAdmins: menus.groupAdmins },
      nameOf: (identity) => running.people.personOf(identity)?.name,
    });
    const started = core.addBridge(telegram, { perChatIntervalMs: 1000, groupPerMinute: 20, globalPerSecond: 30, coalesce: true });
    // grammy retries getMe for as long as Telegram is unreachable; that must not hold up the console and the avatars.
    // A refused token answers at once and stops start-up; an unreachable API connects in the background.
    const first = await Promise.race([
      started.then(() => 'up' as const),
      new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), TELEGRAM_GRACE_MS).unref()),
    ]).catch((err: unknown) => {
      return refuse(`config: TELEGRAM_TOKEN was not accepted: ${(err as Error).message}\n`);
    });
    if (first === 'pending') {
      log.warn('Telegram is not reachable yet; mindlink keeps trying in the background');
      started.catch((err: unknown) => log.error({ err }, 'the Telegram bridge could not start'));
    }
  }
  if (config.DISCORD_TOKEN) {
    const { DiscordBridge } = await import('../bridges/discord/discord-bridge.ts');
    const discord = new DiscordBridge({
      token: config.DISCORD_TOKEN,
      apiUrl: config.DISCORD_API_URL,
      guildId: config.DISCORD_GUILD_ID,
      log: log.child({ bridge: 'discord' }),
      commands: commandList('discord', { llm, mcp: config.MCP }),
    });
    // Discord allows 5 messages per 5 s in a channel and 50 requests per second in all.
    const started = core.addBridge(discord, { perChatIntervalMs: 1000, globalPerSecond: 45, coalesce: true });
    const first = await Promise.race([
      started.then(() => 'up' as const),
      new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), DISCORD_GRACE_MS).unref()),
    ]).catch((err: unknown) => {
      return refuse(`config: DISCORD_TOKEN was not accepted: ${(err as Error).message}\n`);
    });
    if (first === 'pending') {
      log.warn('Discord is not reachable yet; mindlink keeps trying in the background');
      started.catch((err: unknown) => log.error({ err }, 'the Discord bridge could not start'));
    }
  }
  if (config.WEB) {
    const { WebBridge, WebPortInUseError } = await import('../bridges/web/web-bridge.ts');
    const mcp = config.MCP ? new (await import('./mcp/people-server.ts')).PeopleMcp({ tokens: core.mcpTokens, host: core.router, log: log.child({ bridge: 'mcp' }) }) : undefined;
    const web = new WebBridge({ access: core.web, dashboard: core.dashboard, log: log.child({ bridge: 'web' }), host: config.WEB_HOST, port: config.WEB_PORT, ...(mcp ? { mcp } : {}) });
    await core.addBridge(web).catch((err: unknown) => {
      const what = err instanceof WebPortInUseError ? err.message : `WEB_HOST=${JSON.stringify(config.WEB_HOST)} cannot be listened on: ${(err as Error).message}`;
      return refuse(`config: ${what}\n`);
    });
  }
  const playing = core.avatars.all().filter((a) => a.playing).map((a) => a.name);
  const detail = playing.length > 0 ? `playing: ${playing.join(', ')}` : 'no avatar is playing; /play starts one';
  consoleBridge?.ready(detail);
  log.info({ playing }, 'mindlink ready');
}

/** The rest of mindlink, loaded once the config is read (while the game's processes start). */
function loadCore() {
  return Promise.all([
    import('./core.ts'),
    import('./engines/index.ts'),
    import('../commands/index.ts'),
    import('../skills/index.ts'),
    import('../skills/reflexes.ts'),
    import('./command-host.ts'),
    import('./game/known-items.ts'),
  ]);
}

/**
 * Wait until this core holds the front end's lease (docs/many-machines.md "Two cores"), saying on stderr who holds
 * it meanwhile; Ctrl-C or SIGTERM while standing by ends the process. Once held, a lost lease ends the process at
 * once (code 1), before it writes or posts anything more: another core runs mindlink then.
 */
async function holdFrontEnd(database: Database, config: Config, log: Logger): Promise<FrontendLease> {
  const [{ migrate }, { takeFrontend }] = await Promise.all([import('./db/migrate.ts'), import('./db/frontend-lease.ts')]);
  await migrate(database);
  const stop = new AbortController();
  const onSignal = (): void => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let front: FrontendLease;
  try {
    front = await takeFrontend(database, {
      ttlMs: config.LEASE_MS,
      log,
      signal: stop.signal,
      onStandby: (holder, until) =>
        process.stderr.write(`mindlink: standing by: another core (${holder}) runs mindlink on this database; this one takes over once its lease lapses (${until.toISOString()} unless renewed).\n`),
    });
  } catch (err) {
    if (!stop.signal.aborted) throw err;
    process.stderr.write('mindlink: stopped while standing by.\n');
    await database.end();
    process.exit(0);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  void front.lost.then((why) => {
    log.error({ why }, 'lost the front end: another core runs mindlink now; stopping at once');
    process.stderr.write(`mindlink: ${why}; another core runs mindlink now, so this one stops.\n`);
    process.exit(1);
  });
  return front;
}

/** A pool on the store's database once it answers; a database that does not stops the start with one line (exit code 1). */
async function reachDatabase(url: string, log: Logger): Promise<Database> {
  // The PostgreSQL client is loaded only when the store is there.
  const { openDatabase } = await import('./db/connect.ts');
  const database = openDatabase(url, log);
  try {
    await database.query('select 1');
  } catch (err) {
    process.stderr.write(`config: DATABASE_URL=${shownUrl(url)} cannot be used: ${(err as Error).message}\n`);
    process.exit(1);
  }
  log.info({ db: shownUrl(url) }, 'the store is in PostgreSQL');
  return database;
}

if (process.argv[2] === 'migrate') {
  // `mindlink migrate --from-files DATA_DIR`: a one-off command, not a start.
  const { migrateCommand } = await import('./migrate-command.ts');
  process.exit(await migrateCommand(process.argv.slice(3)));
}

main().catch((err: unknown) => {
  process.stderr.write(`mindlink: start-up failed: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
