/**
 * Servers and Discord: a guild shares one Minecraft server's avatars, present
 * and future (an avatar moved away is no longer shared), and an avatar's
 * Microsoft sign-in code reaches its owner in a Discord DM, nowhere else. The
 * real core and discord.js against the fake Discord; the games are stand-ins.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameProvider } from '../../src/game/game.ts';
import { FakeDiscord, option, type FakeChannel, type FakeGuild, type FakeRole, type FakeUser } from '../fakes/discord-api.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';
import { filesOf } from '../../src/store/files.ts';

describe('GIVEN a Minecraft server "survival" beside the embedded world, over Discord', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let bob: FakeUser;
  let home: FakeGuild;
  let pilots: FakeRole;
  let general: FakeChannel;
  const games = new Map<string, FakeGame>();
  const provider: GameProvider = {
    create: (avatar) => {
      const game = new FakeGame(avatar.name);
      games.set(avatar.name, game);
      return game;
    },
    close: async () => {},
  };
  const slash = (user: FakeUser, channel: FakeChannel, name: string, options: Parameters<FakeDiscord['slash']>[0]['options'] = []) =>
    fake.slash({ user, channel, name, options }).reply();

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    bob = fake.addUser('bob');
    home = fake.addGuild('Home', { owner: alice });
    pilots = fake.addRole(home, 'pilots');
    fake.addMember(home, bob, { roles: [pilots] });
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dcsrv-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}`, DISCORD_GUILD_ID: home.id }, {}, { games: provider });
    // /server add pings a real server; the games here are stand-ins, so the entry is stored as it would be.
    filesOf(ml.core.store).state.update((s) => s.servers.push({ id: 'survival', host: 'play.example.net', port: 25565, version: '1.21.4', auth: 'microsoft', onlineMode: true }));
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN survival shared with the pilot role THEN its avatars now and later are piloted, and one moved away is not', async () => {
    expect((await slash(alice, general, 'avatar', [option.subcommand('create', [option.string('name', 'zed'), option.string('server', 'survival')])])).content).toMatch(/^\[zed\] Created zed on survival/);
    const shared = await slash(alice, general, 'share', [option.role('role', pilots), option.string('server', 'Survival')]);
    expect(shared.content).toBe(`Shared every avatar on survival (present and future) with <@&${pilots.id}>: members with that role may control them from this server's channels; others may ask questions and see /status in the channels they are linked to.`);
    expect(await slash(bob, general, 'goal', [option.string('text', 'dig'), option.string('avatar', 'zed')])).toMatchObject({ content: "[zed] New goal from bob: dig. I'm stopped: /play zed starts me." });
    // Created after the share: piloted too.
    await slash(alice, general, 'avatar', [option.subcommand('create', [option.string('name', 'yan'), option.string('server', 'survival')])]);
    expect(await slash(bob, general, 'goal', [option.string('text', 'dig'), option.string('avatar', 'yan')])).toMatchObject({ content: "[yan] New goal from bob: dig. I'm stopped: /play yan starts me." });
    // Moved to the embedded world: no longer the share's.
    expect((await slash(alice, general, 'avatar', [option.subcommand('move', [option.string('name', 'yan'), option.string('server', 'embedded')])])).content).toMatch(/^\[yan\] Moved yan to embedded \(this machine/);
    expect(await slash(bob, general, 'goal', [option.string('text', 'dig'), option.string('avatar', 'yan')])).toMatchObject({ ephemeral: true, content: "[yan] You can't control yan: ask its owner." });
    // Servers are for admins: the server's menu shows /servers only to who may manage it; in a DM it is offered, and refused.
    expect(() => fake.slash({ user: bob, channel: general, name: 'servers' })).toThrow(/hidden from bob/);
    expect(await slash(bob, fake.dmChannel(bob), 'servers')).toMatchObject({ ephemeral: true, content: 'Only an admin can manage servers.' });
  });

  it("GIVEN zed's sign-in needs a code THEN it reaches alice in a Discord DM and no channel", async () => {
    const since = fake.posts.length;
    games.get('zed')?.emit('signInCode', { userCode: 'DCODE123', verificationUri: 'https://www.microsoft.com/link', expiresInMs: 900_000, attempt: 1 });
    const dm = await fake.waitForPost((p) => p.content.includes('DCODE123'), 'the code');
    expect(dm.channelId).toBe(fake.dmChannel(alice).id);
    expect(dm.content).toBe('[zed] To let zed join survival, sign in at https://www.microsoft.com/link with code DCODE123 (valid 15 min) using the Microsoft account that owns the Minecraft profile zed should play as.');
    await ml.core.idle();
    expect(fake.posts.slice(since).filter((p) => p.content.includes('DCODE123')).map((p) => p.channelId)).toEqual([fake.dmChannel(alice).id]);
  });
});
