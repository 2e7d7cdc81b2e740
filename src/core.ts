/**
 * The mindlink core, wired from its parts (docs/architecture.md): the
 * store and outbox, people / pairing / links, the avatar manager, the poster,
 * the command host and the message router every bridge talks to. Only
 * wiring lives here; each job has its own module.
 */
import type { Logger } from 'pino';
import { AvatarRecords } from './avatars/avatar-records.ts';
import { GoalHistory } from './avatars/goal-history.ts';
import { AvatarManager } from './avatars/manager.ts';
import { Places } from './avatars/places.ts';
import { UsageBook } from './avatars/usage.ts';
import { firstStart } from './first-start.ts';
import type { Bridge } from './chat.ts';
import type { CommandDispatcher } from './command-host.ts';
import { createCommandHost } from './host.ts';
import type { Config } from './config.ts';
import type { EngineProvider } from './engines/engine.ts';
import type { GameProvider } from './game/game.ts';
import type { SkillRegistryFactory } from './game/skill.ts';
import { checkGoal as defaultCheckGoal } from './goals/check.ts';
import { SkillLibrary } from './learned/library.ts';
import type { GoalChecker } from './loop/goal-loop.ts';
import { AvatarNews } from './loop/news.ts';
import { Couriers, type CourierTuning } from './outbox/couriers.ts';
import { Outbox } from './outbox/outbox.ts';
import { Poster } from './outbox/poster.ts';
import { Links } from './people/links.ts';
import { McpTokens } from './people/mcp-tokens.ts';
import { ReadMarks } from './read-marks.ts';
import { HandledUpdates } from './handled-updates.ts';
import { Pairing } from './people/pairing.ts';
import { People } from './people/people.ts';
import { MessageRouter } from './router.ts';
import { createScheduleDesk } from './schedule/desk.ts';
import { Scheduler } from './schedule/scheduler.ts';
import { createServerDesk } from './servers/desk.ts';
import { ServerRegistry } from './servers/registry.ts';
import { Sharing } from './sharing.ts';
import { SignInRelay } from './sign-in-relay.ts';
import { ThoughtStream } from './thought-stream.ts';
import { Store, type StoreOptions } from './store/store.ts';
import { Dashboard } from './dashboard.ts';
import { GameChat } from './game-chat/game-chat.ts';
import { RecentActivity } from './recent.ts';
import { WebAccess } from './web-access.ts';
import type { Destination } from './store/schema.ts';

/** How to start the core. */
export interface MindlinkOptions {
  config: Config;
  log: Logger;
  games: GameProvider;
  engines: EngineProvider;
  /** Each avatar's skill registry, bound to its game (`createSkillRegistry` of `skills/index.ts`). */
  skills: SkillRegistryFactory;
  /** The command dispatcher (`createDispatcher` of `commands/index.ts`). */
  commands: CommandDispatcher;
  checkGoal?: GoalChecker;
  now?: () => Date;
  /**
   * Where the store keeps its data: the files (tests inject failing writes with `adapter`), or a PostgreSQL
   * database (`DATABASE_URL`), its writes fenced by `fence` when given.
   */
  store?: Pick<StoreOptions, 'adapter' | 'database' | 'fence'>;
}

/** How long shutdown lets the couriers deliver before it stops them. */
const SHUTDOWN_DELIVERY_GRACE_MS = 2000;

/**
 * @example
 * const core = await Mindlink.start({ config, log, games, engines, skills: createSkillRegistry, commands: createDispatcher() });
 * await core.addBridge(new ConsoleBridge(process.stdin, process.stdout, log));
 */
export class Mindlink {
  private stopping = false;

  private constructor(
    readonly store: Store,
    readonly outbox: Outbox,
    readonly people: People,
    readonly pairing: Pairing,
    readonly links: Links,
    readonly avatars: AvatarManager,
    readonly poster: Poster,
    readonly router: MessageRouter,
    /** Scheduled goals, daily digests and time played (`src/schedule/`). */
    readonly schedules: Scheduler,
    /** `/verbose` thought streams: one line per turn into a thread. */
    readonly thoughts: ThoughtStream,
    /** The Minecraft servers avatars play on (`src/servers/`). */
    readonly servers: ServerRegistry,
    /** Dashboard sign-in links and sessions (`/web`). */
    readonly web: WebAccess,
    /** What the dashboard shows, by the viewer's rights. */
    readonly dashboard: Dashboard,
    /** The skills avatars wrote and kept (`src/learned/`). */
    readonly learned: SkillLibrary,
    /** Tokens of the people's MCP server (`/mcp`, docs/mcp.md). */
    readonly mcpTokens: McpTokens,
    /** The game's chat: `/relay` into linked chats, and which avatars' `/say` takes server commands. */
    readonly gameChat: GameChat,
    /** The places avatars remember (`/place`, docs/commands.md "Places"). */
    readonly places: Places,
    private readonly couriers: Couriers,
    private readonly games: GameProvider,
    private readonly log: Logger,
  ) {}

  /**
   * Open the store (a corrupt file throws StoreCorruptError), seed first-start data, resume playing avatars.
   * Each part is built after the parts it uses (docs/architecture.md); the loops' lines reach the poster as
   * events ({@link AvatarNews}).
   */
  static async start(opts: MindlinkOptions): Promise<Mindlink> {
    const { config, log } = opts;
    const now = opts.now ?? (() => new Date());
    const store = await Store.open(config.DATA_DIR, { log, ...opts.store });
    // Removed avatars' folders are kept a week (docs/commands.md, `/avatar remove`).
    const purged = await store.avatarFiles.purgeRetired(now());
    if (purged.length > 0) log.info({ purged }, 'removed avatars deleted after a week');
    // The owners of the records: each kind is written by one of them only.
    const outbox = new Outbox(store);
    const people = new People(store, config.ADMINS);
    const links = new Links(store, log, now);
    const readMarks = new ReadMarks(store);
    const handled = new HandledUpdates(store);
    const history = new GoalHistory(store);
    const usage = new UsageBook(store);
    const records = new AvatarRecords(store, history, usage, now);
    const places = new Places(store, records, now);
    const mcpTokens = new McpTokens(store, people, { now: () => now().getTime() });
    // What the loops tell: the poster, the thought streams, the recent lines, the sign-in relay and the chat relay listen.
    const news = new AvatarNews();
    const poster = new Poster(store, outbox, config, news);
    const thoughts = new ThoughtStream({ store, news, post: (dest, avatar, text) => poster.to(dest, avatar, text), now: () => now().getTime() });
    const recent = new RecentActivity(() => now().getTime(), news);
    const learned = new SkillLibrary(store.avatarFiles, log.child({ module: 'learned' }), now);
    const avatars = new AvatarManager({
      config,
      store,
      records,
      history,
      usage,
      news,
      log,
      games: opts.games,
      engines: opts.engines,
      skills: opts.skills,
      learned,
      places,
      checkGoal: opts.checkGoal ?? defaultCheckGoal,
      now,
    });
    // The chat relay tells the avatars whose games listen to the game's chat.
    const gameChat = new GameChat({ store, news, avatars, post: (dest, avatar, text) => poster.to(dest, avatar, text), now });
    // A chat that moved (a Telegram group that became a supergroup) takes its links, relays and waiting posts along.
    const chatMoved = (from: Destination, to: Destination): number => {
      links.moveDest(from, to);
      gameChat.moveDest(from, to);
      return outbox.moveDest(from, to).length;
    };
    const couriers = new Couriers(outbox, log, {
      onUndeliverable: (dest, reason) => {
        links.unlinkDest(dest, reason);
        outbox.dropDest(dest);
        thoughts.dropDest(dest);
        gameChat.dropDest(dest);
        readMarks.forget(dest);
      },
      onMoved: (from, to) => void chatMoved(from, to),
    });
    // The relay listens for sign-in codes on the news by itself.
    new SignInRelay({ store, poster, news, openDm: (identity) => couriers.openDm(identity), enabled: (platform) => poster.enabled(platform), log: log.child({ module: 'sign-in' }) });
    const pairing = new Pairing(store, people, log, config);
    const web = new WebAccess({ now: () => now().getTime() });
    const registry = new ServerRegistry({ store, config, now, avatars, embedded: () => opts.games.embedded?.() });
    firstStart({ config, people, servers: registry, records, links }, now());
    const sharing = new Sharing(store, people, config.ADMINS, now, () => registry.defaultId());
    const servers = createServerDesk({ registry, people, avatars, shares: sharing, places });
    const schedules = new Scheduler({
      store,
      log: log.child({ module: 'schedule' }),
      admins: config.ADMINS,
      host: {
        isPlaying: (name) => avatars.isPlaying(name),
        inGame: (name) => ['choosing', 'working', 'wrapup'].includes(avatars.displayState(name)),
        setGoal: (name, text, personId, run, pingIn) => {
          avatars.setGoal(name, text, personId, { schedule: run, setIn: pingIn });
        },
        parkGoal: (name, text, personId, reason, pingIn) => avatars.parkGoal(name, text, personId, reason, pingIn),
        post: (dest, avatar, text) => poster.to(dest, avatar, text),
      },
    });
    // A removed avatar is forgotten, a renamed one followed, by each part that keeps records naming it.
    avatars.followedBy('links', links);
    avatars.followedBy('shares', sharing);
    avatars.followedBy('streams', thoughts);
    avatars.followedBy('relays', gameChat);
    avatars.followedBy('schedules', schedules);
    avatars.followedBy('places', places);
    const desk = createScheduleDesk({ scheduler: schedules, people, store });
    const host = createCommandHost({
      avatars,
      people,
      links,
      pairing,
      schedules: desk,
      servers,
      defaultServer: () => registry.defaultId(),
      config,
      sharing,
      thoughts,
      openThread: (dest, name) => couriers.openThread(dest, name),
      web,
      learned,
      mcp: mcpTokens,
      recent,
      gameChat,
      places,
    });
    const dashboard = new Dashboard({ people, avatars, store, recent, schedules: desk, places, prices: { inPerMillion: config.LLM_PRICE_IN, outPerMillion: config.LLM_PRICE_OUT } });
    const router = new MessageRouter({ people, links, readMarks, poster, chatMoved, outbox, handled, commands: opts.commands, host, log, store, recent, typing: (dest) => couriers.typing(dest) });
    const core = new Mindlink(store, outbox, people, pairing, links, avatars, poster, router, schedules, thoughts, registry, web, dashboard, learned, mcpTokens, gameChat, places, couriers, opts.games, log);
    await avatars.resumeAll();
    // After the avatars resumed: a run missed while mindlink was down is made up (or skipped) now.
    await schedules.start(now());
    await store.flush();
    return core;
  }

  /** Start a bridge (it talks to the router) and the courier that delivers its posts. */
  async addBridge(bridge: Bridge, tuning: CourierTuning = {}): Promise<void> {
    await this.couriers.add(bridge, this.router, tuning);
  }

  /** Wait until every bridge delivered what it can (tests). */
  async idle(): Promise<void> {
    await this.couriers.idle();
  }

  /** Stop everything gracefully: loops paused between turns, bots quit, posts delivered where possible, state flushed. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.schedules.stop();
    this.thoughts.stop();
    this.gameChat.stop();
    await this.avatars.shutdown();
    // The changes the chats were told about are written before anything else can hold up the stop (the world's
    // quit, a chat platform); the last flush below writes what came after, and reports a disk that still refuses.
    await this.store.flush().catch((err: unknown) => this.log.warn({ err }, 'writing the data files failed; trying again at the end of the stop'));
    await this.couriers.stop(SHUTDOWN_DELIVERY_GRACE_MS);
    await this.games.close();
    // Writes what is still pending (also what failed before, e.g. on a disk that was full).
    await this.store.flush();
    this.store.close();
  }
}
