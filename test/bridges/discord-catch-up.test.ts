/**
 * What is written on Discord while mindlink is away: the gateway does not
 * replay it, so the bridge reads each linked chat and DM on from its read
 * mark — at start, and after a gateway session that could not be resumed.
 * Real core, real store on disk, real discord.js, fake Discord.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeGuild, type FakeMessage, type FakeUser, type SentMessage } from '../fakes/discord-api.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('Discord: what was written while mindlink was away', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running | undefined;
  let alice: FakeUser;
  let home: FakeGuild;
  let general: FakeChannel;
  let random: FakeChannel;
  let env: Record<string, string>;

  /** mindlink's answer to message `m` (a reply to it). */
  function answerTo(m: FakeMessage): Promise<SentMessage> {
    return fake.waitForPost((p) => p.body.message_reference?.message_id === m.id, `the answer to "${m.content}"`);
  }

  function answersTo(m: FakeMessage): SentMessage[] {
    return fake.posts.filter((p) => p.body.message_reference?.message_id === m.id);
  }

  async function say(channel: FakeChannel, content: string): Promise<SentMessage> {
    return answerTo(fake.sendMessage({ channel, author: alice, content }));
  }

  /** Stop mindlink (if it runs) and start it again on the same data. */
  async function restart(bridgeOptions: Parameters<typeof startMindlink>[3] = {}): Promise<Running> {
    await ml?.core.stop();
    ml = await startMindlink(fake, dir, env, bridgeOptions);
    return ml;
  }

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    home = fake.addGuild('Home', { owner: alice });
    general = fake.addChannel(home, 'general');
    random = fake.addChannel(home, 'random');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-catch-up-'));
    env = { ADMINS: `discord:${alice.id}`, DISCORD_GUILD_ID: home.id };
    ml = await startMindlink(fake, dir, env);
    await fake.slash({ user: alice, channel: general, name: 'avatar', options: [option.subcommand('create', [option.string('name', 'steve')])] }).reply();
    await fake.slash({ user: alice, channel: general, name: 'play', options: [option.string('avatar', 'steve')] }).reply();
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a linked channel and a DM WHEN alice writes there while mindlink is down THEN the next start answers each message, in order, once', async () => {
    expect((await say(general, 'where are you?')).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    const dm = fake.dmChannel(alice);
    await fake.slash({ user: alice, channel: dm, name: 'link', options: [option.string('avatar', 'steve')] }).reply();
    expect((await say(dm, 'what do you see?')).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    await ml?.core.stop();
    ml = undefined;

    const goal = fake.sendMessage({ channel: general, author: alice, content: 'Goal: build a tower' });
    const direction = fake.sendMessage({ channel: general, author: alice, content: 'stay near the river' });
    const inDm = fake.sendDm(alice, 'keep away from lava');
    // Not linked, not for the bot: never read, late or live.
    const chatter = fake.sendMessage({ channel: random, author: alice, content: 'Goal: anything' });
    ml = await startMindlink(fake, dir, env);

    const answers = await Promise.all([answerTo(goal), answerTo(direction), answerTo(inDm)]);
    expect(answers.map((a) => a.content)).toEqual(['[steve] New goal from alice: build a tower.', '[steve] Noted as direction #1.', '[steve] Noted as direction #2.']);
    expect(fake.posts.indexOf(answers[0] as SentMessage)).toBeLessThan(fake.posts.indexOf(answers[1] as SentMessage));
    expect(ml.core.avatars.get('steve')?.goal?.text).toBe('build a tower');
    expect(ml.core.store.state.data.readMarks[`discord:${general.id}`]).toBeDefined();

    // Another restart reads nothing twice.
    const again = await restart();
    expect((await say(general, 'where are you now?')).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    for (const m of [goal, direction, inDm]) expect(answersTo(m)).toHaveLength(1);
    expect(answersTo(chatter)).toEqual([]);
    expect(again.core.avatars.get('steve')?.directions.open.map((d) => d.text)).toEqual(['stay near the river', 'keep away from lava']);
  });

  it('GIVEN a message over a day old by the time mindlink is back THEN it is not read late, and a fresh one is', async () => {
    await ml?.core.stop();
    ml = undefined;
    const old = fake.sendMessage({ channel: general, author: alice, content: 'Goal: dig a moat' });
    // A day and an hour pass: on Discord's clock and on mindlink's.
    const later = (): number => Date.now() + DAY_MS + 3_600_000;
    fake.setClock(later);
    const fresh = fake.sendMessage({ channel: general, author: alice, content: 'Goal: plant a tree' });
    const back = await restart({ now: later });
    expect((await answerTo(fresh)).content).toBe('[steve] New goal from alice: plant a tree.');
    expect(answersTo(old)).toEqual([]);
    expect(back.core.avatars.get('steve')?.goal?.text).toBe('plant a tree');
  });

  it('GIVEN a gateway session that cannot be resumed WHEN a message comes before the new session THEN it is read once the bot is back', async () => {
    const identifies = fake.identifies.length;
    fake.invalidateSession(false);
    // The old session no longer gets events; the new one has not begun.
    const between = fake.sendMessage({ channel: general, author: alice, content: 'what do you see now?' });
    expect((await answerTo(between)).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    expect(fake.identifies.length).toBeGreaterThan(identifies);
    expect(answersTo(between)).toHaveLength(1);
  });

  it('GIVEN a channel unlinked before the restart THEN nothing there is read late: a mention answered live is not answered again', async () => {
    await fake.slash({ user: alice, channel: general, name: 'unlink', options: [option.string('avatar', 'steve')] }).reply();
    expect(ml?.core.store.state.data.links.some((l) => l.dest === `discord:${general.id}`)).toBe(false);
    // Unlinked, the channel still hears a mention of the bot, live; its read mark stays where it was.
    const mention = fake.sendMessage({ channel: general, author: alice, content: `<@${fake.bot.id}> steve, where are you?` });
    expect((await answerTo(mention)).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    await ml?.core.stop();
    ml = undefined;
    const inDm = fake.sendDm(alice, 'what do you see?');
    const back = await restart();
    // Read late in the order written: the DM's answer comes after anything the channel would have had.
    expect((await answerTo(inDm)).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    // A second answer to the mention would have been queued before the DM's: it is neither sent nor waiting.
    expect(answersTo(mention)).toHaveLength(1);
    expect(back.core.outbox.all().filter((p) => p.replyTo === mention.id)).toEqual([]);
  });
});
