/**
 * The game's chat over Discord, for real: the real core, discord.js against the fake Discord, an avatar
 * that is a real mineflayer game on the embedded world, and a player who is a raw mineflayer bot there.
 * `/relay` posts what the avatar hears, paced and pinging nobody; `/say` speaks in the game.
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import mineflayer, { type Bot } from 'mineflayer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameProvider } from '../../src/game/game.ts';
import { FakeDiscord, option, type FakeChannel, type FakeGuild, type FakeRole, type FakeUser, type SentMessage } from '../fakes/discord-api.ts';
import { tempDataDir, waitFor, worldGame, worldPerFile } from '../game/helpers.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

const w = worldPerFile('relay-dc');

describe('the game’s chat over Discord (real world, real discord.js, fake Discord)', () => {
  const data = tempDataDir('relay-dc-data');
  const games: GameProvider = { create: (avatar, _server, log) => worldGame(w.world, avatar.name, log), close: async () => {} };
  let fake: FakeDiscord;
  let ml: Running;
  let alice: FakeUser;
  let bob: FakeUser;
  let home: FakeGuild;
  let pilots: FakeRole;
  let general: FakeChannel;
  let other: FakeChannel;
  let ann: Bot;
  /** Every chat line ann's client showed, as text. */
  const annHeard: string[] = [];

  const start = (): Promise<Running> => startMindlink(fake, data.dir, { ADMINS: `discord:${alice.id}`, DISCORD_GUILD_ID: home.id }, {}, { games });
  const slash = (user: FakeUser, channel: FakeChannel, name: string, options: Parameters<FakeDiscord['slash']>[0]['options'] = []) => fake.slash({ user, channel, name, options }).reply();
  /** The relay's posts in a channel: mindlink's own messages there that carry a player's line or a server line. */
  const relayed = (channel: FakeChannel): SentMessage[] => fake.posts.filter((p) => p.channelId === channel.id && p.via === 'channel' && /^\[scout\] (\(|<ann> |.* joined the game|.* left the game)/.test(p.content));
  const linesIn = (posts: readonly SentMessage[]): string[] => posts.flatMap((p) => p.content.replace(/^\[scout\] /, '').split('\n'));
  const inGame = (): Promise<void> => waitFor(() => ml.core.avatars.game('scout')?.state === 'connected', 60_000, 'scout in the game');

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    bob = fake.addUser('bob');
    home = fake.addGuild('Home', { owner: alice });
    pilots = fake.addRole(home, 'pilots');
    fake.addMember(home, bob);
    general = fake.addChannel(home, 'general');
    other = fake.addChannel(home, 'other');
    ml = await start();
    expect((await slash(alice, general, 'avatar', [option.subcommand('create', [option.string('name', 'scout')])])).content).toMatch(/^\[scout\] Created scout/);
    await slash(alice, general, 'play');
    await inGame();
    ann = mineflayer.createBot({ username: 'ann', host: w.world.host, port: w.world.port, version: w.world.version, auth: 'offline', hideErrors: true });
    ann.on('messagestr', (text) => {
      annHeard.push(text);
    });
    await once(ann, 'spawn');
  }, 180_000);

  afterAll(async () => {
    if (ann) {
      const ended = once(ann, 'end');
      ann.quit();
      await ended;
    }
    await ml?.core.stop();
    await fake?.close();
    data.remove();
  }, 60_000);

  it('GIVEN /relay on in the linked channel THEN a player’s line arrives there once, and scout’s own /say line reaches the game but is not relayed', async () => {
    const on = await slash(alice, general, 'relay', [option.string('mode', 'on')]);
    expect(on).toMatchObject({ ephemeral: false });
    expect(on.content).toMatch(/^\[scout\] Relaying the game's chat here: /);
    ann.chat('hello from ann');
    await fake.waitForPost((p) => p.channelId === general.id && p.content.includes('<ann> hello from ann'), 'ann’s line in #general');
    const said = await slash(alice, general, 'say', [option.string('text', 'hello there, ann')]);
    expect(said).toMatchObject({ content: '[scout] Said in the game: hello there, ann', ephemeral: false });
    await waitFor(() => annHeard.includes('<scout> hello there, ann'), 20_000, 'ann to hear scout');
    // A line after scout's: once it is posted, scout's own line would have been too.
    ann.chat('after scout spoke');
    await fake.waitForPost((p) => p.channelId === general.id && p.content.includes('<ann> after scout spoke'), 'ann’s second line');
    await ml.core.idle();
    expect(linesIn(relayed(general)).filter((l) => l === '<ann> hello from ann')).toHaveLength(1);
    // Nothing mindlink posted in the channel (but the reply to /say, an interaction's) carries scout's line.
    const posted = linesIn(fake.posts.filter((p) => p.channelId === general.id && p.via === 'channel'));
    expect(posted.filter((l) => l.includes('<scout>') || l.includes('hello there'))).toEqual([]);
  }, 120_000);

  it('GIVEN 20 lines in 2 s THEN they arrive as at most 3 posts, each line once and in order', async () => {
    const before = relayed(general).length;
    for (let i = 1; i <= 20; i++) {
      ann.chat(`burst ${i}`);
      await new Promise((r) => setTimeout(r, 100)); // the player types 20 lines in 2 s
    }
    await fake.waitForPost((p) => p.channelId === general.id && p.content.split('\n').some((l) => l.endsWith('<ann> burst 20')), 'the last line of the burst');
    await ml.core.idle();
    const posts = relayed(general).slice(before);
    expect(posts.length).toBeLessThanOrEqual(3);
    expect(linesIn(posts).filter((l) => l.startsWith('<ann> burst '))).toEqual(Array.from({ length: 20 }, (_, i) => `<ann> burst ${i + 1}`));
  }, 120_000);

  it('GIVEN @everyone, a role and a user mention typed in the game THEN the post shows them as text and pings nobody', async () => {
    const line = `@everyone <@&${pilots.id}> <@${bob.id}> look at this`;
    ann.chat(line);
    const post = await fake.waitForPost((p) => p.channelId === general.id && p.content.includes(`<ann> ${line}`), 'the mentions line');
    expect(post.pings).toEqual({ users: [], roles: [], everyone: false });
    expect(post.body.allowed_mentions).toMatchObject({ parse: [], users: [] });
  }, 60_000);

  it('GIVEN /say from a watcher, a server command, 300 characters or control characters THEN each is refused and nothing reaches the game; once the owner allows commands a / line runs', async () => {
    const watcher = await slash(bob, general, 'say', [option.string('text', 'i am bob')]);
    expect(watcher.ephemeral).toBe(true);
    expect(watcher.content).toMatch(/can't control scout/);
    expect((await slash(alice, general, 'say', [option.string('text', '/op ann')])).content).toBe(
      '[scout] A line starting with / is a server command, run as scout: its owner can allow them with /say commands on scout. Nothing was said.',
    );
    expect((await slash(alice, general, 'say', [option.string('text', 'x'.repeat(300))])).content).toBe('[scout] A chat line is at most 256 characters; this one has 300. Nothing was said.');
    const typed = fake.sendMessage({ channel: general, author: alice, content: '/say ring\u0007the bell' });
    const control = await fake.waitForPost((p) => p.channelId === general.id && p.body.message_reference?.message_id === typed.id, 'the answer to a /say with a bell');
    expect(control.content).toBe("[scout] Minecraft's chat takes one line of plain text: no line breaks or control characters. Nothing was said.");
    expect((await slash(alice, general, 'say', [option.string('text', 'commands on')])).content).toBe('[scout] /say sends lines starting with / through scout: the server runs them as its commands.');
    expect((await slash(alice, general, 'say', [option.string('text', '/me waves')])).content).toBe('[scout] Said in the game: /me waves');
    await waitFor(() => annHeard.includes('* scout waves'), 20_000, 'ann to see scout wave');
    expect(annHeard.filter((l) => /i am bob|op ann|xxxx|bell/.test(l))).toEqual([]);
    expect((await slash(alice, general, 'say', [option.string('text', 'commands off')])).content).toBe('[scout] /say refuses lines starting with / for scout.');
  }, 120_000);

  it('GIVEN a restart THEN the relay is still on and posts again', async () => {
    await ml.core.stop();
    const state = JSON.parse(await readFile(join(data.dir, 'state.json'), 'utf8')) as { relays: { avatar: string; dest: string }[] };
    expect(state.relays).toMatchObject([{ avatar: 'scout', dest: `discord:${general.id}` }]);
    ml = await start();
    await inGame();
    ann.chat('after the restart');
    await fake.waitForPost((p) => p.channelId === general.id && p.content.includes('<ann> after the restart'), 'ann’s line after the restart');
  }, 180_000);

  it('GIVEN /relay off in #general while #other relays scout THEN ann’s next line reaches #other only', async () => {
    expect((await slash(alice, other, 'relay', [option.string('mode', 'on'), option.string('avatar', 'scout')])).content).toBe('[scout] Link scout to this chat first: /link scout');
    await slash(alice, other, 'link', [option.string('avatar', 'scout')]);
    expect((await slash(alice, other, 'relay', [option.string('mode', 'on'), option.string('avatar', 'scout')])).content).toMatch(/^\[scout\] Relaying/);
    expect((await slash(alice, general, 'relay', [option.string('mode', 'off')])).content).toBe("[scout] No more of the game's chat here.");
    expect((await slash(alice, general, 'relay', [option.string('mode', 'off')])).content).toBe("[scout] The game's chat is not relayed here.");
    const before = relayed(general).length;
    ann.chat('only for other');
    await fake.waitForPost((p) => p.channelId === other.id && p.content.includes('<ann> only for other'), 'ann’s line in #other');
    await ml.core.idle();
    expect(relayed(general).slice(before)).toEqual([]);
  }, 60_000);
});
