import { once } from 'node:events';
import {
  ChannelType as DjsChannelType,
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  Partials,
  type ChatInputCommandInteraction,
  type Message,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeDiscord, option, Permission, type FakeChannel, type FakeGuild, type FakeUser } from './discord-api.ts';

const INTENTS = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages];

interface World {
  fake: FakeDiscord;
  alice: FakeUser;
  guild: FakeGuild;
  general: FakeChannel;
}

const open: { fakes: FakeDiscord[]; clients: Client[] } = { fakes: [], clients: [] };

afterEach(async () => {
  for (const c of open.clients.splice(0)) await c.destroy();
  for (const f of open.fakes.splice(0)) await f.close();
});

async function world(options: Parameters<typeof FakeDiscord.start>[0] = {}): Promise<World> {
  const fake = await FakeDiscord.start(options);
  open.fakes.push(fake);
  const alice = fake.addUser('alice');
  const guild = fake.addGuild('Home', { owner: alice });
  const general = fake.addChannel(guild, 'general');
  return { fake, alice, guild, general };
}

function client(fake: FakeDiscord, intents: number[] = INTENTS): Client {
  const c = new Client({ intents, partials: [Partials.Channel], rest: { api: fake.apiUrl } });
  open.clients.push(c);
  return c;
}

async function ready(fake: FakeDiscord, intents: number[] = INTENTS): Promise<Client<true>> {
  const c = client(fake, intents);
  const isReady = once(c, Events.ClientReady);
  await c.login(fake.token);
  await isReady;
  return c as Client<true>;
}

describe('fake Discord with the real discord.js client', () => {
  it('GIVEN a guild with a channel WHEN the client logs in THEN it is ready with the guild, its channel and its members cached', async () => {
    const { fake, alice, guild, general } = await world();
    const c = await ready(fake);

    expect(c.user.id).toBe(fake.bot.id);
    const cached = c.guilds.cache.get(guild.id);
    expect(cached?.name).toBe('Home');
    expect(cached?.ownerId).toBe(alice.id);
    expect(cached?.channels.cache.get(general.id)?.name).toBe('general');
    expect(cached?.members.cache.has(fake.bot.id)).toBe(true);
    expect(fake.gatewayConnections[0]).toMatchObject({ v: '10', encoding: 'json' });
    expect(fake.gatewayConnections[0]?.compress).toBeUndefined();
    expect(fake.identifies[0]?.intents).toBe(GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages | GatewayIntentBits.MessageContent | GatewayIntentBits.DirectMessages);
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toContain('GET /gateway/bot');
    expect(fake.requests.every((r) => r.authorized)).toBe(true);
  });

  it('GIVEN a wrong token WHEN the client logs in THEN login is refused as on Discord', async () => {
    const { fake } = await world({ token: 'right-token' });
    const c = client(fake);
    await expect(c.login('wrong-token')).rejects.toThrow(/token/i);
  });

  it('GIVEN a ready client WHEN a person writes in a channel, a thread and a DM THEN the client receives all three', async () => {
    const { fake, alice, general } = await world();
    const c = await ready(fake);
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
    expect(inThread?.channel.isThread()).toBe(true);
    expect(inThread?.channel.type).toBe(DjsChannelType.PublicThread);
    expect(inDm?.content).toBe('in a DM');
    expect(inDm?.channel.type).toBe(DjsChannelType.DM);
    expect(inDm?.guildId).toBeNull();
    expect(inDm?.author.id).toBe(alice.id);
  });

  it('GIVEN a post with @everyone, a role and a user WHEN allowed_mentions names only one user THEN the fake records that only that user is pinged', async () => {
    const { fake, alice, guild, general } = await world();
    const bob = fake.addUser('bob');
    fake.addMember(guild, bob);
    const mods = fake.addRole(guild, 'mods', { mentionable: true });
    const c = await ready(fake);
    const channel = c.channels.cache.get(general.id);
    if (!channel?.isSendable()) throw new Error('general is not sendable');

    await channel.send({
      content: `@everyone <@&${mods.id}> <@${bob.id}> <@${alice.id}> done`,
      allowedMentions: { users: [alice.id] },
    });
    await channel.send({ content: `@everyone <@&${mods.id}> <@${bob.id}>` });

    const safe = await fake.nextMessage(general.id);
    expect(safe.body.allowed_mentions).toEqual({ users: [alice.id] });
    expect(safe.pings).toEqual({ users: [alice.id], roles: [], everyone: false });
    const unsafe = await fake.nextMessage(general.id);
    expect(unsafe.body.allowed_mentions).toBeUndefined();
    expect(unsafe.pings).toEqual({ users: [bob.id], roles: [mods.id], everyone: true });
  });

  it('GIVEN a message WHEN the bot replies to it THEN the fake records the message_reference and the reply pings the author only if replied_user allows it', async () => {
    const { fake, alice, general } = await world();
    const c = await ready(fake);
    const got = once(c, Events.MessageCreate);
    fake.sendMessage({ channel: general, author: alice, content: 'Goal: build a house' });
    const [message] = (await got) as [Message];

    await message.reply({ content: 'on it', allowedMentions: { parse: [], repliedUser: false } });
    const reply = await fake.nextMessage(general.id);
    expect(reply.body.message_reference).toMatchObject({ message_id: message.id });
    expect(reply.pings.users).toEqual([]);
    expect(fake.message(reply.message.id)?.reference?.message_id).toBe(message.id);
  });

  it('GIVEN a post of 2001 characters or an empty one THEN Discord refuses it with 400', async () => {
    const { fake, general } = await world();
    const c = await ready(fake);
    const channel = c.channels.cache.get(general.id);
    if (!channel?.isSendable()) throw new Error('general is not sendable');

    await expect(channel.send('x'.repeat(2001))).rejects.toMatchObject({ status: 400, code: 50035 });
    await expect(channel.send({ content: '' })).rejects.toThrow();
    expect(fake.posts).toHaveLength(0);
  });

  it('GIVEN registered commands WHEN a person runs one THEN the interaction arrives with options, roles and permissions and the reply is recorded', async () => {
    const { fake, alice, guild, general } = await world();
    const pilots = fake.addRole(guild, 'pilots');
    const bob = fake.addUser('bob');
    fake.addMember(guild, bob, { roles: [pilots] });
    const c = await ready(fake);
    await c.application.commands.set([
      { name: 'goal', description: 'Set a goal', options: [{ name: 'text', description: 'the goal', type: 3, required: true }] },
      { name: 'share', description: 'Share avatars', options: [{ name: 'role', description: 'who', type: 8, required: true }] },
    ]);
    await c.application.commands.set([{ name: 'dev', description: 'guild-only' }], guild.id);
    expect(fake.commands.global.map((x) => x.name)).toEqual(['goal', 'share']);
    expect(fake.commands.guilds.get(guild.id)?.map((x) => x.name)).toEqual(['dev']);

    const seen: ChatInputCommandInteraction[] = [];
    c.on(Events.InteractionCreate, (i) => {
      if (!i.isChatInputCommand()) return;
      seen.push(i);
      void i.reply({ content: `goal set: ${i.options.getString('text') ?? i.options.getRole('role')?.name ?? ''}`, flags: i.commandName === 'share' ? MessageFlags.Ephemeral : undefined });
    });
    const goal = fake.slash({ user: bob, channel: general, name: 'goal', options: [option.string('text', 'dig')] });
    const share = fake.slash({ user: alice, channel: general, name: 'share', options: [option.role('role', pilots)] });

    expect(await goal.reply()).toMatchObject({ content: 'goal set: dig', ephemeral: false, deferred: false });
    expect(await share.reply()).toMatchObject({ content: 'goal set: pilots', ephemeral: true });
    const [goalI, shareI] = seen;
    expect(goalI?.member?.roles).toBeDefined();
    expect(goalI?.inCachedGuild() && goalI.member.roles.cache.has(pilots.id)).toBe(true);
    expect(goalI?.memberPermissions?.has(Permission.ManageGuild)).toBe(false);
    expect(shareI?.memberPermissions?.has(Permission.ManageGuild)).toBe(true);
    const callback = fake.requests.find((r) => r.path.startsWith(`/interactions/${goal.id}/`));
    expect(callback).toMatchObject({ method: 'POST', status: 204, authorized: false });
  });

  it('GIVEN a slow command WHEN the bot defers, edits and follows up THEN the fake shows the edited reply and the follow-up', async () => {
    const { fake, alice, general } = await world();
    const c = await ready(fake);
    await c.application.commands.set([{ name: 'status', description: 'Show status' }]);
    c.on(Events.InteractionCreate, (i) => {
      if (!i.isChatInputCommand()) return;
      void (async () => {
        await i.deferReply({ flags: MessageFlags.Ephemeral });
        await i.editReply('all quiet');
        await i.followUp({ content: 'and one more thing', flags: MessageFlags.Ephemeral });
      })();
    });

    const status = fake.slash({ user: alice, channel: general, name: 'status' });
    expect((await status.callback()).type).toBe(5);
    expect(await status.reply()).toMatchObject({ content: 'all quiet', ephemeral: true, deferred: true });
    expect(await status.followUp()).toMatchObject({ content: 'and one more thing', ephemeral: true, via: 'followup' });
  });

  it('GIVEN a command with autocomplete WHEN a person types THEN the bot answers with choices', async () => {
    const { fake, alice, general } = await world();
    const c = await ready(fake);
    await c.application.commands.set([
      { name: 'play', description: 'Control an avatar', options: [{ name: 'avatar', description: 'which', type: 3, autocomplete: true }] },
    ]);
    c.on(Events.InteractionCreate, (i) => {
      if (!i.isAutocomplete()) return;
      const typed = i.options.getFocused();
      void i.respond(['ada', 'bob', 'adam'].filter((n) => n.startsWith(typed)).map((n) => ({ name: n, value: n })));
    });

    const typing = fake.autocomplete({ user: alice, channel: general, name: 'play', options: [option.focused('avatar', 'ad')] });
    expect(await typing.choices()).toEqual([{ name: 'ada', value: 'ada' }, { name: 'adam', value: 'adam' }]);
  });

  it('GIVEN an invalid command WHEN the bot registers it THEN the overwrite is refused with 400', async () => {
    const { fake } = await world();
    const c = await ready(fake);
    await expect(c.application.commands.set([{ name: 'Bad Name', description: 'x' }])).rejects.toMatchObject({ status: 400 });
    expect(fake.commands.overwrites).toHaveLength(0);
  });

  it('GIVEN a ready client WHEN the gateway socket drops THEN the client resumes and gets the events it missed', async () => {
    const { fake, alice, general } = await world();
    const c = await ready(fake);
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

  it('GIVEN MessageContent is not allowed WHEN the client identifies with it THEN the gateway closes with 4014 and a client without it gets empty contents except mentions', async () => {
    const { fake, alice, general } = await world({ privileged: { messageContent: false } });
    const refused = client(fake);
    await expect(refused.login(fake.token)).rejects.toThrow(/disallowed intents/i);
    expect(fake.identifies[0]?.refused).toBe(4014);

    const c = await ready(fake, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages]);
    const received: Message[] = [];
    c.on(Events.MessageCreate, (m) => received.push(m));
    fake.sendMessage({ channel: general, author: alice, content: 'plain words' });
    fake.sendMessage({ channel: general, author: alice, content: `<@${fake.bot.id}> status please` });
    fake.sendDm(alice, 'a private word');
    while (received.length < 3) await once(c, Events.MessageCreate);
    expect(received.map((m) => m.content)).toEqual(['', `<@${fake.bot.id}> status please`, 'a private word']);
  });

  it('GIVEN an injected 429 WHEN the bot posts THEN discord.js waits Retry-After and the post is accepted once', async () => {
    const { fake, general } = await world();
    const c = await ready(fake);
    const channel = c.channels.cache.get(general.id);
    if (!channel?.isSendable()) throw new Error('general is not sendable');
    fake.failNext({ method: 'POST', path: `/channels/${general.id}/messages`, status: 429, retryAfter: 0.2 });

    await channel.send('after the limit');
    const attempts = fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${general.id}/messages`);
    expect(attempts.map((r) => r.status)).toEqual([429, 200]);
    expect(fake.posts.map((p) => p.content)).toEqual(['after the limit']);
  });

  it('GIVEN a forbidden and a deleted channel WHEN the bot posts THEN it gets 403 and 404 as on Discord', async () => {
    const { fake, guild, general } = await world();
    const other = fake.addChannel(guild, 'other');
    const c = await ready(fake);
    const generalCh = c.channels.cache.get(general.id);
    const otherCh = c.channels.cache.get(other.id);
    if (!generalCh?.isSendable() || !otherCh?.isSendable()) throw new Error('channels are not sendable');
    fake.forbidChannel(general);
    fake.deleteChannel(other);

    await expect(generalCh.send('x')).rejects.toMatchObject({ status: 403, code: 50001 });
    await expect(otherCh.send('x')).rejects.toMatchObject({ status: 404, code: 10003 });
  });

  it('GIVEN a pending wait WHEN the fake closes THEN the wait is rejected', async () => {
    const fake = await FakeDiscord.start();
    const waiting = fake.nextMessage();
    await fake.close();
    await expect(waiting).rejects.toThrow(/closed/);
  });
});
