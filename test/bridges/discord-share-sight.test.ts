/**
 * A share shows only what it shares: members with the pilot role see and
 * steer the shared avatars; members without it see /status and ask
 * questions only where an avatar is linked; the full direction text and the
 * owner's ids are for its owner and admins; people are shown by name.
 * Real core, real discord.js, fake Discord.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeRole, type FakeUser } from '../fakes/discord-api.ts';
import { cardText, startMindlink, TOKEN, type Running } from './discord-helpers.ts';

const SECRET = 'keep the base at 120 64 -300 hidden, and never lead anyone to the diamonds under it';

describe('what a guild share shows', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let bob: FakeUser;
  let carol: FakeUser;
  let dave: FakeUser;
  let pilots: FakeRole;
  let general: FakeChannel;
  let random: FakeChannel;

  function slash(user: FakeUser, channel: FakeChannel, name: string, options: Parameters<FakeDiscord['slash']>[0]['options'] = []) {
    return fake.slash({ user, channel, name, options }).reply();
  }

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    bob = fake.addUser('bob');
    carol = fake.addUser('carol');
    dave = fake.addUser('dave');
    const home = fake.addGuild('Home', { owner: alice });
    pilots = fake.addRole(home, 'pilots');
    fake.addMember(home, bob, { roles: [pilots] });
    fake.addMember(home, carol);
    fake.addMember(home, dave);
    general = fake.addChannel(home, 'general');
    random = fake.addChannel(home, 'random');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-sight-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` });
    await slash(alice, general, 'avatar', [option.subcommand('create', [option.string('name', 'steve')])]);
    await slash(alice, general, 'play', [option.string('avatar', 'steve')]);
    const m = fake.sendMessage({ channel: general, author: alice, content: SECRET });
    expect((await fake.waitForPost((p) => p.body.message_reference?.message_id === m.id)).content).toBe('[steve] Noted as direction #1.');
    expect((await slash(alice, general, 'share', [option.role('role', pilots)])).ephemeral).toBe(false);
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a member without the role in a channel nothing is linked to THEN /status, /avatars, /direction and questions reveal nothing about steve', async () => {
    const unknown = await slash(carol, random, 'status', [option.string('avatar', 'steve')]);
    const missing = await slash(carol, random, 'status', [option.string('avatar', 'nobody')]);
    expect(unknown.ephemeral).toBe(true);
    expect(unknown.content).toBe(missing.content.replace('nobody', 'steve'));
    const list = await slash(carol, random, 'avatars');
    expect(list.content).not.toMatch(/steve|demo|discord:/);
    const direction = await slash(carol, random, 'direction', [option.string('avatar', 'steve')]);
    expect(direction.content).not.toMatch(/base|diamonds/);
    const asked = fake.sendMessage({ channel: random, author: carol, content: `<@${fake.bot.id}> steve: where are you?` });
    const answer = await fake.waitForPost((p) => p.body.message_reference?.message_id === asked.id);
    expect(answer.content).toMatch(/^I don't know you yet\./);
  });

  it('GIVEN the same member in the channel steve is linked to THEN she sees /status and the direction in full, and may ask', async () => {
    expect(cardText((await slash(carol, general, 'status')).body)).toMatch(/^steve\n(working|choosing)/);
    expect((await slash(carol, general, 'direction')).content).toMatch(new RegExp(`^\\[steve\\] #1 \\(\\d{4}-\\d{2}-\\d{2}\\) ${SECRET}$`));
    const asked = fake.sendMessage({ channel: general, author: carol, content: 'where are you?' });
    expect((await fake.waitForPost((p) => p.body.message_reference?.message_id === asked.id)).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
  });

  it('GIVEN a pilot in a channel nothing is linked to THEN he sees steve and its owner by name, and its direction cut short', async () => {
    expect(cardText((await slash(bob, random, 'status', [option.string('avatar', 'steve')])).body)).toMatch(/^steve\n(working|choosing)/);
    const direction = (await slash(bob, random, 'direction', [option.string('avatar', 'steve')])).content;
    expect(direction).toMatch(/^\[steve\] #1 \(\d{4}-\d{2}-\d{2}\) keep the base at 120 64 -300 hidden, and…$/m);
    expect(direction).not.toMatch(/diamonds/);
    expect(direction).toMatch(/full text is for steve's owner, and in the chats it is linked to/);
    const list = (await slash(bob, random, 'avatars')).content;
    expect(list).toMatch(/^steve: \w+ \(owner alice, scripted\)/m);
    expect(list).not.toMatch(/discord:/);
    expect((await slash(bob, random, 'owner', [option.string('avatar', 'steve')])).content).toBe('[steve] Owner: alice.');
  });

  it('GIVEN an owner known only by id THEN everyone but admins sees "a Discord user" until they write, then their display name', async () => {
    const given = await slash(alice, general, 'owner', [option.string('avatar', 'steve'), option.string('identity', `discord:${dave.id}`)]);
    expect(given.content).toBe(`[steve] Owner is now a Discord user (discord:${dave.id}).`);
    expect((await slash(bob, random, 'avatars')).content).toMatch(/^steve: \w+ \(owner a Discord user, scripted\)/m);
    expect((await slash(bob, general, 'owner', [option.string('avatar', 'steve')])).content).toBe('[steve] Owner: a Discord user.');
    const hello = fake.sendMessage({ channel: general, author: dave, content: 'where are you?' });
    await fake.waitForPost((p) => p.body.message_reference?.message_id === hello.id);
    expect((await slash(bob, random, 'avatars')).content).toMatch(/^steve: \w+ \(owner dave, scripted\)/m);
    // Dave owns steve now: he sees his own identity, a pilot never does.
    expect((await slash(dave, general, 'owner', [option.string('avatar', 'steve')])).content).toBe(`[steve] Owner: dave (discord:${dave.id}).`);
    for (const p of fake.posts) if (p.channelId === random.id && !p.content.startsWith('[steve] Owner')) expect(p.content).not.toMatch(/discord:\d/);
  });
});
