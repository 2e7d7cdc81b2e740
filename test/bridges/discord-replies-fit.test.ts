/**
 * Replies that fit the reader: each says only what its reader can do, and
 * the Discord command menu offers what /help lists. Real core, real
 * discord.js, fake Discord (no LLM_MODEL configured).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeUser } from '../fakes/discord-api.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

describe('replies that fit the reader', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let bob: FakeUser;
  let carol: FakeUser;
  let general: FakeChannel;

  function slash(user: FakeUser, channel: FakeChannel, name: string, options: Parameters<FakeDiscord['slash']>[0]['options'] = []) {
    return fake.slash({ user, channel, name, options }).reply();
  }

  async function say(channel: FakeChannel, author: FakeUser, content: string): Promise<string> {
    const m = fake.sendMessage({ channel, author, content });
    return (await fake.waitForPost((p) => p.body.message_reference?.message_id === m.id, `the answer to "${content}"`)).content;
  }

  /** The whole /help answer: the reply and its follow-ups, up to its last line (`/help …`, the last command listed). */
  async function wholeHelp(user: FakeUser, channel: FakeChannel): Promise<string> {
    const handle = fake.slash({ user, channel, name: 'help' });
    const parts = [(await handle.reply()).content];
    while (!/^\/help /m.test(parts.join('\n'))) parts.push((await handle.followUp(parts.length - 1)).content);
    return parts.join('\n');
  }

  /** The command names a /help answer lists (`/goal <text> …` → `goal`). */
  function helpNames(text: string): string[] {
    return [...new Set(text.split('\n').flatMap((l) => /^\/([a-z]+)\b.* — /.exec(l)?.[1] ?? []))];
  }

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    bob = fake.addUser('bob');
    carol = fake.addUser('carol');
    const home = fake.addGuild('Home', { owner: alice });
    const pilots = fake.addRole(home, 'pilots');
    fake.addMember(home, bob, { roles: [pilots] });
    fake.addMember(home, carol);
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-fit-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` });
    await slash(alice, general, 'avatar', [option.subcommand('create', [option.string('name', 'steve')])]);
    await slash(alice, general, 'play', [option.string('avatar', 'steve')]);
    await slash(alice, general, 'share', [option.role('role', pilots), option.string('avatar', 'steve')]);
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN no LLM_MODEL THEN the Discord menu and the admin\'s /help list the same commands, without /engine and /usage, and /help leaves out /pair once there is an admin', async () => {
    const menu = (await fake.waitForCommands('global')).map((c) => c.name).sort();
    expect(menu).not.toContain('engine');
    expect(menu).not.toContain('usage');
    // No pairing code waits (ADMINS is set), so /pair can work for nobody: /help does not offer it.
    expect(helpNames(await wholeHelp(alice, general)).sort()).toEqual(menu.filter((n) => n !== 'pair'));
  });

  it('GIVEN a member who may not steer steve THEN /direction, /help and a question to a stopped avatar offer nothing she cannot do', async () => {
    expect((await slash(carol, general, 'direction')).content).toBe('[steve] No open direction.');
    expect((await slash(alice, general, 'direction')).content).toBe('[steve] No open direction. Anything you write that is not a goal or a question becomes one.');
    const help = await wholeHelp(carol, general);
    expect(help).toMatch(/^Ask an avatar here a question/);
    expect(help).not.toMatch(/"Goal: |standing direction|\/goal |\/play |\/schedule /);
    await slash(alice, general, 'stop');
    expect(await say(general, carol, 'where are you?')).toBe("[steve] I'm stopped, so I can't look around.");
    expect(await say(general, alice, 'where are you?')).toBe("[steve] I'm stopped, so I can't look around. /play steve starts me.");
    await slash(alice, general, 'play');
  });

  it('GIVEN a pilot THEN /schedules does not offer /schedule (owners and admins schedule), /help lists no schedule commands, and a DM is not "I don\'t know you"', async () => {
    expect((await slash(bob, general, 'schedules')).content).toBe("No scheduled goals you can see: scheduling an avatar's goals is for its owner and admins.");
    expect((await slash(alice, general, 'schedules')).content).toMatch(/makes one\.$/);
    const help = await wholeHelp(bob, general);
    expect(helpNames(help)).toContain('goal');
    expect(helpNames(help)).not.toEqual(expect.arrayContaining(['schedule']));
    expect(helpNames(help)).not.toContain('schedules');
    expect(helpNames(help)).not.toContain('engine');
    const dm = await say(fake.dmChannel(bob), bob, 'where are you?');
    expect(dm).not.toMatch(/I don't know you/);
    expect(dm).toBe("No avatar of yours answers here. An avatar shared with you on a Discord server answers in that server's channels; /help lists what you can do here.");
  });

  it('GIVEN the admin in a DM and in a server channel THEN /help lists /share, /unshare and /verbose only in the channel, where they work; a member without Manage Server never sees /share', async () => {
    const inChannel = helpNames(await wholeHelp(alice, general));
    expect(inChannel).toEqual(expect.arrayContaining(['share', 'unshare', 'verbose']));
    const inDm = helpNames(await wholeHelp(alice, fake.dmChannel(alice)));
    expect(inDm).toContain('status');
    for (const name of ['share', 'unshare', 'verbose', 'pair']) expect(inDm).not.toContain(name);
    expect(helpNames(await wholeHelp(bob, general))).not.toContain('share');
  });
});
