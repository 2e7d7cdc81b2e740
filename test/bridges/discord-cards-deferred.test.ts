/**
 * Presses answered after a deferral (as on a busy machine, where the core takes longer than Discord's
 * 3 s allow): the bridge here defers every press, then completes it — a card updated through `@original`,
 * a refusal only the presser sees, an answer of its own edited into the deferred reply. A modal is still
 * the first answer to the button that opens it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeUser, type SentMessage } from '../fakes/discord-api.ts';
import { buttonsOf, cardText, startMindlink, TOKEN, type Running } from './discord-helpers.ts';

describe('presses answered after a deferral (real core, real discord.js, fake Discord)', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let carol: FakeUser;
  let general: FakeChannel;

  async function say(author: FakeUser, content: string): Promise<SentMessage> {
    const m = fake.sendMessage({ channel: general, author, content });
    return fake.waitForPost((p) => p.channelId === general.id && p.body.message_reference?.message_id === m.id, `the answer to "${content}"`);
  }

  beforeAll(async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    carol = fake.addUser('carol');
    const home = fake.addGuild('Home', { owner: alice });
    fake.addMember(home, carol);
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-deferred-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` }, { deferAfterMs: 0 });
    await fake.slash({ user: alice, channel: general, name: 'avatar', options: [option.subcommand('create', [option.string('name', 'steve')])] }).reply();
    await fake.slash({ user: alice, channel: general, name: 'play', options: [option.string('avatar', 'steve')] }).reply();
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN every press deferred THEN Stop updates the card through @original, a watcher gets a private refusal, Goal… still opens its modal, and Status is edited into a private reply', async () => {
    const card = await say(alice, '/status');
    const stop = fake.press({ user: alice, message: card, customId: 'stop:steve' });
    expect((await stop.callback()).type).toBe(6);
    const updated = await stop.updated();
    expect(updated).toMatchObject({ messageId: card.message.id, via: 'webhook' });
    expect(cardText(updated.body)).toMatch(/^steve\nstopped\n/);
    expect(ml.core.avatars.isPlaying('steve')).toBe(false);

    const refused = fake.press({ user: carol, message: card, customId: 'play:steve' });
    expect((await refused.callback()).type).toBe(6);
    expect(await refused.followUp()).toMatchObject({ ephemeral: true, content: "[steve] You can't control steve: ask its owner." });
    expect(ml.core.avatars.isPlaying('steve')).toBe(false);

    expect((await fake.press({ user: alice, message: card, customId: 'goal:steve' }).callback()).type).toBe(9);

    await fake.slash({ user: alice, channel: general, name: 'play' }).reply();
    const since = fake.posts.length;
    await say(alice, 'Goal: get 3 logs');
    const done = await fake.waitForPost((p) => fake.posts.indexOf(p) >= since && p.content.includes('Done: get 3 logs'), 'the Done post');
    const status = fake.press({ user: carol, message: done, customId: 'status:steve' });
    expect(await status.callback()).toMatchObject({ type: 5, ephemeral: true });
    const reply = await status.reply();
    expect(reply).toMatchObject({ deferred: true, via: 'edit', ephemeral: true });
    expect(buttonsOf(reply.body)).toEqual(['view:steve']);
  });
});
