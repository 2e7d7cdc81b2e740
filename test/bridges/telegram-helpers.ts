/**
 * mindlink over Telegram for the end-to-end tests: the real core (rights, router, commands, goal loop,
 * outbox, courier), the real store in a temp DATA_DIR and the real grammy bot — against our fake Bot
 * API. Only Minecraft and the engine are stand-ins (a FakeGame and a scripted TestEngine).
 */
import { TelegramBridge } from '../../bridges/telegram/telegram-bridge.ts';
import { commandList, createDispatcher, telegramMenus } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { parseConfig } from '../../src/config.ts';
import { Mindlink, type MindlinkOptions } from '../../src/core.ts';
import type { GameProvider } from '../../src/game/game.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import type { FakeTelegram } from '../fakes/telegram-api.ts';
import { TestEngine, type Script } from '../fakes/test-engine.ts';

/** The avatar's mind for these tests: answers questions, finishes any "logs" goal at once, works on the rest. */
export const script: Script = (req) => {
  if (req.kind === 'question') return "I'm at 0 64 0, next to a birch.\nSTATUS: working";
  if (req.kind === 'wrapup') return 'Lesson: logs are near spawn.\nSTATUS: working';
  if (req.goal && /logs/.test(req.goal.text)) return 'Got them all.\nSTATUS: done';
  return 'Working on it.\nSTATUS: working';
};

const games: GameProvider = {
  create: (avatar) => new FakeGame(avatar.name),
  close: async () => {},
};

export interface Running {
  core: Mindlink;
  bridge: TelegramBridge;
  /** Each avatar's engine, by name, as it is built. */
  engines: Map<string, TestEngine>;
}

/**
 * Start mindlink as `src/main.ts` does (its menus per kind of chat included), with the Telegram bridge pointed at the fake;
 * `more.games` plays the avatars somewhere else than on FakeGames (the embedded world); `more.store` swaps the
 * store's disk (the adapter of a `FullDisk`, `test/fakes/full-disk.ts`).
 */
export async function startMindlink(tg: FakeTelegram, dataDir: string, env: Record<string, string> = {}, more: { games?: GameProvider } & Pick<MindlinkOptions, 'store'> = {}): Promise<Running> {
  const config = parseConfig({
    DATA_DIR: dataDir,
    CONSOLE: 'off',
    LOG_LEVEL: 'silent',
    TELEGRAM_TOKEN: tg.token,
    TELEGRAM_API_ROOT: tg.apiRoot,
    LOOP_PACE_MS: '50',
    LOOP_MAX_PACE_MS: '400',
    ...env,
  });
  const log = silentLogger();
  const engines = new Map<string, TestEngine>();
  const core = await Mindlink.start({
    config,
    skills: createSkillRegistry,
    commands: createDispatcher(),
    log,
    games: more.games ?? games,
    engines: (_kind, ctx) => {
      const engine = new TestEngine(script);
      engines.set(ctx.avatar, engine);
      return engine;
    },
    // Goals here cannot be checked against a world; the engine's word is taken.
    checkGoal: () => ({ checkable: false }),
    ...(more.store ? { store: more.store } : {}),
  });
  const menus = telegramMenus(commandList('telegram'));
  const bridge = new TelegramBridge({
    token: tg.token,
    apiRoot: tg.apiRoot,
    log,
    commands: menus.private,
    groupMenus: { groups: menus.groups, groupAdmins: menus.groupAdmins },
    maxRetryAfterSeconds: 2,
  });
  // Production pacing, but no 1 s per-chat gap (it only slows the test) and short retry backoffs.
  await core.addBridge(bridge, { perChatIntervalMs: 0, groupPerMinute: 60, globalPerSecond: 30, coalesce: true, backoff: { minMs: 200, maxMs: 1000 } });
  return { core, bridge, engines };
}
