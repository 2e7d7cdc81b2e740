/**
 * mindlink over Discord for the end-to-end tests: the real core (rights,
 * router, commands, goal loop, outbox, courier), the real store in a temp
 * DATA_DIR and the real discord.js client — against our fake Discord. Only
 * Minecraft and the engine are stand-ins (a FakeGame and a scripted TestEngine).
 */
import { join } from 'node:path';
import { DiscordBridge, type DiscordBridgeOptions } from '../../bridges/discord/discord-bridge.ts';
import { parseConfig } from '../../src/config.ts';
import { commandList, createDispatcher } from '../../commands/index.ts';
import { llmOffered } from '../../src/command-host.ts';
import { Mindlink } from '../../src/core.ts';
import type { GameProvider } from '../../src/game/game.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { createLogger, silentLogger } from '../../src/logger.ts';
import type { FakeDiscord } from '../fakes/discord-api.ts';
import { FakeGame } from '../fakes/fake-game.ts';
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

/** A token long enough for the config's check. */
export const TOKEN = 'fake-discord-bot-token-for-tests';

export interface Running {
  core: Mindlink;
  bridge: DiscordBridge;
  /** Each avatar's engine, by name, as it is built. */
  engines: Map<string, TestEngine>;
}

/**
 * Start mindlink as `src/main.ts` does, with the Discord bridge pointed at the fake. Its `AGENTS_DIR` is an empty
 * folder unless `env` names one, so its menus do not depend on the agent CLIs installed in the checkout.
 */
export async function startMindlink(
  fake: FakeDiscord,
  dataDir: string,
  env: Record<string, string> = {},
  bridgeOptions: Partial<DiscordBridgeOptions> = {},
  more: { script?: Script; now?: () => Date; games?: GameProvider } = {},
): Promise<Running> {
  const config = parseConfig({
    DATA_DIR: dataDir,
    AGENTS_DIR: join(dataDir, 'no-agents'),
    CONSOLE: 'off',
    LOG_LEVEL: process.env.TEST_LOG ?? 'silent',
    DISCORD_TOKEN: fake.token,
    DISCORD_API_URL: fake.apiUrl,
    LOOP_PACE_MS: '50',
    LOOP_MAX_PACE_MS: '400',
    ...env,
  });
  const log = process.env.TEST_LOG ? createLogger(process.env.TEST_LOG, { pretty: false }) : silentLogger();
  const engines = new Map<string, TestEngine>();
  const core = await Mindlink.start({
    config,
    skills: createSkillRegistry,
    commands: createDispatcher(),
    log,
    games: more.games ?? games,
    engines: (_kind, ctx) => {
      const engine = new TestEngine(more.script ?? script);
      engines.set(ctx.avatar, engine);
      return engine;
    },
    ...(more.now ? { now: more.now } : {}),
    // Goals here cannot be checked against a world; the engine's word is taken.
    checkGoal: () => ({ checkable: false }),
  });
  const bridge = new DiscordBridge({
    token: config.DISCORD_TOKEN ?? '',
    apiUrl: config.DISCORD_API_URL,
    guildId: config.DISCORD_GUILD_ID,
    log,
    commands: commandList('discord', { llm: llmOffered(config, core.avatars.all()), mcp: config.MCP }),
    maxRetryAfterSeconds: 2,
    ...bridgeOptions,
  });
  // Production pacing but no per-channel gap (it only slows the test), and short retry backoffs.
  await core.addBridge(bridge, { perChatIntervalMs: 0, globalPerSecond: 45, coalesce: true, backoff: { minMs: 200, maxMs: 1000 } });
  return { core, bridge, engines };
}

/** What a message's first embed (a card) shows, as lines: its title, its description, then `name: value` per field, then its footer. */
export function cardText(body: { embeds?: unknown[] }): string {
  const embed = (body.embeds?.[0] ?? {}) as { title?: string; description?: string; fields?: { name: string; value: string }[]; footer?: { text: string } };
  return [embed.title, embed.description, ...(embed.fields ?? []).map((f) => `${f.name}: ${f.value}`), embed.footer?.text].filter((l) => l !== undefined).join('\n');
}

/** The custom ids of the buttons a message shows. */
export function buttonsOf(body: { components?: unknown[] }): string[] {
  return (body.components ?? []).flatMap((row) => ((row as { components?: { custom_id?: string }[] }).components ?? []).map((b) => b.custom_id ?? ''));
}
