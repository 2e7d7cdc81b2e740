/**
 * Discord delivery end to end (real core, real discord.js, fake Discord):
 * rate limits, a dropped gateway, a restart, chats that are gone, a refused
 * MessageContent intent, and the thought stream's thread.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeDiscord, Intent, option, type FakeChannel, type FakeGuild, type FakeUser, type SentMessage } from '../fakes/discord-api.ts';
import { DiscordBridge, type DiscordBridgeOptions } from '../../bridges/discord/discord-bridge.ts';
import { commandList } from '../../commands/index.ts';
import type { BridgeHost } from '../../src/chat.ts';
import { silentLogger } from '../../src/logger.ts';
import { cardText, startMindlink, TOKEN, type Running } from './discord-helpers.ts';

describe('Discord delivery', () => {
  let fake: FakeDiscord;
  let dir: string;
  let ml: Running | null;
  let alice: FakeUser;
  let home: FakeGuild;
  let general: FakeChannel;

  const answersTo = (m: { id: string }): SentMessage[] => fake.posts.filter((p) => p.body.message_reference?.message_id === m.id);
  const answerTo = (m: { id: string }): Promise<SentMessage> => fake.waitForPost((p) => p.body.message_reference?.message_id === m.id, `the answer to ${m.id}`);

  async function start(privileged?: { messageContent: boolean }, bridgeOptions: Partial<DiscordBridgeOptions> = {}): Promise<Running> {
    fake = await FakeDiscord.start({ token: TOKEN, ...(privileged ? { privileged } : {}) });
    alice = fake.addUser('alice');
    home = fake.addGuild('Home', { owner: alice });
    general = fake.addChannel(home, 'general');
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-'));
    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` }, bridgeOptions);
    const created = await fake.slash({ user: alice, channel: general, name: 'avatar', options: [option.subcommand('create', [option.string('name', 'steve')])] }).reply();
    expect(created.content).toMatch(/^\[steve\] Created steve/);
    return ml;
  }

  beforeEach(() => {
    ml = null;
  });

  afterEach(async () => {
    await ml?.core.stop();
    await fake?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a 429 (short and long Retry-After), a 500 and a dropped gateway THEN every answer arrives exactly once', async () => {
    const running = await start();
    const path = `/channels/${general.id}/messages`;
    fake.failNext({ method: 'POST', path, status: 429, retryAfter: 0.3 });
    const m1 = fake.sendMessage({ channel: general, author: alice, content: 'where are you?' });
    expect((await answerTo(m1)).content).toBe("[steve] I'm stopped, so I can't look around. /play steve starts me.");

    // Longer than the bridge waits itself (2 s here): back to the outbox, which waits it out.
    fake.failNext({ method: 'POST', path, status: 429, retryAfter: 2.5 });
    const m2 = fake.sendMessage({ channel: general, author: alice, content: 'stay near the river' });
    expect((await answerTo(m2)).content).toBe('[steve] Noted as direction #1.');

    fake.failNext({ method: 'POST', path, status: 500 });
    const m3 = fake.sendMessage({ channel: general, author: alice, content: 'keep the torches lit' });
    expect((await answerTo(m3)).content).toBe('[steve] Noted as direction #2.');

    const resumesBefore = fake.resumes.length;
    expect(fake.dropGateway()).toBe(1);
    // Written while the bot is away: the fake replays it on RESUME.
    const m4 = fake.sendMessage({ channel: general, author: alice, content: 'Goal: build a wall' });
    expect((await answerTo(m4)).content).toBe('[steve] New goal from alice: build a wall. I\'m stopped: /play steve starts me.');
    expect(fake.resumes.length).toBeGreaterThan(resumesBefore);

    await running.core.idle();
    for (const m of [m1, m2, m3, m4]) expect(answersTo(m)).toHaveLength(1);
    expect(running.core.outbox.pending('discord')).toEqual([]);
    expect(fake.faults).toEqual([]);
  });

  it('GIVEN Discord took a post but its answer was lost (a 500, a reset connection) THEN the retry, with the same nonce, makes no second message', async () => {
    const running = await start();
    const path = `/channels/${general.id}/messages`;
    fake.failNext({ method: 'POST', path, status: 500, accepted: true });
    const m1 = fake.sendMessage({ channel: general, author: alice, content: 'stay near the river' });
    expect((await answerTo(m1)).content).toBe('[steve] Noted as direction #1.');
    fake.failNext({ method: 'POST', path, drop: true, accepted: true });
    const m2 = fake.sendMessage({ channel: general, author: alice, content: 'keep the torches lit' });
    expect((await answerTo(m2)).content).toBe('[steve] Noted as direction #2.');
    await running.core.idle();
    expect(answersTo(m1)).toHaveLength(1);
    expect(answersTo(m2)).toHaveLength(1);
    // Each answer was sent more than once, and Discord kept one message per nonce.
    const sends = fake.requests.filter((r) => r.method === 'POST' && r.path === path);
    expect(sends.length).toBeGreaterThanOrEqual(4);
    expect(new Set(sends.map((r) => (r.body as { nonce?: string }).nonce)).size).toBe(2);
  });

  it('GIVEN a long post whose second part is refused once THEN the retry sends only that part: each part arrives once, in order', async () => {
    const running = await start();
    const lines = Array.from({ length: 60 }, (_, i) => `line ${String(i).padStart(2, '0')} ${'·'.repeat(40)}`);
    fake.failNext({ method: 'POST', path: `/channels/${general.id}/messages`, status: 429, retryAfter: 2.5, when: (b) => JSON.stringify(b).includes('line 59') });
    running.core.poster.about('steve', 'info', lines.join('\n'), null);
    await fake.waitForPost((p) => p.channelId === general.id && p.content.includes('line 59'));
    await running.core.idle();
    const parts = fake.posts.filter((p) => p.channelId === general.id && p.content.includes('line '));
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => p.content.startsWith('[steve] ') && p.content.length <= 2000)).toBe(true);
    expect(parts.map((p) => p.content.replace('[steve] ', '')).join('\n')).toBe(lines.join('\n'));
    expect(fake.requests.filter((r) => r.status === 429)).toHaveLength(1);
  });

  it('GIVEN posts still pending when mindlink stops THEN the next start delivers each exactly once and re-sends nothing accepted', async () => {
    await start();
    const m1 = fake.sendMessage({ channel: general, author: alice, content: 'stay near the river' });
    await answerTo(m1);
    // Discord now asks for a wait longer than mindlink's shutdown grace: the answers stay in the outbox.
    fake.failNext({ method: 'POST', path: `/channels/${general.id}/messages`, status: 429, retryAfter: 4 });
    const outbox = ml?.core.outbox;
    const posted = new Promise<void>((resolve) => {
      const check = (): void => {
        if (outbox?.pending('discord').length !== 2) return;
        outbox.off('posted', check);
        resolve();
      };
      outbox?.on('posted', check);
    });
    const m2 = fake.sendMessage({ channel: general, author: alice, content: 'where are you?' });
    const m3 = fake.sendMessage({ channel: general, author: alice, content: 'keep the torches lit' });
    await posted;
    await fake.waitForRequest((r) => r.status === 429);
    await ml?.core.stop();
    ml = null;
    expect([...answersTo(m2), ...answersTo(m3)]).toEqual([]);
    const postsBefore = fake.posts.length;

    ml = await startMindlink(fake, dir, { ADMINS: `discord:${alice.id}` });
    await answerTo(m2);
    await answerTo(m3);
    await ml.core.idle();
    for (const m of [m1, m2, m3]) expect(answersTo(m)).toHaveLength(1);
    expect(fake.posts.slice(postsBefore).map((p) => p.content)).toEqual([
      "[steve] I'm stopped, so I can't look around. /play steve starts me.",
      '[steve] Noted as direction #2.',
    ]);
    expect(ml.core.outbox.pending('discord')).toEqual([]);
  });

  it('GIVEN a linked channel that forbids the bot and a thread that was deleted THEN both are unlinked and nothing waits for them', async () => {
    const running = await start();
    const closed = fake.addChannel(home, 'closed');
    const thread = fake.addThread(general, 'old');
    for (const channel of [closed, thread]) {
      expect((await fake.slash({ user: alice, channel, name: 'link', options: [option.string('avatar', 'steve')] }).reply()).content).toBe('[steve] Linked to this chat (control).');
    }
    fake.forbidChannel(closed);
    fake.deleteChannel(thread);
    running.core.poster.about('steve', 'info', 'news for everyone', null);
    await fake.waitForPost((p) => p.channelId === general.id && p.content === '[steve] news for everyone');
    // The courier settles each refusal (drop, unlink) before it counts as idle.
    await running.core.idle();
    expect(running.core.store.state.data.links.filter((l) => l.dest.startsWith('discord:')).map((l) => l.dest)).toEqual([`discord:${general.id}`]);
    expect(running.core.outbox.pending('discord')).toEqual([]);
  });

  it('GIVEN Discord refuses MessageContent (4014) THEN mindlink connects without it and slash commands, DMs and mentions still work', async () => {
    const running = await start({ messageContent: false });
    expect(running.bridge.hasMessageContent).toBe(false);
    expect(fake.gatewayCloses.map((c) => c.code)).toContain(4014);
    const last = fake.identifies[fake.identifies.length - 1];
    expect((last?.intents ?? Intent.MessageContent) & Intent.MessageContent).toBe(0);

    expect(await fake.slash({ user: alice, channel: general, name: 'play' }).reply()).toMatchObject({ content: '[steve] Playing. Choosing my first goal.' });
    const mention = fake.sendMessage({ channel: general, author: alice, content: `<@${fake.bot.id}> where are you?` });
    expect((await answerTo(mention)).content).toBe("[steve] I'm at 0 64 0, next to a birch.");
    const dm = fake.dmChannel(alice);
    await fake.slash({ user: alice, channel: dm, name: 'link', options: [option.string('avatar', 'steve')] }).reply();
    const inDm = fake.sendMessage({ channel: dm, author: alice, content: 'stay near the river' });
    expect((await answerTo(inDm)).content).toBe('[steve] Noted as direction #1.');
  });

  it('GIVEN Discord withdraws MessageContent while connected (4014) THEN mindlink reconnects without it and slash commands go on', async () => {
    const running = await start();
    expect(running.bridge.hasMessageContent).toBe(true);
    const identified = fake.identifies.length;
    fake.setPrivileged({ messageContent: false });
    expect(fake.closeGateway(4014)).toBe(1);
    const again = await fake.waitFor(() => (fake.identifies.length > identified && fake.liveSessions === 1 ? fake.identifies[fake.identifies.length - 1] : undefined), 'a new session');
    expect((again?.intents ?? Intent.MessageContent) & Intent.MessageContent).toBe(0);
    expect(running.bridge.hasMessageContent).toBe(false);
    const status = await fake.slash({ user: alice, channel: general, name: 'status' }).reply();
    expect(status.ephemeral).toBe(true);
    expect(cardText(status.body)).toMatch(/^steve\nstopped/);
  });

  it('GIVEN a token Discord refuses THEN the bridge fails to start with one clear error that does not carry the token', async () => {
    fake = await FakeDiscord.start({ token: TOKEN });
    dir = await mkdtemp(join(tmpdir(), 'mindlink-dc-'));
    const wrong = 'not-the-right-token-for-this-bot';
    const bridge = new DiscordBridge({ token: wrong, apiUrl: fake.apiUrl, log: silentLogger(), commands: commandList('discord') });
    const host: BridgeHost = {
      handleMessage: async () => {},
      runCommand: async () => {},
      notRead: async () => {},
      answerCommand: async () => ({ avatar: null, text: '', refused: false, announce: false }),
      press: async () => ({ kind: 'refused', avatar: null, text: '' }),
      avatarNames: () => [],
      isLinked: () => false,
    };
    const failed = await bridge.start(host).then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect(failed?.message).toMatch(/^Discord: cannot log in/);
    expect(failed?.message).not.toContain(wrong);
    expect(fake.liveSessions).toBe(0);
    await bridge.stop();
  });

  it('GIVEN /verbose on in a linked channel THEN a thread opens with one line per turn, and /verbose off ends it', async () => {
    const running = await start();
    await fake.slash({ user: alice, channel: general, name: 'play' }).reply();
    const on = await fake.slash({ user: alice, channel: general, name: 'verbose', options: [option.string('mode', 'on')] }).reply();
    const threadId = /<#(\d+)>/.exec(on.content)?.[1] ?? '';
    expect(on).toMatchObject({ ephemeral: false, content: `[steve] Thinking aloud in <#${threadId}>: one line per turn, at most one message every 10 s.` });
    expect(fake.channel(threadId).parentId).toBe(general.id);
    const line = await fake.waitForPost((p) => p.channelId === threadId);
    expect(line.content).toMatch(/^\[steve\] (choose|continue|resume) · no skill run · working — Working on it\.$/m);
    expect(line.pings).toEqual({ users: [], roles: [], everyone: false });
    const off = await fake.slash({ user: alice, channel: general, name: 'verbose', options: [option.string('mode', 'off')] }).reply();
    expect(off.content).toBe('[steve] No more thoughts in the thread.');
    expect(running.core.store.state.data.streams).toEqual([]);
  });

  it('GIVEN commands slower than the deferral threshold THEN each is deferred and edited, and a late refusal goes only to its sender', async () => {
    await start(undefined, { deferAfterMs: 0 });
    const play = fake.slash({ user: alice, channel: general, name: 'play' });
    expect(await play.callback()).toMatchObject({ type: 5, ephemeral: false });
    expect(await play.reply()).toMatchObject({ content: '[steve] Playing. Choosing my first goal.', deferred: true, ephemeral: false });

    const status = fake.slash({ user: alice, channel: general, name: 'status' });
    expect(await status.callback()).toMatchObject({ type: 5, ephemeral: true });
    expect(cardText((await status.reply()).body)).toMatch(/^steve\n(choosing|working)/);

    // /goal announces, so it is deferred in public; its refusal then replaces the public "thinking" with a private line.
    const mallory = fake.addUser('mallory');
    fake.addMember(home, mallory);
    const refused = fake.slash({ user: mallory, channel: general, name: 'goal', options: [option.string('text', 'dig')] });
    expect(await refused.callback()).toMatchObject({ type: 5, ephemeral: false });
    const thinking = refused.state.original?.id;
    expect(thinking).toBeDefined();
    const followUp = await refused.followUp();
    expect(followUp).toMatchObject({ ephemeral: true, content: "[steve] You can't control steve: ask its owner." });
    await fake.waitFor(() => (fake.deleted.some((d) => d.messageId === thinking) ? true : undefined), 'the public reply removed');
  });
});
