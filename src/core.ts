/**
 * The mindlink core, wired from its parts (docs/architecture.md): the
 * store and outbox, people / pairing / links, the avatar manager, the poster,
 * the command host and the message router every bridge talks to. Only
 * wiring lives here; each job has its own module.
 */
import type { Logger } from 'pino';
import { AvatarManager } from './avatars/manager.ts';
import { avatarsOn } from './avatars/moves.ts';
import { purgeRemoved } from './avatars/retire.ts';
import { seedStore } from './avatars/seed.ts';
import type { Bridge } from './chat.ts';
import { createCommandHost, type CommandDispatcher } from './command-host.ts';
import type { Config } from './config.ts';
import type { EngineProvider } from './engines/engine.ts';
import type { GameProvider } from './game/game.ts';
import type { SkillRegistryFactory } from './game/skill.ts';
import { checkGoal as defaultCheckGoal } from './goals/check.ts';
import { SkillLibrary } from './learned/library.ts';
import type { GoalChecker } from './loop/goal-loop.ts';
import { Couriers, type CourierTuning } from './outbox/couriers.ts';
import { Outbox } from './outbox/outbox.ts';
import { Poster } from './outbox/poster.ts';
import { Links } from './people/links.ts';
import { McpTokens } from './people/mcp-tokens.ts';
import { ReadMarks } from './read-marks.ts';
import { Pairing } from './people/pairing.ts';
import { People } from './people/people.ts';
import { MessageRouter } from './router.ts';
import { createScheduleDesk } from './schedule/desk.ts';
import { Scheduler } from './schedule/scheduler.ts';
import { createServerDesk } from './servers/desk.ts';
import { ServerRegistry } from './servers/registry.ts';
import { Sharing } from './sharing.ts';
import { SignInRelay } from './sign-in-relay.ts';
import type { Destination } from './store/schema.ts';
import { ThoughtStream } from './thought-stream.ts';
import { Store, type StoreOptions } from './store/store.ts';
import { Dashboard } from './dashboard.ts';
import { RecentActivity } from './recent.ts';
import { WebAccess } from './web-access.ts';

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
  /** How the store writes its files (tests inject failing writes). */
  store?: Pick<StoreOptions, 'adapter'>;
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
    private readonly couriers: Couriers,
    private readonly games: GameProvider,
    private readonly log: Logger,
  ) {}

  /** Open the store (a corrupt file throws StoreCorruptError), seed first-start data, resume playing avatars. */
  static async start(opts: MindlinkOptions): Promise<Mindlink> {
    const { config, log } = opts;
    const now = opts.now ?? (() => new Date());
    const store = await Store.open(config.DATA_DIR, { log, ...opts.store });
    const outbox = new Outbox(store);
    seedStore(store, config, now());
    // Removed avatars' folders are kept a week (docs/commands.md, `/avatar remove`).
    const purged = await purgeRemoved(config.DATA_DIR, now());
    if (purged.length > 0) log.info({ purged }, 'removed avatars deleted after a week');
    const people = new People(store, config.ADMINS);
    const pairing = new Pairing(store, people, log, config);
    const links = new Links(store, outbox, log, now);
    const poster = new Poster(store, outbox, config);
    const thoughts = new ThoughtStream({ store, post: (dest, avatar, text) => poster.to(dest, avatar, text), now: () => now().getTime() });
    const recent = new RecentActivity(() => now().getTime());
    const web = new WebAccess({ now: () => now().getTime() });
    const learned = new SkillLibrary(config.DATA_DIR, log.child({ module: 'learned' }), now);
    const mcpTokens = new McpTokens(store, people, { now: () => now().getTime() });
    const avatars = new AvatarManager({
      config,
      store,
      log,
      games: opts.games,
      engines: opts.engines,
      skills: opts.skills,
      learned,
      checkGoal: opts.checkGoal ?? defaultCheckGoal,
      post: (avatar, kind, text, ping) => {
        poster.about(avatar, kind, text, ping);
        recent.posted(avatar, kind, text);
      },
      turnEnded: (avatar, summary) => {
        thoughts.turnEnded(avatar, summary);
        recent.turnEnded(avatar, summary);
      },
      signInCode: (avatar, server, code) => relay.send(avatar, server, code),
      now,
    });
    const relay = new SignInRelay({ store, poster, openDm: (identity) => couriers.openDm(identity), enabled: (platform) => poster.enabled(platform), log: log.child({ module: 'sign-in' }) });
    const registry = new ServerRegistry({ store, config, now, avatarsOn: (id) => avatarsOn(avatars, id), embedded: () => opts.games.embedded?.() });
    const servers = createServerDesk({ registry, people, avatars, store });
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
    const desk = createScheduleDesk({ scheduler: schedules, people, store });
    const sharing = new Sharing(store, people, config.ADMINS, now, () => registry.defaultId());
    // The couriers exist only below; a thread is opened long after start-up.
    const openThread = (dest: Destination, name: string): Promise<Destination> => couriers.openThread(dest, name);
    const host = createCommandHost({ avatars, people, links, pairing, schedules: desk, servers, defaultServer: () => registry.defaultId(), config, sharing, thoughts, openThread, web, learned, mcp: mcpTokens, recent });
    const dashboard = new Dashboard({ people, avatars, store, recent, schedules: desk, prices: { inPerMillion: config.LLM_PRICE_IN, outPerMillion: config.LLM_PRICE_OUT } });
    const readMarks = new ReadMarks(store);
    const router = new MessageRouter({ people, links, readMarks, poster, commands: opts.commands, host, log, store, recent, typing: (dest) => couriers.typing(dest) });
    const couriers = new Couriers(outbox, log, {
      onUndeliverable: (dest, reason) => {
        links.unlinkDest(dest, reason);
        thoughts.dropDest(dest);
        readMarks.forget(dest);
      },
      onMoved: (from, to) => links.moveDest(from, to),
    });
    const core = new Mindlink(store, outbox, people, pairing, links, avatars, poster, router, schedules, thoughts, registry, web, dashboard, learned, mcpTokens, couriers, opts.games, log);
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
