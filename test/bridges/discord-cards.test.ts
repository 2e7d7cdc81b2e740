/**
 * Cards and buttons over Discord (docs/discord.md "Cards and buttons"), and typing while someone waits:
 * the real core and the real discord.js client against the fake Discord, whose people press the buttons
 * a message shows them and fill in the modals the bot opens.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeGuild, type FakeUser, type SentMessage } from '../fakes/discord-api.ts';
import { buttonsOf, cardText, startMindlink, TOKEN, type Running } from './discord-helpers.ts';

describe('cards and buttons over Discord (real core, real discord.js, fake Discord)', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let carol: FakeUser;
  let home: FakeGuild;
  let general: FakeChannel;
  let env: Record<string, string>;

  /** `author` writes `content` in `channel`; resolves with mindlink's post answering that message. */
  async function say(channel: FakeChannel, author: FakeUser, content: string): Promise<SentMessage> {
    const m = fake.sendMessage({ channel, author, content });
    return fake.waitForPost((p) => p.channelId === channel.id && p.body.message_reference?.message_id === m.id, `the answer to "${content}"`);
  }

  /** The ephemeral `/status` card `user` gets from the slash command, and the message it is. */
  async function statusCard(user: FakeUser): Promise<SentMessage> {
    const handle = fake.slash({ user, channel: general, name: 'status' });
    await handle.reply();
    return fake.waitForPost((p) => p.interactionId === handle.id, 'the status card');
  }

  const playing = (): boolean => ml.core.avatars.isPlaying('steve');

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    carol = fake.addUser('carol');
    home = fake.addGuild('Home', { owner: alice });
    fake.addMember(home, carol);
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-cards-'));
    env = { ADMINS: `discord:${alice.id}` };
    ml = await startMindlink(fake, dir, env);
    await fake.slash({ user: alice, channel: general, name: 'avatar', options: [option.subcommand('create', [option.string('name', 'steve')])] }).reply();
    await fake.slash({ user: alice, channel: general, name: 'play', options: [option.string('avatar', 'steve')] }).reply();
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN /status THEN it is an embed with the state as its colour, the goal and its setter, the server, and Stop, Refresh and Goal… for the owner', async () => {
    await say(general, alice, 'Goal: build a tower');
    const card = await statusCard(alice);
    const embed = card.body.embeds?.[0] as { title: string; color: number; fields: { name: string; value: string }[] };
    expect(embed.title).toBe('steve');
    expect([0x3ba55d, 0x5865f2]).toContain(embed.color);
    expect(cardText(card.body)).toMatch(/^steve\n(working|choosing)\nGoal: build a tower \(set by alice\)\n/);
    expect(embed.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['Goal', 'Server']));
    expect(buttonsOf(card.body)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
    // A card is an embed: SUPPRESS_EMBEDS would hide it, and it has no content to unfurl.
    expect((card.body.flags ?? 0) & 4).toBe(0);
    expect(card.content).toBe('');
  });

  it('GIVEN the Stop button on a /status card THEN steve stops and the card is updated in place: stopped, Play instead of Stop, who pressed it', async () => {
    expect(playing()).toBe(true);
    const card = await statusCard(alice);
    const pressed = fake.press({ user: alice, message: card, customId: 'stop:steve' });
    const update = await pressed.updated();
    expect(playing()).toBe(false);
    expect(update.messageId).toBe(card.message.id);
    expect(cardText(update.body)).toMatch(/^steve\nstopped\n/);
    expect(cardText(update.body)).toMatch(/alice pressed Stop: Stopped\. My goal is kept: \/play resumes it\.$/);
    expect(buttonsOf(update.body)).toEqual(['play:steve', 'refresh:steve', 'goal:steve']);
    expect((update.body.embeds?.[0] as { color: number }).color).toBe(0x747f8d);
    // Play on the same card starts it again, and the card says so.
    const again = await fake.press({ user: alice, message: card, customId: 'play:steve' }).updated();
    expect(playing()).toBe(true);
    expect(buttonsOf(again.body)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
  });

  it('GIVEN a card in the channel WHEN a member who may only watch presses Stop or Goal… THEN only she sees the refusal and nothing changes; her Refresh shows the card again as it was', async () => {
    const card = await say(general, alice, '/status');
    expect(buttonsOf(card.body)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
    const edits = fake.edits.length;
    const refused = await fake.press({ user: carol, message: card, customId: 'stop:steve' }).reply();
    expect(refused).toMatchObject({ ephemeral: true, content: "[steve] You can't control steve: ask its owner." });
    expect(playing()).toBe(true);
    const noModal = await fake.press({ user: carol, message: card, customId: 'goal:steve' }).reply();
    expect(noModal).toMatchObject({ ephemeral: true, content: "[steve] You can't control steve: ask its owner." });
    expect(fake.edits.length).toBe(edits);
    // She may watch: her Refresh shows the card again, buttons and all (each press is checked on its own).
    const refreshed = await fake.press({ user: carol, message: card, customId: 'refresh:steve' }).updated();
    expect(buttonsOf(refreshed.body)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
    // Her own /status offers only Refresh.
    const hers = await statusCard(carol);
    expect(buttonsOf(hers.body)).toEqual(['view:steve']);
  });

  it('GIVEN the Goal… button THEN a modal with one text field asks for the goal, and sending it sets the goal and updates the card in place', async () => {
    const card = await statusCard(alice);
    const pressed = fake.press({ user: alice, message: card, customId: 'goal:steve' });
    const modal = await pressed.modal();
    expect(modal).toMatchObject({ custom_id: 'goal:steve', title: 'New goal for steve' });
    const sent = fake.submitModal({ user: alice, from: pressed, values: { text: 'collect 5 dirt' } });
    const update = await sent.updated();
    expect(ml.core.avatars.get('steve')?.goal?.text).toBe('collect 5 dirt');
    expect(update.messageId).toBe(card.message.id);
    expect(cardText(update.body)).toMatch(/\nGoal: collect 5 dirt \(set by alice\)\n/);
    expect(cardText(update.body)).toMatch(/New goal from alice: collect 5 dirt\.$/);
  });

  it('GIVEN a Done: post THEN it carries New goal… and Status: Status answers with a card for the presser, New goal… with a modal whose goal is announced', async () => {
    const since = fake.posts.length;
    await say(general, alice, 'Goal: get 3 logs');
    const done = await fake.waitForPost((p) => fake.posts.indexOf(p) >= since && p.channelId === general.id && p.content.includes('Done: get 3 logs'), 'the Done post');
    expect(buttonsOf(done.body)).toEqual(['newgoal:steve', 'status:steve']);
    const status = await fake.press({ user: carol, message: done, customId: 'status:steve' }).reply();
    expect(status.ephemeral).toBe(true);
    expect(cardText(status.body)).toMatch(/^steve\n/);
    expect(buttonsOf(status.body)).toEqual(['view:steve']);
    // A watcher may not set a goal; the owner may.
    expect(await fake.press({ user: carol, message: done, customId: 'newgoal:steve' }).reply()).toMatchObject({ ephemeral: true, content: "[steve] You can't control steve: ask its owner." });
    const pressed = fake.press({ user: alice, message: done, customId: 'newgoal:steve' });
    expect(await pressed.modal()).toMatchObject({ custom_id: 'newgoal:steve' });
    const answer = await fake.submitModal({ user: alice, from: pressed, values: { text: 'build a house' } }).reply();
    expect(answer).toMatchObject({ ephemeral: false, content: '[steve] New goal from alice: build a house.' });
    expect(ml.core.avatars.get('steve')?.goal?.text).toBe('build a house');
  });

  it('GIVEN a card made before a restart THEN its buttons still work after it, on the avatar as it is now, and it is updated in place', async () => {
    const card = await say(general, alice, '/status');
    expect(buttonsOf(card.body)).toEqual(['stop:steve', 'refresh:steve', 'goal:steve']);
    // Stopped another way: the card still shows Stop.
    await fake.slash({ user: alice, channel: general, name: 'stop' }).reply();
    await ml.core.stop();
    ml = await startMindlink(fake, dir, env);
    expect(playing()).toBe(false);
    const pressed = await fake.press({ user: alice, message: card, customId: 'stop:steve' }).updated();
    expect(pressed.messageId).toBe(card.message.id);
    expect(cardText(pressed.body)).toMatch(/^steve\nstopped\n/);
    expect(cardText(pressed.body)).toMatch(/alice pressed Stop: Already stopped\. \/play starts me again\.$/);
    expect(buttonsOf(pressed.body)).toEqual(['play:steve', 'refresh:steve', 'goal:steve']);
    await fake.press({ user: alice, message: card, customId: 'play:steve' }).updated();
    expect(playing()).toBe(true);
  });

  it('GIVEN a question THEN the channel shows typing before the answer; automatic turns after it show none', async () => {
    const engine = ml.engines.get('steve');
    if (!engine) throw new Error('no engine for steve');
    const before = fake.typings.length;
    const m = fake.sendMessage({ channel: general, author: alice, content: 'where are you?' });
    const answer = await fake.waitForPost((p) => p.body.message_reference?.message_id === m.id, 'the answer');
    expect(answer.content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    const answered = fake.requests.findIndex(
      (r) => r.method === 'POST' && r.path === `/channels/${general.id}/messages` && (r.body as { message_reference?: { message_id?: string } }).message_reference?.message_id === m.id,
    );
    const typed = fake.typings.slice(before);
    expect(typed.length).toBeGreaterThan(0);
    expect(typed[0]?.channelId).toBe(general.id);
    expect(typed[0]?.request ?? Infinity).toBeLessThan(answered);
    // Three automatic turns later, no typing was shown again.
    const upTo = fake.typings.length;
    await engine.nextTurn(engine.requests.length + 3);
    await ml.core.idle();
    expect(fake.typings.slice(upTo)).toEqual([]);
  });

  it('GIVEN a goal written in the channel THEN typing shows while the turn it woke runs', async () => {
    const engine = ml.engines.get('steve');
    if (!engine) throw new Error('no engine for steve');
    // The turn on the new goal waits until the test lets it go, so it is surely running while we look.
    const original = engine.script;
    let release = (): void => {};
    const gate = new Promise<void>((r) => (release = r));
    engine.script = async (req, n) => {
      if (req.goal?.text !== 'dig a moat') return original(req, n);
      await gate;
      return 'Digging.\nSTATUS: working';
    };
    try {
      const before = fake.typings.length;
      const ack = await say(general, alice, 'Goal: dig a moat');
      expect(ack.content).toBe('[steve] New goal from alice: dig a moat.');
      const typed = await fake.waitFor(() => fake.typings.slice(before).find((t) => t.channelId === general.id), 'typing for the woken turn');
      expect(typed.channelId).toBe(general.id);
    } finally {
      release();
      engine.script = original;
    }
  });
});
