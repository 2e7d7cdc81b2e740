/**
 * `/avatar create|remove|rename` as Discord sub-commands: only an avatar's
 * owner or an admin removes or renames it, a pilot cannot. Real core, real
 * discord.js, fake Discord.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeUser } from '../fakes/discord-api.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

describe('the /avatar group on Discord', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let bob: FakeUser;
  let general: FakeChannel;

  function avatar(user: FakeUser, sub: string, options: Parameters<typeof option.subcommand>[1]) {
    return fake.slash({ user, channel: general, name: 'avatar', options: [option.subcommand(sub, options)] }).reply();
  }

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    bob = fake.addUser('bob');
    const home = fake.addGuild('Home', { owner: alice });
    const pilots = fake.addRole(home, 'pilots');
    fake.addMember(home, bob, { roles: [pilots] });
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-avatar-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` });
    expect((await avatar(alice, 'create', [option.string('name', 'steve')])).content).toMatch(/^\[steve\] Created steve on embedded/);
    await fake.slash({ user: alice, channel: general, name: 'share', options: [option.role('role', pilots)] }).reply();
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN the registered commands THEN /avatar is one command with create, remove, rename and move', async () => {
    const registered = (await fake.waitForCommands('global')).find((c) => c.name === 'avatar');
    expect((registered?.options as { name: string }[] | undefined)?.map((o) => o.name)).toEqual(['create', 'remove', 'rename', 'move']);
  });

  it('GIVEN a pilot THEN he may steer steve but neither remove nor rename it', async () => {
    expect(await avatar(bob, 'remove', [option.string('name', 'steve'), option.string('confirm', 'steve')])).toMatchObject({
      ephemeral: true,
      content: "[steve] Only steve's owner or an admin can remove it.",
    });
    expect(await avatar(bob, 'rename', [option.string('name', 'steve'), option.string('to', 'stevo')])).toMatchObject({
      ephemeral: true,
      content: "[steve] Only steve's owner or an admin can rename it.",
    });
    expect(ml.core.avatars.get('steve')).toBeDefined();
  });

  it('GIVEN the admin THEN rename works on a stopped avatar and remove asks for the name again before it removes', async () => {
    const renamed = await avatar(alice, 'rename', [option.string('name', 'steve'), option.string('to', 'robin')]);
    expect(renamed).toMatchObject({ ephemeral: false, content: expect.stringMatching(/^\[robin\] Renamed steve to robin\./) });
    const asked = await avatar(alice, 'remove', [option.string('name', 'robin')]);
    expect(asked.content).toMatch(/To go ahead, repeat its name: \/avatar remove name:robin confirm:robin$/);
    const removed = await avatar(alice, 'remove', [option.string('name', 'robin'), option.string('confirm', 'robin')]);
    expect(removed.content).toMatch(/^Removed robin: stopped, unlinked from 1 chat\. Its files are kept for a week in removed\/robin-/);
    expect(ml.core.avatars.get('robin')).toBeUndefined();
    expect((await readdir(join(dir, 'removed'))).some((d) => d.startsWith('robin-'))).toBe(true);
  });
});
