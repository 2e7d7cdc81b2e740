/**
 * Chat latency: from a message arriving at the fake platform to mindlink's
 * reply being accepted by it, for Discord and for Telegram, next to a bare
 * echo bot (discord.js / grammy alone) against the same fake in the same run.
 *
 * mindlink here is the real core (router, rights, goal loop's question turn,
 * outbox on disk, courier, bridge) with a stand-in game and a scripted engine
 * that answers at once, so the figure is mindlink's own overhead. Per-chat
 * pacing is off (it would add its own 1 s gap between two posts to a chat).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';
import { Client, Events, GatewayIntentBits, Partials } from 'discord.js';
import { Bot } from 'grammy';
import { DiscordBridge } from '../bridges/discord/discord-bridge.ts';
import { TelegramBridge } from '../bridges/telegram/telegram-bridge.ts';
import type { Bridge } from '../src/chat.ts';
import { parseConfig } from '../src/config.ts';
import { commandList, createDispatcher } from '../commands/index.ts';
import { Mindlink } from '../src/core.ts';
import type { GameProvider } from '../src/game/game.ts';
import { createSkillRegistry } from '../skills/index.ts';
import { silentLogger } from '../src/logger.ts';
import { FakeDiscord, type FakeChannel, type FakeUser } from '../test/fakes/discord-api.ts';
import { FakeGame } from '../test/fakes/fake-game.ts';
import { FakeTelegram, privateChat, user } from '../test/fakes/telegram-api.ts';
import { TestEngine } from '../test/fakes/test-engine.ts';

const MESSAGES = 300;
const WARM_UP = 20;
const TOKEN = 'fake-discord-bot-token-for-bench';

/** p50 and p99 (ms) of a list of latencies. */
function percentiles(ms: number[]): { p50: number; p99: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * Gap between two messages: @discordjs/rest allows itself 50 requests per
 * second, so messages sent back to back would measure that queue, not latency.
 */
const GAP_MS = 40;

/** Send `MESSAGES` messages one after the other, `GAP_MS` apart; each latency is arrival → reply accepted. */
async function measure(send: (i: number) => Promise<void>): Promise<number[]> {
  for (let i = 0; i < WARM_UP; i += 1) await send(i);
  const out: number[] = [];
  for (let i = 0; i < MESSAGES; i += 1) {
    await setTimeout(GAP_MS);
    const t0 = performance.now();
    await send(WARM_UP + i);
    out.push(performance.now() - t0);
  }
  return out;
}

const games: GameProvider = { create: (avatar) => new FakeGame(avatar.name), close: async () => {} };

/** mindlink with one playing avatar linked to `dest`, owned by `owner`, behind `bridge`. */
async function startMindlink(dataDir: string, env: Record<string, string>, owner: string, dest: `${'discord' | 'telegram'}:${string}`, bridge: () => Bridge): Promise<Mindlink> {
  const config = parseConfig({ DATA_DIR: dataDir, CONSOLE: 'off', LOG_LEVEL: 'silent', LOOP_PACE_MS: '60000', LOOP_MAX_PACE_MS: '60000', ...env });
  const core = await Mindlink.start({
    config,
    log: silentLogger(),
    skills: createSkillRegistry,
    commands: createDispatcher(),
    games,
    engines: () => new TestEngine((req) => (req.kind === 'question' ? "I'm at 0 64 0.\nSTATUS: working" : 'Working on it.\nSTATUS: working')),
    checkGoal: () => ({ checkable: false }),
  });
  const person = core.people.ensurePerson(owner, 'owner');
  await core.avatars.create('steve', person.id, {});
  core.links.link('steve', dest, 'control');
  await core.avatars.play('steve');
  await core.addBridge(bridge(), { perChatIntervalMs: 0, globalPerSecond: 1000, coalesce: false });
  return core;
}

async function discordFigures(): Promise<{ mindlink: number[]; bare: number[] }> {
  const fake = await FakeDiscord.start({ token: TOKEN });
  const alice: FakeUser = fake.addUser('alice');
  const guild = fake.addGuild('Home', { owner: alice });
  const general: FakeChannel = fake.addChannel(guild, 'general');
  const echo: FakeChannel = fake.addChannel(guild, 'echo');
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-bench-'));
  const say = (channel: FakeChannel, content: string) => async (): Promise<void> => {
    const m = fake.sendMessage({ channel, author: alice, content });
    await fake.waitForPost((p) => p.body.message_reference?.message_id === m.id);
  };
  try {
    const core = await startMindlink(dir, { DISCORD_TOKEN: TOKEN, DISCORD_API_URL: fake.apiUrl }, `discord:${alice.id}`, `discord:${general.id}`, () =>
      new DiscordBridge({ token: TOKEN, apiUrl: fake.apiUrl, log: silentLogger(), commands: commandList('discord') }),
    );
    const mindlink = await measure((i) => say(general, `where are you? (${i})`)());
    await core.stop();

    const client = new Client({
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
      partials: [Partials.Channel],
      rest: { api: fake.apiUrl },
    });
    client.on(Events.MessageCreate, (m) => {
      if (m.author.bot) return;
      void m.reply({ content: m.content, allowedMentions: { parse: [] } });
    });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(TOKEN);
    await ready;
    const bare = await measure((i) => say(echo, `echo ${i}`)());
    await client.destroy();
    return { mindlink, bare };
  } finally {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function telegramFigures(): Promise<{ mindlink: number[]; bare: number[] }> {
  const tg = await FakeTelegram.start();
  const alice = user(1001, 'Alice');
  const bob = user(1002, 'Bob');
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-bench-'));
  const say = (from: typeof alice, text: string) => async (): Promise<void> => {
    const since = tg.sent.length;
    const m = tg.sendText({ chat: privateChat(from), from, text });
    await tg.waitForMessage((s) => s.reply_to === m.message_id, { since });
  };
  try {
    const core = await startMindlink(dir, { TELEGRAM_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot }, 'telegram:1001', 'telegram:1001', () =>
      new TelegramBridge({ token: tg.token, apiRoot: tg.apiRoot, log: silentLogger(), commands: [] }),
    );
    const mindlink = await measure((i) => say(alice, `where are you? (${i})`)());
    await core.stop();

    const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    bot.on('message:text', (ctx) => ctx.reply(ctx.message.text, { reply_parameters: { message_id: ctx.message.message_id } }));
    const polling = new Promise<void>((resolve) => {
      void bot.start({ onStart: () => resolve() });
    });
    await polling;
    const bare = await measure((i) => say(bob, `echo ${i}`)());
    await bot.stop();
    return { mindlink, bare };
  } finally {
    await tg.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function report(platform: string, figures: { mindlink: number[]; bare: number[] }): void {
  const m = percentiles(figures.mindlink);
  const b = percentiles(figures.bare);
  const f = (x: number): string => x.toFixed(1).padStart(6);
  const r = (x: number, y: number): string => `${(x / y).toFixed(1)}×`;
  console.log(`${platform.padEnd(9)} mindlink p50 ${f(m.p50)} ms  p99 ${f(m.p99)} ms | bare echo bot p50 ${f(b.p50)} ms  p99 ${f(b.p99)} ms | ratio p50 ${r(m.p50, b.p50)}  p99 ${r(m.p99, b.p99)}`);
}

/** Prints, per platform, message → accepted reply latency for mindlink and for a bare echo bot, and their ratio. */
export default async function bench(): Promise<void> {
  console.log(`chat latency: message arriving at the fake → reply accepted by it, ${MESSAGES} messages one after the other, ${GAP_MS} ms apart (after ${WARM_UP} to warm up)`);
  report('discord', await discordFigures());
  report('telegram', await telegramFigures());
}
