/**
 * What a post looks like on Discord whatever is in it: an answer is cut to a
 * sentence or two, a long post is split with no crumbs, masked links show as
 * text and no link unfurls. Real core, real discord.js, fake Discord.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeDiscord, option, type FakeChannel, type FakeUser, type SentMessage } from '../fakes/discord-api.ts';
import type { Script } from '../fakes/test-engine.ts';
import { startMindlink, TOKEN, type Running } from './discord-helpers.ts';

/** SUPPRESS_EMBEDS: no link preview. */
const SUPPRESS_EMBEDS = 1 << 2;

/** 10,650 characters of sentences on a few lines, and an @everyone near its end. */
const RAMBLE = `${Array.from({ length: 180 }, (_, i) => `Sentence ${String(i).padStart(3, '0')} tells where I am and what I see around me now.${i % 20 === 19 ? '\n' : ' '}`)
  .join('')
  .slice(0, 10_650 - ' at @everyone'.length)} at @everyone`;

const script: Script = (req) => {
  if (req.kind === 'question' && /where/.test(req.message ?? '')) return `${RAMBLE}\nSTATUS: working`;
  if (req.kind === 'question') return 'The map is at [click](https://evil.example) and https://example.org/map.\nSTATUS: working';
  if (req.kind === 'choose') return 'GOAL: explore\nSTATUS: working';
  return 'STATUS: working';
};

describe('the shape of posts on Discord', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running;
  let alice: FakeUser;
  let general: FakeChannel;

  /** Every post that `pred` picks since `since`, in order. */
  function postsSince(since: number, pred: (p: SentMessage) => boolean = () => true): SentMessage[] {
    return fake.posts.slice(since).filter(pred);
  }

  beforeAll(async () => {
    expect(RAMBLE).toHaveLength(10_650);
    fake = await FakeDiscord.start({ token: TOKEN });
    alice = fake.addUser('alice');
    const home = fake.addGuild('Home', { owner: alice });
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-shape-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` }, {}, { script });
    await fake.slash({ user: alice, channel: general, name: 'avatar', options: [option.subcommand('create', [option.string('name', 'lia')])] }).reply();
    await fake.slash({ user: alice, channel: general, name: 'play', options: [option.string('avatar', 'lia')] }).reply();
    // Its first goal is posted on its own time: before the tests count the channel's posts.
    await fake.waitForPost((p) => p.channelId === general.id && /New goal \(my choice\)/.test(p.content), 'lia choosing its first goal');
  });

  afterAll(async () => {
    await ml?.core.stop();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a model that answers "where are you?" with 10,650 characters THEN one post of about 1,500 characters, cut with …', async () => {
    const since = fake.posts.length;
    const m = fake.sendMessage({ channel: general, author: alice, content: 'where are you?' });
    const answer = await fake.waitForPost((p) => p.body.message_reference?.message_id === m.id, 'the answer');
    await ml.core.idle();
    expect(postsSince(since, (p) => p.channelId === general.id)).toEqual([answer]);
    expect(answer.content.startsWith('[lia] Sentence 000 tells where I am')).toBe(true);
    expect(answer.content.endsWith('…')).toBe(true);
    expect(answer.content.length).toBeGreaterThan(1200);
    expect(answer.content.length).toBeLessThanOrEqual(1500 + '[lia] '.length);
    expect(answer.content).not.toMatch(/@everyone/);
  });

  it('GIVEN a goal of 1,990 characters THEN its acknowledgement is split into parts of at least 200 characters, each with its [name] prefix', async () => {
    const since = fake.posts.length;
    const words = Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ');
    const goal = `${words} ${'at'.repeat(995)}`.slice(0, 1990);
    const m = fake.sendMessage({ channel: general, author: alice, content: `Goal: ${goal}` });
    await fake.waitForPost((p) => p.body.message_reference?.message_id === m.id, 'the acknowledgement');
    await ml.core.idle();
    const parts = postsSince(since, (p) => p.channelId === general.id);
    expect(parts.length).toBe(2);
    for (const p of parts) {
      expect(p.content.startsWith('[lia] ')).toBe(true);
      expect(p.content.length).toBeLessThanOrEqual(2000);
      expect(p.content.length - '[lia] '.length).toBeGreaterThanOrEqual(200);
    }
    expect(parts.map((p) => p.content.slice('[lia] '.length)).join(' ')).toBe(`New goal from alice: ${goal}.`);
  });

  it('GIVEN masked links from a user and from the model THEN posts show them as text, and no post or reply unfurls a link', async () => {
    const since = fake.posts.length;
    const goal = fake.sendMessage({ channel: general, author: alice, content: 'Goal: go [click](https://evil.example) \\[x](https://evil.example/2)' });
    const ack = await fake.waitForPost((p) => p.body.message_reference?.message_id === goal.id, 'the acknowledgement');
    expect(ack.content).toBe('[lia] New goal from alice: go \\[click](https://evil.example) \\\\\\[x](https://evil.example/2).');
    const question = fake.sendMessage({ channel: general, author: alice, content: 'is there a map?' });
    const answer = await fake.waitForPost((p) => p.body.message_reference?.message_id === question.id, 'the answer');
    expect(answer.content).toBe('[lia] The map is at \\[click](https://evil.example) and https://example.org/map.');
    const status = await fake.slash({ user: alice, channel: general, name: 'goal', options: [option.string('text', 'see [here](https://evil.example)')] }).reply();
    expect(status.content).toBe('[lia] New goal from alice: see \\[here](https://evil.example).');
    expect(Number(status.body.flags ?? 0) & SUPPRESS_EMBEDS).toBe(SUPPRESS_EMBEDS);
    await ml.core.idle();
    const all = postsSince(since);
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const p of all) expect(Number(p.body.flags ?? 0) & SUPPRESS_EMBEDS, p.content).toBe(SUPPRESS_EMBEDS);
  });
});
