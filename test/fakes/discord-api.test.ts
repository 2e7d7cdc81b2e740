import { once } from 'node:events';
import { ChannelType as DjsChannelType, Events, GatewayIntentBits, type Message, type ThreadChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeDiscord } from './discord-api.ts';
import { Harness } from './discord/harness.ts';

const h = new Harness();
afterEach(() => h.close());

function sendable(c: import('discord.js').Client, id: string) {
  const channel = c.channels.cache.get(id);
  if (!channel?.isSendable()) throw new Error(`channel ${id} is not sendable`);
  return channel;
}

describe('fake Discord gateway with the real discord.js client', () => {
  it('GIVEN a guild with a channel WHEN the client logs in THEN it is ready with the guild, its channel and its members cached', async () => {
    const { fake, alice, guild, general } = await h.world();
    const c = await h.ready(fake);

    expect(c.user.id).toBe(fake.bot.id);
    const cached = c.guilds.cache.get(guild.id);
    expect(cached?.name).toBe('Home');
    expect(cached?.ownerId).toBe(alice.id);
    expect(cached?.channels.cache.get(general.id)?.name).toBe('general');
    expect(cached?.members.cache.has(fake.bot.id)).toBe(true);
    expect(fake.gatewayConnections[0]).toMatchObject({ v: '10', encoding: 'json' });
    expect(fake.gatewayConnections[0]?.compress).toBeUndefined();
    expect(fake.identifies[0]?.intents).toBe(
      GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent | GatewayIntentBits.DirectMessages,
    );
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /gateway/bot');
    expect(fake.requests.every((r) => r.authorized)).toBe(true);
  });

  it('GIVEN a wrong token WHEN the client logs in THEN login is refused as on Discord', async () => {
    const { fake } = await h.world({ token: 'right-token' });
    await expect(h.client(fake).login('wrong-token')).rejects.toThrow(/token/i);
  });

  it('GIVEN a ready client WHEN the fake asks for a heartbeat and the interval passes THEN every heartbeat is acknowledged and the session lives on', async () => {
    // discord.js counts a heartbeat not acknowledged by the next one as a zombie and resumes: the interval leaves room for a loaded machine.
    const { fake } = await h.world({ heartbeatIntervalMs: 300 });
    const c = await h.ready(fake);
    const acked = new Promise<void>((resolve) => c.on(Events.Debug, (m) => m.includes('Heartbeat acknowledged') && resolve()));
    fake.requestHeartbeat();
    await acked;
    await fake.waitFor(() => (fake.heartbeats >= 3 ? true : undefined), 'three heartbeats');

    expect(c.ws.ping).toBeGreaterThanOrEqual(0);
    expect(fake.identifies).toHaveLength(1);
    expect(fake.liveSessions).toBe(1);
  });

  it('GIVEN a ready client WHEN a person writes in a channel, a thread and a DM THEN the client receives all three', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    const received: Message[] = [];
    c.on(Events.MessageCreate, (m) => received.push(m));

    const thread = fake.addThread(general, 'plans', { owner: alice });
    fake.sendMessage({ channel: general, author: alice, content: 'in the channel' });
    fake.sendMessage({ channel: thread, author: alice, content: 'in the thread' });
    fake.sendDm(alice, 'in a DM');
    while (received.length < 3) await once(c, Events.MessageCreate);

    const [inChannel, inThread, inDm] = received;
    expect(inChannel?.content).toBe('in the channel');
    expect(inChannel?.guildId).toBe(general.guildId);
    expect(inChannel?.member?.id).toBe(alice.id);
    expect(inThread?.content).toBe('in the thread');
    expect(inThread?.channel.type).toBe(DjsChannelType.PublicThread);
    expect((inThread?.channel as ThreadChannel | undefined)?.parentId).toBe(general.id);
    expect(inDm?.content).toBe('in a DM');
    expect(inDm?.channel.type).toBe(DjsChannelType.DM);
    expect(inDm?.guildId).toBeNull();
    expect(inDm?.author.id).toBe(alice.id);
  });

  it('GIVEN a ready client WHEN the gateway socket drops THEN the client resumes and gets the events it missed', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    const resumed = once(c, Events.ShardResume);
    expect(fake.dropGateway()).toBe(1);
    fake.sendMessage({ channel: general, author: alice, content: 'while you were away' });
    const got = once(c, Events.MessageCreate);
    await resumed;

    const [message] = (await got) as [Message];
    expect(message.content).toBe('while you were away');
    expect(fake.resumes).toEqual([expect.objectContaining({ accepted: true, replayed: 1 })]);
    expect(fake.identifies).toHaveLength(1);
  });

  it('GIVEN a ready client WHEN the gateway closes with a resumable code or asks to reconnect THEN the client resumes each time', async () => {
    const { fake } = await h.world();
    const c = await h.ready(fake);
    let resumed = once(c, Events.ShardResume);
    fake.closeGateway(4000, 'unknown error');
    await resumed;
    resumed = once(c, Events.ShardResume);
    fake.requestReconnect();
    await resumed;

    expect(fake.resumes.map((r) => r.accepted)).toEqual([true, true]);
    expect(fake.identifies).toHaveLength(1);
  });

  it('GIVEN a ready client WHEN the session is invalidated THEN the client identifies anew (after the 5 s identify throttle of discord.js)', async () => {
    const { fake } = await h.world();
    const c = await h.ready(fake);
    const readyAgain = once(c, Events.ShardReady);
    fake.invalidateSession(false);
    await readyAgain;
    expect(fake.identifies.map((i) => i.refused)).toEqual([null, null]);
    expect(fake.resumes).toEqual([]);
  });

  it('GIVEN MessageContent is not allowed WHEN the client identifies with it THEN the gateway closes with 4014 and a client without it gets empty contents except mentions and DMs', async () => {
    const { fake, alice, general } = await h.world({ privileged: { messageContent: false } });
    await expect(h.client(fake).login(fake.token)).rejects.toThrow(/disallowed intents/i);
    expect(fake.identifies[0]?.refused).toBe(4014);
    expect(await fake.waitFor(() => fake.gatewayCloses[0])).toEqual({ code: 4014, by: 'fake' });

    const c = await h.ready(fake, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages]);
    const received: Message[] = [];
    c.on(Events.MessageCreate, (m) => received.push(m));
    fake.sendMessage({ channel: general, author: alice, content: 'plain words' });
    fake.sendMessage({ channel: general, author: alice, content: `<@${fake.bot.id}> status please` });
    fake.sendDm(alice, 'a private word');
    while (received.length < 3) await once(c, Events.MessageCreate);
    expect(received.map((m) => m.content)).toEqual(['', `<@${fake.bot.id}> status please`, 'a private word']);
  });

  it('GIVEN a ready client WHEN the gateway closes with 4014 THEN discord.js reports the shard disconnected for good', async () => {
    const { fake } = await h.world();
    const c = await h.ready(fake);
    const disconnected = once(c, Events.ShardDisconnect);
    fake.closeGateway(4014, 'Disallowed intent(s).');
    const [event] = (await disconnected) as [{ code: number }];
    expect(event.code).toBe(4014);
  });
});

describe('fake Discord REST with the real discord.js client', () => {
  it('GIVEN a post with @everyone, a role and users WHEN allowed_mentions names one user THEN only that user is pinged, and without it everything is', async () => {
    const { fake, alice, guild, general } = await h.world();
    const bob = fake.addUser('bob');
    fake.addMember(guild, bob);
    const mods = fake.addRole(guild, 'mods', { mentionable: true });
    const c = await h.ready(fake);
    const echoes: Message[] = [];
    c.on(Events.MessageCreate, (m) => echoes.push(m));
    const channel = sendable(c, general.id);

    await channel.send({ content: `@everyone <@&${mods.id}> <@${bob.id}> <@${alice.id}> done`, allowedMentions: { users: [alice.id] } });
    await channel.send({ content: `@everyone <@&${mods.id}> <@${bob.id}>` });

    const safe = await fake.nextMessage(general.id);
    expect(safe.body.allowed_mentions).toEqual({ users: [alice.id] });
    expect(safe.pings).toEqual({ users: [alice.id], roles: [], everyone: false });
    const unsafe = await fake.nextMessage(general.id);
    expect(unsafe.body.allowed_mentions).toBeUndefined();
    expect(unsafe.pings).toEqual({ users: [bob.id], roles: [mods.id], everyone: true });
    while (echoes.length < 2) await once(c, Events.MessageCreate);
    expect(echoes.map((m) => m.author.id)).toEqual([fake.bot.id, fake.bot.id]);
  });

  it('GIVEN allowed_mentions with parse users and a users list THEN Discord refuses the post', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    await expect(sendable(c, general.id).send({ content: 'x', allowedMentions: { parse: ['users'], users: [alice.id] } })).rejects.toMatchObject({
      status: 400,
      code: 50035,
    });
  });

  it('GIVEN malformed bodies sent by hand THEN each gets 400 and nothing is posted', async () => {
    const { fake, general } = await h.world();
    const post = (body: string) =>
      fetch(`${fake.apiUrl}/v10/channels/${general.id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${fake.token}`, 'content-type': 'application/json' },
        body,
      });
    const bodies = [
      '{"content":"x","allowed_mentions":{"parse":"users"}}',
      '{"content":"x","allowed_mentions":{"users":[42]}}',
      '{"content":"x","allowed_mentions":{"replied_user":"yes"}}',
      '{"content":5}',
      '{"content":"x","nonce":"twenty-six-characters-long"}',
      '{"content":"x"',
      '[]',
    ];
    for (const body of bodies) expect({ body, status: (await post(body)).status }).toEqual({ body, status: 400 });
    expect(fake.posts).toEqual([]);
  });

  it('GIVEN a message WHEN the bot replies to it THEN the message_reference is recorded and the author is pinged only if replied_user allows it', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    const got = once(c, Events.MessageCreate);
    fake.sendMessage({ channel: general, author: alice, content: 'Goal: build a house' });
    const [message] = (await got) as [Message];

    await message.reply({ content: 'on it', allowedMentions: { parse: [], repliedUser: false } });
    await message.reply({ content: 'done' });
    const quiet = await fake.nextMessage(general.id);
    expect(quiet.body.message_reference).toMatchObject({ message_id: message.id });
    expect(quiet.pings.users).toEqual([]);
    expect(fake.message(quiet.message.id)?.reference?.message_id).toBe(message.id);
    expect((await fake.nextMessage(general.id)).pings.users).toEqual([alice.id]);
  });

  it('GIVEN a post of 2001 characters or an empty one THEN Discord refuses it with 400', async () => {
    const { fake, general } = await h.world();
    const c = await h.ready(fake);
    await expect(sendable(c, general.id).send('x'.repeat(2001))).rejects.toMatchObject({ status: 400, code: 50035 });
    await expect(sendable(c, general.id).send({ content: '' })).rejects.toThrow();
    expect(fake.posts).toHaveLength(0);
  });

  it('GIVEN a bot message WHEN it is edited and deleted THEN the fake records both and the client sees the update', async () => {
    const { fake, general } = await h.world();
    const c = await h.ready(fake);
    const sent = await sendable(c, general.id).send('first');
    const updated = once(c, Events.MessageUpdate);
    await sent.edit('second');
    const [, after] = (await updated) as [Message, Message];
    await sent.delete();

    expect(after.content).toBe('second');
    expect(fake.edits).toEqual([expect.objectContaining({ messageId: sent.id, content: 'second', via: 'channel' })]);
    expect(fake.deleted).toEqual([{ channelId: general.id, messageId: sent.id }]);
  });

  it('GIVEN a channel and a message WHEN the bot opens threads THEN they reach the client cache and take posts', async () => {
    const { fake, alice, general } = await h.world();
    const c = await h.ready(fake);
    const channel = c.channels.cache.get(general.id);
    if (channel?.type !== DjsChannelType.GuildText) throw new Error('general is not a text channel');

    const thread = await channel.threads.create({ name: 'thoughts', type: DjsChannelType.PublicThread });
    await thread.send('turn 1: dig');
    const got = once(c, Events.MessageCreate);
    fake.sendMessage({ channel: general, author: alice, content: 'start a thread here' });
    const [message] = (await got) as [Message];
    const fromMessage = await message.startThread({ name: 'about this' });

    expect(c.channels.cache.get(thread.id)?.isThread()).toBe(true);
    expect(fake.channel(thread.id)).toMatchObject({ parentId: general.id, name: 'thoughts', type: 11 });
    expect((await fake.nextMessage(thread.id)).content).toBe('turn 1: dig');
    expect(fromMessage.id).toBe(message.id);
  });

  it('GIVEN an announcement channel WHEN the bot opens a thread there THEN it is an announcement thread that takes posts', async () => {
    const { fake, guild } = await h.world();
    const news = fake.addChannel(guild, 'news', { announcement: true });
    const c = await h.ready(fake);
    const channel = c.channels.cache.get(news.id);
    if (channel?.type !== DjsChannelType.GuildAnnouncement) throw new Error('news is not an announcement channel');

    const thread = await channel.threads.create({ name: 'thoughts' });
    await thread.send('turn 1');
    expect(thread.type).toBe(DjsChannelType.AnnouncementThread);
    expect((await fake.nextMessage(thread.id)).content).toBe('turn 1');
  });

  it('GIVEN a person WHEN the bot sends them a DM THEN the fake opens one DM channel and records the post there', async () => {
    const { fake, alice } = await h.world();
    const c = await h.ready(fake);
    const user = await c.users.fetch(alice.id);
    await user.send('hello in private');
    await user.send('again');

    const dm = fake.dmChannel(alice);
    expect((await fake.nextMessage(dm.id)).content).toBe('hello in private');
    expect((await fake.nextMessage(dm.id)).content).toBe('again');
    expect(fake.requests.filter((r) => r.path === '/users/@me/channels')).toHaveLength(1);
  });

  it('GIVEN members with roles WHEN the bot looks them up by REST and by the gateway THEN it gets their roles', async () => {
    const { fake, guild } = await h.world();
    const pilots = fake.addRole(guild, 'pilots');
    const bob = fake.addUser('bob');
    fake.addMember(guild, bob, { roles: [pilots] });
    const c = await h.ready(fake);
    const g = c.guilds.cache.get(guild.id);
    if (!g) throw new Error('no guild');
    g.members.cache.delete(bob.id);

    const viaRest = await g.members.fetch({ user: bob.id, force: true });
    const viaGateway = await g.members.fetch({ user: [bob.id] });
    const roles = await g.roles.fetch();

    expect(viaRest.roles.cache.has(pilots.id)).toBe(true);
    expect(viaGateway.get(bob.id)?.roles.cache.has(pilots.id)).toBe(true);
    expect(roles.map((r) => r.name)).toEqual(expect.arrayContaining(['@everyone', 'pilots', 'mindlink']));
  });

  it('GIVEN an injected 429 WHEN the bot posts THEN discord.js waits Retry-After and the post is accepted once', async () => {
    const { fake, general } = await h.world();
    const c = await h.ready(fake);
    fake.failNext({ method: 'POST', path: `/channels/${general.id}/messages`, status: 429, retryAfter: 0.2 });

    await sendable(c, general.id).send('after the limit');
    const attempts = fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${general.id}/messages`);
    expect(attempts.map((r) => r.status)).toEqual([429, 200]);
    expect(fake.posts.map((p) => p.content)).toEqual(['after the limit']);
  });

  it('GIVEN an injected global 429 and then two 502s WHEN the bot posts THEN discord.js retries through both and the post is accepted once', async () => {
    const { fake, general } = await h.world();
    const c = await h.ready(fake);
    const path = `/channels/${general.id}/messages`;
    fake.failNext({ path, status: 429, retryAfter: 0.1, global: true });
    fake.failNext({ path, status: 502, times: 2 });

    await sendable(c, general.id).send('through it all');
    expect(fake.requests.filter((r) => r.path === path).map((r) => r.status)).toEqual([429, 502, 502, 200]);
    expect(fake.posts).toHaveLength(1);
  });

  it('GIVEN a post that Discord accepts but whose connection is reset WHEN discord.js retries THEN it duplicates without a nonce and not with enforce_nonce', async () => {
    const { fake, general } = await h.world();
    const c = await h.ready(fake);
    const path = `/channels/${general.id}/messages`;
    fake.failNext({ path, drop: true, accepted: true });
    await sendable(c, general.id).send('twice');
    fake.failNext({ path, drop: true, accepted: true });
    await sendable(c, general.id).send({ content: 'once', nonce: 'outbox-7', enforceNonce: true });

    expect(fake.posts.map((p) => p.content)).toEqual(['twice', 'twice', 'once']);
    expect(fake.requests.filter((r) => r.path === path).map((r) => (r.dropped ? 'reset' : r.status))).toEqual(['reset', 200, 'reset', 200]);
  });

  it('GIVEN a failure that matches on the body WHEN the bot posts two messages THEN only the matching one fails', async () => {
    const { fake, general } = await h.world();
    const c = await h.ready(fake);
    fake.failNext({ path: `/channels/${general.id}/messages`, status: 403, when: (b) => (b as { content?: string }).content === 'second' });

    await sendable(c, general.id).send('first');
    await expect(sendable(c, general.id).send('second')).rejects.toMatchObject({ status: 403 });
    await sendable(c, general.id).send('second');
    expect(fake.posts.map((p) => p.content)).toEqual(['first', 'second']);
  });

  it('GIVEN a forbidden and a deleted channel WHEN the bot posts THEN it gets 403 and 404 as on Discord', async () => {
    const { fake, guild, general } = await h.world();
    const other = fake.addChannel(guild, 'other');
    const c = await h.ready(fake);
    const generalCh = sendable(c, general.id);
    const otherCh = sendable(c, other.id);
    fake.forbidChannel(general);
    fake.deleteChannel(other);

    await expect(generalCh.send('x')).rejects.toMatchObject({ status: 403, code: 50001 });
    await expect(otherCh.send('x')).rejects.toMatchObject({ status: 404, code: 10003 });
  });

  it('GIVEN the bot is removed from a guild THEN the client forgets it and its channels answer 404', async () => {
    const { fake, guild, general } = await h.world();
    const c = await h.ready(fake);
    const channel = sendable(c, general.id);
    const gone = once(c, Events.GuildDelete);
    fake.removeGuild(guild);
    await gone;

    expect(c.guilds.cache.has(guild.id)).toBe(false);
    await expect(channel.send('anyone?')).rejects.toMatchObject({ status: 404, code: 10003 });
  });

  it('GIVEN a pending wait WHEN the fake closes THEN the wait is rejected', async () => {
    const fake = await FakeDiscord.start();
    const waiting = fake.nextMessage();
    await fake.close();
    await expect(waiting).rejects.toThrow(/closed/);
  });
});
