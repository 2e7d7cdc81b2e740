import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandList, menuEntries } from '../../commands/index.ts';
import { FakeDiscord, Permission, option, type FakeChannel, type FakeGuild, type FakeRole, type FakeUser, type SentMessage } from '../fakes/discord-api.ts';
import { cardText, startMindlink, TOKEN, type Running } from './discord-helpers.ts';

describe('mindlink over Discord (real core, real discord.js, fake Discord)', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let bob: FakeUser;
  let carol: FakeUser;
  let dave: FakeUser;
  let home: FakeGuild;
  let pilots: FakeRole;
  let general: FakeChannel;
  let builds: FakeChannel;

  /** `author` writes `content` in `channel`; resolves with mindlink's post answering that message. */
  async function say(channel: FakeChannel, author: FakeUser, content: string, replyTo?: SentMessage): Promise<SentMessage> {
    const m = fake.sendMessage({ channel, author, content, ...(replyTo ? { replyTo } : {}) });
    return fake.waitForPost((p) => p.channelId === channel.id && p.body.message_reference?.message_id === m.id, `the answer to "${content}"`);
  }

  /** A slash command's reply as the user sees it. */
  function slash(user: FakeUser, channel: FakeChannel, name: string, options: Parameters<FakeDiscord['slash']>[0]['options'] = []) {
    return fake.slash({ user, channel, name, options }).reply();
  }

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    bob = fake.addUser('bob');
    carol = fake.addUser('carol');
    dave = fake.addUser('dave');
    home = fake.addGuild('Home', { owner: alice });
    pilots = fake.addRole(home, 'pilots');
    fake.addMember(home, bob, { roles: [pilots] });
    fake.addMember(home, carol);
    general = fake.addChannel(home, 'general');
    builds = fake.addThread(general, 'builds');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}`, DISCORD_GUILD_ID: home.id });
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a start THEN the slash commands are exactly those of commands/, globally and in the dev guild', async () => {
    // No LLM_MODEL here: /engine and /usage are not offered, as /help does not list them.
    const names = menuEntries(commandList('discord', { llm: false })).map((c) => c.name);
    expect((await fake.waitForCommands('global')).map((c) => c.name)).toEqual(names);
    expect((await fake.waitForCommands(home)).map((c) => c.name)).toEqual(names);
  });

  it('GIVEN the admin THEN /avatar create, /link, /play, /status, /goal and /stop work as slash commands', async () => {
    const created = await fake.slash({ user: alice, channel: general, name: 'avatar', options: [option.subcommand('create', [option.string('name', 'steve')])] }).reply();
    expect(created).toMatchObject({ ephemeral: false });
    expect(created.content).toMatch(/^\[steve\] Created steve on embedded/);
    const played = await fake.slash({ user: alice, channel: general, name: 'play', options: [option.string('avatar', 'steve')] }).reply();
    expect(played).toMatchObject({ content: '[steve] Playing. Choosing my first goal.', ephemeral: false });
    const status = await fake.slash({ user: alice, channel: general, name: 'status' }).reply();
    expect(status.ephemeral).toBe(true);
    expect(cardText(status.body)).toMatch(/^steve\n(choosing|working)/);
    const goal = await fake.slash({ user: alice, channel: general, name: 'goal', options: [option.string('text', 'build a house')] }).reply();
    expect(goal).toMatchObject({ content: '[steve] New goal from alice: build a house.', ephemeral: false });
    const stopped = await fake.slash({ user: alice, channel: general, name: 'stop' }).reply();
    expect(stopped).toMatchObject({ content: '[steve] Stopped. My goal is kept: /play resumes it.', ephemeral: false });
    await fake.slash({ user: alice, channel: general, name: 'play' }).reply();
  });

  it('GIVEN a linked channel THEN a goal, a question and a direction written there each get their reply, threaded to the message', async () => {
    expect((await say(general, alice, 'Goal: get 30 logs')).content).toBe('[steve] New goal from alice: get 30 logs.');
    expect((await say(general, alice, 'where are you?')).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    expect((await say(general, alice, 'stay near the river')).content).toBe('[steve] Noted as direction #1.');
    // A command typed as text (not chosen from the menu) works too, its answer posted in the channel.
    expect((await say(general, alice, '/direction')).content).toMatch(/^\[steve\] #1 \(\d{4}-\d{2}-\d{2}\) stay near the river$/);
    expect(ml.core.avatars.get('steve')?.directions.open.map((d) => d.text)).toEqual(['stay near the river']);
  });

  it('GIVEN a thread and a DM linked with /link THEN messages there reach the avatar too', async () => {
    expect(await slash(alice, builds, 'link', [option.string('avatar', 'steve')])).toMatchObject({ content: '[steve] Linked to this chat (control).', ephemeral: false });
    expect((await say(builds, alice, 'Goal: build a tower')).content).toBe('[steve] New goal from alice: build a tower.');
    expect((await say(builds, alice, 'how tall is it?')).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    const dm = fake.dmChannel(alice);
    expect(await slash(alice, dm, 'link', [option.string('avatar', 'steve')])).toMatchObject({ content: '[steve] Linked to this chat (control).' });
    expect((await say(dm, alice, 'keep away from lava')).content).toBe('[steve] Noted as direction #2.');
    expect((await say(dm, alice, 'what do you see?')).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    expect(ml.core.store.state.data.links.map((l) => l.dest)).toEqual(expect.arrayContaining([`discord:${general.id}`, `discord:${builds.id}`, `discord:${dm.id}`]));
  });

  it('GIVEN a channel nothing is linked to THEN messages there are not for mindlink and get no answer', async () => {
    const random = fake.addChannel(home, 'random');
    fake.sendMessage({ channel: random, author: carol, content: 'Goal: anything' });
    const m = fake.sendMessage({ channel: random, author: carol, content: `<@${fake.bot.id}> hello?` });
    const answer = await fake.waitForPost((p) => p.body.message_reference?.message_id === m.id);
    expect(answer.channelId).toBe(random.id);
    expect(fake.posts.filter((p) => p.channelId === random.id)).toHaveLength(1);
    expect(answer.content).not.toMatch(/steve/);
  });

  it('GIVEN the pilot role shares steve WHEN bob (pilot) and carol (no role) write THEN bob controls it and carol may only watch', async () => {
    // /share is for those who manage the server: Discord's menu does not offer it to bob.
    expect(() => fake.slash({ user: bob, channel: general, name: 'share', options: [option.role('role', pilots)] })).toThrow(/hidden from bob/);
    const shared = await slash(alice, general, 'share', [option.role('role', pilots), option.string('avatar', 'steve')]);
    expect(shared).toMatchObject({ ephemeral: false });
    expect(shared.content).toMatch(new RegExp(`^\\[steve\\] Shared steve with <@&${pilots.id}>`));
    expect(shared.pings).toEqual({ users: [], roles: [], everyone: false });

    expect((await say(general, bob, 'Goal: dig a moat')).content).toBe('[steve] New goal from bob: dig a moat.');
    expect(await slash(bob, general, 'stop')).toMatchObject({ content: '[steve] Stopped. My goal is kept: /play resumes it.' });
    expect(await slash(bob, general, 'play')).toMatchObject({ content: expect.stringMatching(/^\[steve\] Playing/) });

    expect((await say(general, carol, 'Goal: give me diamonds')).content).toBe("[steve] You can't control steve: ask its owner.");
    expect(await slash(carol, general, 'stop')).toMatchObject({ ephemeral: true, content: "[steve] You can't control steve: ask its owner." });
    const watched = await slash(carol, general, 'status');
    expect(watched.ephemeral).toBe(true);
    expect(cardText(watched.body)).toMatch(/^steve\n(working|choosing)/);
    expect((await say(general, carol, 'where are you?')).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
  });

  it('GIVEN an avatar the guild neither links nor shares THEN a member learns nothing about it', async () => {
    const dm = fake.dmChannel(alice);
    expect((await slash(alice, dm, 'avatar', [option.subcommand('create', [option.string('name', 'alex')])])).content).toMatch(/^\[alex\] Created alex/);
    const unknown = await slash(carol, general, 'status', [option.string('avatar', 'alex')]);
    const missing = await slash(carol, general, 'status', [option.string('avatar', 'nobody')]);
    expect(unknown).toMatchObject({ ephemeral: true });
    expect(unknown.content).toBe(missing.content.replace('nobody', 'alex'));
    expect((await slash(carol, general, 'avatars')).content).not.toMatch(/alex/);
    expect((await slash(bob, general, 'avatars')).content).toMatch(/^steve: /);
    expect(await fake.autocomplete({ user: carol, channel: general, name: 'status', options: [option.focused('avatar', '')] }).choices()).toEqual([{ name: 'steve', value: 'steve' }]);
    expect(await fake.autocomplete({ user: alice, channel: general, name: 'status', options: [option.focused('avatar', 'a')] }).choices()).toEqual([{ name: 'alex', value: 'alex' }]);
    // Bob cannot steer alex from the guild either, and a stranger in a DM hears of no avatar at all.
    expect(await slash(bob, general, 'goal', [option.string('text', 'dig'), option.string('avatar', 'alex')])).toMatchObject({ ephemeral: true, content: 'You have no avatar called "alex" here. /avatars lists yours.' });
    const stranger = await say(fake.dmChannel(dave), dave, 'Goal: alex: dig');
    expect(stranger.content).toMatch(/^I don't know you yet\./);
    expect(stranger.content).not.toMatch(/alex|steve/);
  });

  it('GIVEN the server shared with the role THEN bob pilots alex too, and after /unshare he pilots nothing', async () => {
    const shared = await slash(alice, general, 'share', [option.role('role', pilots)]);
    expect(shared.content).toBe(`Shared every avatar on embedded (present and future) with <@&${pilots.id}>: members with that role may control them from this server's channels; others may ask questions and see /status in the channels they are linked to.`);
    expect(await slash(bob, general, 'goal', [option.string('text', 'dig'), option.string('avatar', 'alex')])).toMatchObject({ ephemeral: false, content: '[alex] New goal from bob: dig. I\'m stopped: /play alex starts me.' });
    // Bob pilots every avatar of the server, the demo included; carol sees only the one linked here.
    expect((await slash(bob, general, 'avatars')).content.split('\n').map((l) => l.split(':')[0]).sort()).toEqual(['alex', 'demo', 'steve']);
    expect((await slash(carol, general, 'avatars')).content.split('\n').map((l) => l.split(':')[0]).sort()).toEqual(['steve']);
    const ended = await slash(alice, general, 'unshare');
    expect(ended.content).toBe(`No longer shared: steve with <@&${pilots.id}>; avatars on embedded with <@&${pilots.id}>.`);
    expect(ml.core.store.state.data.shares).toEqual([]);
    expect(await slash(bob, general, 'stop', [option.string('avatar', 'steve')])).toMatchObject({ ephemeral: true, content: "[steve] You can't control steve: ask its owner." });
    expect(await slash(bob, general, 'status', [option.string('avatar', 'alex')])).toMatchObject({ ephemeral: true, content: 'You have no avatar called "alex" here. /avatars lists yours.' });
    // Steve stays shared for the tests below.
    await slash(alice, general, 'share', [option.role('role', pilots), option.string('avatar', 'steve')]);
  });

  it('GIVEN a goal with @everyone, a role and a user mention THEN no post or reply about it pings anyone', async () => {
    const since = fake.posts.length;
    const nasty = `Goal: ping @everyone @here <@&${pilots.id}> <@${carol.id}> now`;
    const ack = await say(general, alice, nasty);
    expect(ack.content).toBe(`[steve] New goal from alice: ping @everyone @here <@&${pilots.id}> <@${carol.id}> now.`);
    const status = await slash(alice, general, 'status');
    expect(cardText(status.body)).toMatch(/@everyone/);
    expect(status.pings).toEqual({ users: [], roles: [], everyone: false });
    const byCommand = await slash(alice, general, 'goal', [option.string('text', `again @everyone <@${carol.id}>`)]);
    expect(byCommand.pings).toEqual({ users: [], roles: [], everyone: false });
    await ml.core.idle();
    for (const p of fake.posts.slice(since)) {
      expect(p.pings).toEqual({ users: [], roles: [], everyone: false });
      expect(p.body.allowed_mentions).toMatchObject({ parse: [] });
    }
  });

  it('GIVEN bob sets a goal in a channel THEN the Done post there pings bob and only bob, and the other linked chats get it pinging nobody', async () => {
    const since = fake.posts.length;
    expect((await say(general, bob, 'Goal: get 30 logs')).content).toBe('[steve] New goal from bob: get 30 logs.');
    const done = await fake.waitForPost((p) => p.channelId === general.id && p.content.includes('Done: get 30 logs') && fake.posts.indexOf(p) >= since);
    expect(done.content).toBe(`[steve] <@${bob.id}> Done: get 30 logs`);
    expect(done.pings).toEqual({ users: [bob.id], roles: [], everyone: false });
    expect(done.body.allowed_mentions).toEqual({ parse: [], users: [bob.id], replied_user: false });
    // The thread and Alice's DM are linked too: the news arrives there, pinging nobody.
    const dm = await fake.waitForPost((p) => p.channelId === fake.dmChannel(alice).id && p.content.includes('Done: get 30 logs'));
    expect(dm.content).toBe('[steve] Done: get 30 logs');
    await ml.core.idle();
    const thread = await fake.waitForPost((p) => p.channelId === builds.id && p.content.includes('Done: get 30 logs') && fake.posts.indexOf(p) >= since);
    expect(thread.content).toBe('[steve] Done: get 30 logs');
    expect(thread.body.allowed_mentions).toEqual({ parse: [], users: [], replied_user: false });
    await ml.core.idle();
    // Bob is named once, where he set the goal; nobody else is named anywhere.
    const pinged = fake.posts.slice(since).flatMap((p) => [...p.pings.users, ...p.pings.roles, ...(p.pings.everyone ? ['everyone'] : [])]);
    expect(pinged).toEqual([bob.id]);
  });
});
