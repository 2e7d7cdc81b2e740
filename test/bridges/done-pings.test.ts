/**
 * Whom a `Done:` pings, and where: the person who set the goal, once, in the chat where it was set (a scheduled
 * goal: its creator's DM if linked, else the first control link on that platform); the other linked chats get the
 * same line pinging nobody; a goal the avatar chose itself pings nobody. The real core and the real clients against
 * our fake Discord and fake Telegram; Minecraft and the engine are stand-ins.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelegramBridge } from '../../bridges/telegram/telegram-bridge.ts';
import { commandList, createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { parseConfig } from '../../src/config.ts';
import { Mindlink } from '../../src/core.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeDiscord, option, type FakeChannel, type FakeUser, type SentMessage } from '../fakes/discord-api.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { FakeTelegram, groupChat, user, type SentMessage as TelegramSent } from '../fakes/telegram-api.ts';
import { TestEngine, type Script } from '../fakes/test-engine.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

/** The avatars' mind: the first time one chooses, a goal of its own; any goal with logs is done at once. */
function mind(): Script {
  const chosen = new Set<string>();
  return (req) => {
    if (req.kind === 'wrapup') return 'Lesson: logs are near spawn.\nSTATUS: working';
    if (req.kind === 'choose' && !chosen.has(req.avatar)) {
      chosen.add(req.avatar);
      return 'GOAL: collect 2 logs\nSTATUS: working';
    }
    if (req.goal && /logs/.test(req.goal.text)) return 'Got them.\nSTATUS: done';
    return 'Looking around.\nSTATUS: working';
  };
}

/** A 6-field cron expression (UTC) for `ms` from now: once a day, at that second. */
function cronIn(ms: number): string {
  const t = new Date(Date.now() + ms);
  return `${t.getUTCSeconds()} ${t.getUTCMinutes()} ${t.getUTCHours()} * * *`;
}

describe('Done pings on Discord: two linked channels and a DM', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let general: FakeChannel;
  let builds: FakeChannel;
  let dm: FakeChannel;
  const chats = (): FakeChannel[] => [general, builds, dm];

  /** The post of `text` in each linked chat, once it is in all three. */
  async function doneEverywhere(text: string, since: number): Promise<Map<FakeChannel, SentMessage>> {
    const found = new Map<FakeChannel, SentMessage>();
    for (const chat of chats()) {
      found.set(chat, await fake.waitForPost((p) => p.channelId === chat.id && p.content.endsWith(text) && fake.posts.indexOf(p) >= since, `"${text}" in #${chat.name}`));
    }
    await ml.core.idle();
    expect(fake.posts.slice(since).filter((p) => p.content.endsWith(text)), `"${text}" is posted once per linked chat`).toHaveLength(3);
    return found;
  }

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    const home = fake.addGuild('Home', { owner: alice });
    general = fake.addChannel(home, 'general');
    builds = fake.addChannel(home, 'builds');
    dm = fake.dmChannel(alice);
    dir = await mkdtemp(join(tmpdir(), 'mindlink-pings-dc-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` }, {}, { script: mind() });
    const slash = (channel: FakeChannel, name: string, options: Parameters<FakeDiscord['slash']>[0]['options'] = []) => fake.slash({ user: alice, channel, name, options }).reply();
    await slash(general, 'avatar', [option.subcommand('create', [option.string('name', 'steve')])]);
    await slash(builds, 'link', [option.string('avatar', 'steve')]);
    await slash(dm, 'link', [option.string('avatar', 'steve')]);
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a goal the avatar chose itself WHEN it is done THEN Done: reaches all three chats and pings nobody', async () => {
    const since = fake.posts.length;
    expect((await fake.slash({ user: alice, channel: general, name: 'play' }).reply()).content).toMatch(/^\[steve\] Playing/);
    const posts = await doneEverywhere('Done: collect 2 logs', since);
    for (const [chat, post] of posts) {
      expect(post.content, `#${chat.name}`).toBe('[steve] Done: collect 2 logs');
      expect(post.body.allowed_mentions, `#${chat.name}`).toEqual({ parse: [], users: [], replied_user: false });
    }
  });

  it('GIVEN a goal set in one channel WHEN it is done THEN exactly that channel\'s Done: pings the setter, and the other posts allow no mention', async () => {
    const since = fake.posts.length;
    fake.sendMessage({ channel: builds, author: alice, content: 'Goal: get 30 logs' });
    const posts = await doneEverywhere('Done: get 30 logs', since);
    expect(posts.get(builds)?.content).toBe(`[steve] <@${alice.id}> Done: get 30 logs`);
    expect(posts.get(builds)?.body.allowed_mentions).toEqual({ parse: [], users: [alice.id], replied_user: false });
    for (const chat of [general, dm]) {
      expect(posts.get(chat)?.content, `#${chat.name}`).toBe('[steve] Done: get 30 logs');
      expect(posts.get(chat)?.body.allowed_mentions, `#${chat.name}`).toEqual({ parse: [], users: [], replied_user: false });
    }
  });

  it("GIVEN a scheduled goal made in a channel WHEN it is done THEN the creator's ping goes to their linked DM (which notifies by itself) and neither channel names them", async () => {
    const since = fake.posts.length;
    const pings: [string, string | null][] = [];
    ml.core.outbox.on('posted', (p) => {
      if (p.text === 'Done: collect 5 logs') pings.push([p.dest, p.ping]);
    });
    const by = ml.core.people.personOf(`discord:${alice.id}`)?.id ?? '';
    ml.core.schedules.add({ avatar: 'steve', text: `${cronIn(1500)} collect 5 logs`, by, dest: `discord:${builds.id}` });
    const posts = await doneEverywhere('Done: collect 5 logs', since);
    expect(pings).toEqual([
      [`discord:${general.id}`, null],
      [`discord:${builds.id}`, null],
      [`discord:${dm.id}`, `discord:${alice.id}`],
    ]);
    for (const chat of chats()) expect(posts.get(chat)?.body.allowed_mentions, `#${chat.name}`).toEqual({ parse: [], users: [], replied_user: false });
  });

  it('GIVEN everything posted THEN every post carried an explicit allowed_mentions naming at most the one setter, and nobody but alice was ever named', () => {
    for (const p of fake.posts.filter((x) => x.via !== 'interaction')) {
      expect(p.body.allowed_mentions, p.content).toMatchObject({ parse: [] });
      expect((p.body.allowed_mentions as { users: string[] }).users.filter((u) => u !== alice.id), p.content).toEqual([]);
    }
  });
});

describe('Done pings on Telegram: two linked groups', () => {
  let tg: FakeTelegram;
  let dir: string;
  let core: Mindlink;
  const alice = user(3001, 'Alice');
  const first = groupChat(7100, 'first');
  const second = groupChat(7200, 'second');

  /** The message of `text` in each linked group, once it is in both. */
  async function doneInBoth(text: string, since: number): Promise<{ first: TelegramSent; second: TelegramSent }> {
    const inChat = (id: number) => tg.waitForMessage((m) => m.chat_id === id && m.plain.endsWith(text), { since });
    const found = { first: await inChat(first.id), second: await inChat(second.id) };
    await core.idle();
    expect(tg.sent.slice(since).filter((m) => m.plain.endsWith(text)), `"${text}" is sent once per linked group`).toHaveLength(2);
    return found;
  }

  beforeAll(async () => {
    tg = await FakeTelegram.start();
    dir = await mkdtemp(join(tmpdir(), 'mindlink-pings-tg-'));
    const config = parseConfig({ DATA_DIR: dir, CONSOLE: 'off', TELEGRAM_TOKEN: tg.token, TELEGRAM_API_ROOT: tg.apiRoot, ADMINS: `telegram:${alice.id}`, LOOP_PACE_MS: '50', LOOP_MAX_PACE_MS: '400' });
    const engine = mind();
    core = await Mindlink.start({
      config,
      skills: createSkillRegistry,
      commands: createDispatcher(),
      log: silentLogger(),
      games: { create: (a) => new FakeGame(a.name), close: async () => {} },
      engines: () => new TestEngine(engine),
      checkGoal: () => ({ checkable: false }),
    });
    const bridge = new TelegramBridge({ token: tg.token, apiRoot: tg.apiRoot, log: silentLogger(), commands: commandList('telegram').map((c) => ({ name: c.name, description: c.description })) });
    await core.addBridge(bridge, { perChatIntervalMs: 0, groupPerMinute: 60, globalPerSecond: 30, coalesce: true });
    const command = async (chat: typeof first, text: string): Promise<void> => {
      const m = tg.sendText({ chat, from: alice, text });
      await tg.waitForMessage((s) => s.chat_id === chat.id && s.reply_to === m.message_id);
    };
    await command(second, '/avatar create steve');
    await command(first, '/link steve');
  });

  afterAll(async () => {
    await core?.stop();
    await tg?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a goal the avatar chose itself WHEN it is done THEN both groups get Done: mentioning nobody', async () => {
    const since = tg.sent.length;
    tg.sendText({ chat: first, from: alice, text: '/play steve' });
    const done = await doneInBoth('Done: collect 2 logs', since);
    expect([done.first.plain, done.first.mentions, done.second.plain, done.second.mentions]).toEqual(['[steve] Done: collect 2 logs', [], '[steve] Done: collect 2 logs', []]);
  });

  it('GIVEN a goal set in the first group WHEN it is done THEN only the first group mentions the setter', async () => {
    const since = tg.sent.length;
    tg.sendText({ chat: first, from: alice, text: 'steve: Goal: get 30 logs' });
    const done = await doneInBoth('Done: get 30 logs', since);
    expect(done.first.mentions).toEqual([alice.id]);
    expect(done.second).toMatchObject({ plain: '[steve] Done: get 30 logs', mentions: [] });
  });

  it("GIVEN a scheduled goal made in the first group and no DM linked WHEN it is done THEN the creator is mentioned once, in steve's first control link (the second group)", async () => {
    const since = tg.sent.length;
    const by = core.people.personOf(`telegram:${alice.id}`)?.id ?? '';
    core.schedules.add({ avatar: 'steve', text: `${cronIn(1500)} collect 5 logs`, by, dest: `telegram:${first.id}` });
    const done = await doneInBoth('Done: collect 5 logs', since);
    expect(done.second.mentions).toEqual([alice.id]);
    expect(done.first.mentions).toEqual([]);
    expect(tg.sent.filter((m) => m.chat_id === alice.id)).toEqual([]);
  });
});
