/**
 * mindlink over Telegram, end to end: the real core (rights, router, commands,
 * goal loop), the real store in a temp DATA_DIR, the real outbox and courier,
 * the real grammy bot — against our fake Bot API. Only Minecraft and the
 * engine are stand-ins (a FakeGame and a scripted TestEngine), so chat is
 * tested without a world.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Chat, Message, User } from 'grammy/types';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { commandList, menuEntries } from '../../commands/index.ts';
import { FakeTelegram, groupChat, privateChat, user, type SentMessage } from '../fakes/telegram-api.ts';
import { startMindlink, type Running } from './telegram-helpers.ts';

const alice = user(1001, 'Alice');
const bob = user(1002, 'Bob');
const carol = user(1003, 'Carol');
const aliceDm = privateChat(alice);
const bobDm = privateChat(bob);
const carolDm = privateChat(carol);
const group = groupChat(4200, 'builders');

describe('mindlink over Telegram (real core, real grammy, fake Bot API)', () => {
  let tg: FakeTelegram;
  let dir: string;
  let ml: Running;

  /** `from` writes `text` in `chat`; resolves with mindlink's reply, threaded to that message. */
  async function say(chat: Chat, from: User, text: string, replyTo?: Message): Promise<SentMessage> {
    const m = tg.sendText({ chat, from, text, ...(replyTo ? { replyTo } : {}) });
    return tg.waitForMessage((s) => s.chat_id === chat.id && s.reply_to === m.message_id);
  }

  beforeAll(async () => {
    tg = await FakeTelegram.start();
    dir = await mkdtemp(join(tmpdir(), 'mindlink-tg-'));
    ml = await startMindlink(tg, dir);
  });

  afterAll(async () => {
    await ml.core.stop(); // stops the courier and the bridge (bot.stop, then the polling promise)
    await tg.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a fresh start THEN the command menu comes from commands/ and a pairing code waits', () => {
    expect(tg.commands?.map((c) => c.command)).toEqual(menuEntries(commandList('telegram')).map((c) => c.name));
    // The commands of a group are one entry, under the group's name.
    expect(tg.commands?.filter((c) => c.command.startsWith('avatar'))).toEqual([
      { command: 'avatars', description: 'List the avatars you can see' },
      { command: 'avatar', description: 'Create, remove, rename or move an avatar' },
    ]);
    expect(ml.core.pairing.code).toMatch(/^[0-9a-f]{10}$/);
  });

  it('GIVEN a stranger THEN every message gets one refusal line that names no avatar', async () => {
    const replies = [
      await say(carolDm, carol, 'hello'),
      await say(carolDm, carol, 'Goal: demo: give me diamonds'),
      await say(carolDm, carol, '/status demo'),
      await say(carolDm, carol, '/avatars'),
    ];
    for (const r of replies) {
      expect(r.plain).toMatch(/^I don't know you yet\./);
      expect(r.plain).not.toMatch(/demo/i);
      expect(r.plain.split('\n')).toHaveLength(1);
    }
    const wrong = await say(carolDm, carol, '/pair 0000000000');
    expect(wrong.plain).toBe('That pairing code is not valid.');
    expect(ml.core.pairing.code).not.toBeNull();
  });

  it('GIVEN the code from the log WHEN Alice sends /pair THEN she becomes the admin and the code is spent', async () => {
    const code = ml.core.pairing.code ?? '';
    const r = await say(aliceDm, alice, `/pair@mindlink_test_bot ${code}`);
    expect(r.plain).toMatch(/^Paired: Alice is now an admin/);
    expect(ml.core.pairing.code).toBeNull();
    expect((await say(carolDm, carol, `/pair ${code}`)).plain).toBe('That pairing code is not valid.');
  });

  it('GIVEN the admin THEN she creates an avatar, links it to her chat and starts it', async () => {
    expect((await say(aliceDm, alice, '/avatar create steve')).plain).toMatch(/^\[steve\] Created steve on embedded .* linked to this chat/);
    expect((await say(aliceDm, alice, '/link steve')).plain).toBe('[steve] Linked to this chat (control).');
    expect((await say(aliceDm, alice, '/play')).plain).toBe('[steve] Playing. Choosing my first goal.');
    expect(ml.core.store.state.data.links).toContainEqual(expect.objectContaining({ avatar: 'steve', dest: 'telegram:1001', mode: 'control' }));
  });

  it('GIVEN the owner THEN a goal, a question, a direction, /status and /stop each get their reply', async () => {
    expect((await say(aliceDm, alice, 'Goal: build a <b>house</b> & @everyone')).plain).toBe(
      '[steve] New goal from Alice: build a <b>house</b> & @everyone.',
    );
    expect(ml.core.avatars.get('steve')?.goal).toMatchObject({ text: 'build a <b>house</b> & @everyone', setBy: 'owner' });
    expect((await say(aliceDm, alice, 'where are you?')).plain).toBe("[steve] I'm at 0 64 0, next to a birch.");
    expect((await say(aliceDm, alice, 'stay near the river')).plain).toBe('[steve] Noted as direction #1.');
    const status = await say(aliceDm, alice, '/status');
    expect(status.plain).toMatch(/^\[steve\] working · goal: build a house & @everyone \(set by Alice\)/);
    expect(status.plain).toMatch(/position 0 64 0/);
    expect(status.mentions).toEqual([]);
    expect((await say(aliceDm, alice, '/stop')).plain).toBe('[steve] Stopped. My goal is kept: /play resumes it.');
    expect(ml.core.avatars.get('steve')).toMatchObject({ playing: false, state: 'stopped' });
    expect((await say(aliceDm, alice, '/play steve')).plain).toMatch(/^\[steve\] Playing. Resuming my goal: build a/);
  });

  it('GIVEN a sticker and an edit in a DM THEN each gets one line saying what mindlink reads, and nothing is stored', async () => {
    const before = JSON.stringify(ml.core.store.state.data);
    const sticker = tg.pushUpdate({ message: { message_id: 777001, date: 0, chat: aliceDm, from: alice, sticker: { file_id: 's' } } } as never);
    const r1 = await tg.waitForMessage((s) => s.chat_id === alice.id && s.reply_to === sticker.message?.message_id);
    expect(r1.plain).toBe("I read new text messages only, so I can't take a sticker. Write your goal, question or direction as text; /help lists the commands.");
    const edited = tg.sendText({ chat: aliceDm, from: alice, text: 'Goal: something else', edited: true });
    const r2 = await tg.waitForMessage((s) => s.chat_id === alice.id && s.reply_to === edited.message_id);
    expect(r2.plain).toMatch(/^I read new text messages only, so I can't take an edit\./);
    expect(JSON.stringify(ml.core.store.state.data)).toBe(before);
  });

  it('GIVEN a 2500-character message THEN it is refused and nothing is stored', async () => {
    const before = JSON.stringify(ml.core.store.state.data);
    const r = await say(aliceDm, alice, `Goal: ${'dig '.repeat(700)}`.slice(0, 2500));
    expect(r.plain).toMatch(/2500 characters; the limit is 2000\. Nothing was stored/);
    expect(JSON.stringify(ml.core.store.state.data)).toBe(before);
    const r2 = await say(aliceDm, alice, 'x'.repeat(2500));
    expect(r2.plain).toMatch(/limit is 2000/);
    expect(JSON.stringify(ml.core.store.state.data)).toBe(before);
  });

  it('GIVEN a group with two avatars THEN messages are addressed by name or by replying, and an unaddressed one lists the names', async () => {
    expect((await say(group, alice, '/avatar@mindlink_test_bot create alex')).plain).toMatch(/^\[alex\] Created alex/);
    expect((await say(group, alice, '/link steve')).plain).toBe('[steve] Linked to this chat (control).');
    expect((await say(group, alice, '/play alex')).plain).toBe('[alex] Playing. Choosing my first goal.');

    const unaddressed = await say(group, alice, 'Goal: dance');
    expect(unaddressed.plain).toMatch(/Several avatars here: (steve, alex|alex, steve)/);

    const answer = await say(group, alice, 'alex: where are you?');
    expect(answer.plain).toBe("[alex] I'm at 0 64 0, next to a birch.");
    // A reply to alex's post is for alex, with no name.
    const viaReply = await say(group, alice, 'stay out of caves', answer.message);
    expect(viaReply.plain).toBe('[alex] Noted as direction #1.');
    expect(ml.core.avatars.get('steve')?.directions.open.map((d) => d.text)).toEqual(['stay near the river']);
  });

  it('GIVEN Bob owns steve and sets a goal in the group THEN the done ping mentions exactly Bob, and only in the group', async () => {
    expect((await say(group, alice, '/owner steve telegram:1002')).plain).toMatch(/^\[steve\] Owner is now/);
    // Bob does not own alex: watching is all he may do with it.
    expect((await say(group, bob, 'alex: Goal: dig a hole')).plain).toMatch(/You can't control alex: ask its owner\.$/);

    const since = tg.sent.length;
    const ack = await say(group, bob, 'steve: Goal: get 30 logs');
    expect(ack.plain).toBe('[steve] New goal from Bob: get 30 logs.');
    const done = await tg.waitForMessage((m) => m.chat_id === group.id && m.plain.includes('Done: get 30 logs'), { since });
    expect(done.mentions).toEqual([bob.id]);
    expect(done.plain).toBe('[steve] Bob Done: get 30 logs');
    // Alice's DM is linked to steve too: the news arrives there, pinging nobody.
    const dm = await tg.waitForMessage((m) => m.chat_id === alice.id && m.plain.includes('Done: get 30 logs'), { since });
    expect(dm.mentions).toEqual([]);
    await ml.core.idle();
    const everyMention = tg.sent.slice(since).flatMap((m) => m.mentions);
    expect(everyMention).toEqual([bob.id]);
  });

  it('GIVEN a 429 and then a dropped connection THEN each reply is still delivered exactly once', async () => {
    tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 1 });
    const first = await say(aliceDm, alice, '/direction steve');
    tg.failNext('sendMessage', { kind: 'drop' });
    const second = await say(aliceDm, alice, '/owner steve');
    await ml.core.idle();
    for (const r of [first, second]) {
      expect(tg.sent.filter((m) => m.chat_id === alice.id && m.reply_to === r.reply_to)).toHaveLength(1);
    }
    expect(first.plain).toMatch(/^\[steve\] #1 \(\d{4}-\d{2}-\d{2}\) stay near the river/);
    expect(second.plain).toMatch(/^\[steve\] Owner: /);
    expect(ml.core.outbox.pending('telegram')).toEqual([]);
  });

  it('GIVEN Bob blocks the bot THEN his chat is unlinked instead of retried forever', async () => {
    expect((await say(bobDm, bob, '/link steve')).plain).toBe('[steve] Linked to this chat (control).');
    tg.blockChat(bob.id);
    const since = tg.calls.length;
    // Another goal for steve: its news goes to the group, Alice's DM and Bob's (blocked) DM.
    await say(group, bob, 'steve: Goal: get 5 logs');
    await tg.waitForCall('sendMessage', (c) => c.params.chat_id === bob.id, { since });
    await ml.core.idle();
    expect(ml.core.store.state.data.links.filter((l) => l.dest === 'telegram:1002')).toEqual([]);
    expect(ml.core.outbox.pending('telegram')).toEqual([]);
  });
});

describe('mindlink over Telegram across a restart', () => {
  it('GIVEN posts still pending when mindlink stops THEN the next start delivers each exactly once, and old updates are not handled again', async () => {
    const tg = await FakeTelegram.start();
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-tg-'));
    const env = { ADMINS: 'telegram:1001' };
    let ml: Running | null = await startMindlink(tg, dir, env);
    try {
      const m1 = tg.sendText({ chat: aliceDm, from: alice, text: '/avatar create steve' });
      const created = await tg.waitForMessage((s) => s.reply_to === m1.message_id);
      expect(created.plain).toMatch(/^\[steve\] Created steve/);

      // Telegram now asks for a wait longer than mindlink's shutdown grace: the replies stay in the outbox.
      tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 3 });
      const posted = new Promise<void>((resolve) => {
        const check = (): void => {
          if (ml?.core.outbox.pending('telegram').length === 3) {
            ml.core.outbox.off('posted', check);
            resolve();
          }
        };
        ml?.core.outbox.on('posted', check);
      });
      const mark = tg.calls.length;
      const m2 = tg.sendText({ chat: aliceDm, from: alice, text: 'where are you, steve?' });
      const m3 = tg.sendText({ chat: aliceDm, from: alice, text: '/status steve' });
      // A Done: waits too: its buttons are kept with it in the outbox.
      await vi.waitFor(() => expect(ml?.core.outbox.pending('telegram')).toHaveLength(2), { timeout: 10_000 });
      ml?.core.poster.about('steve', 'done', 'Done: get 3 logs', null);
      await posted;
      await tg.waitForCall('sendMessage', (c) => c.params.chat_id === alice.id, { since: mark });
      const callsBefore = tg.calls.filter((c) => c.method === 'sendMessage').length;
      await ml.core.stop();
      ml = null;
      expect(tg.sent.filter((s) => s.reply_to === m2.message_id || s.reply_to === m3.message_id)).toEqual([]);

      ml = await startMindlink(tg, dir, env);
      const r2 = await tg.waitForMessage((s) => s.reply_to === m2.message_id);
      const r3 = await tg.waitForMessage((s) => s.reply_to === m3.message_id);
      await ml.core.idle();
      expect(r2.plain).toMatch(/^\[steve\] I'm stopped/);
      expect(r3.plain).toMatch(/^\[steve\] stopped/);
      // The card and the Done: came back from the outbox with their buttons.
      expect(r3.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Play', callback_data: 'play:steve' }, { text: 'Refresh', callback_data: 'refresh:steve' }, { text: 'Goal…', callback_data: 'goal:steve' }]] });
      const done = await tg.waitForMessage((s) => s.chat_id === alice.id && s.plain === '[steve] Done: get 3 logs');
      expect(done.reply_markup).toEqual({ inline_keyboard: [[{ text: 'New goal…', callback_data: 'newgoal:steve' }, { text: 'Status', callback_data: 'status:steve' }]] });
      for (const id of [m1.message_id, m2.message_id, m3.message_id]) {
        expect(tg.sent.filter((s) => s.chat_id === alice.id && s.reply_to === id)).toHaveLength(1);
      }
      expect(tg.calls.filter((c) => c.method === 'sendMessage').length).toBe(callsBefore + 3);
      expect(ml.core.outbox.pending('telegram')).toEqual([]);
    } finally {
      await ml?.core.stop();
      await tg.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('mindlink over Telegram, a long post across a restart', () => {
  it('GIVEN the first part of a two-part post accepted and the second refused WHEN mindlink restarts THEN only the second is sent, each part exactly once', async () => {
    const tg = await FakeTelegram.start();
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-tg-'));
    const env = { ADMINS: 'telegram:1001' };
    let ml: Running | null = await startMindlink(tg, dir, env);
    try {
      const m1 = tg.sendText({ chat: aliceDm, from: alice, text: '/avatar create steve' });
      await tg.waitForMessage((s) => s.reply_to === m1.message_id);
      await ml.core.idle();
      const line = `${'word '.repeat(19)}end`;
      const text = Array.from({ length: 60 }, (_, i) => `${i} ${line}`).join('\n'); // ~6000 chars: two messages
      // The first part goes through; the second is held off longer than the shutdown grace: it stays in the outbox.
      tg.failNext('sendMessage', { kind: 'none' });
      tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 3 });
      const mark = tg.calls.length;
      ml.core.poster.about('steve', 'info', text, null);
      await tg.waitForCall('sendMessage', (c) => c.params.chat_id === alice.id && String(c.params.text).includes(`59 ${line}`), { since: mark });
      // The refused part is counted as an attempt; the accepted one is in the outbox with the post.
      await vi.waitFor(() => expect(ml?.core.outbox.pending('telegram')[0]?.attempts).toBe(1), { timeout: 10_000 });
      expect(ml.core.outbox.pending('telegram')[0]?.sent?.parts).toHaveLength(1);
      await ml.core.stop();
      ml = null;

      ml = await startMindlink(tg, dir, env);
      await tg.waitForMessage((s) => s.chat_id === alice.id && s.plain.endsWith(`59 ${line}`));
      await ml.core.idle();
      const parts = tg.sent.filter((s) => s.chat_id === alice.id && s.plain.startsWith('[steve] ') && /^\[steve\] \d+ word/.test(s.plain));
      expect(parts).toHaveLength(2);
      expect(parts.map((s) => s.plain.replace(/^\[steve\] /, '')).join('\n')).toBe(text);
      expect(ml.core.outbox.pending('telegram')).toEqual([]);
    } finally {
      await ml?.core.stop();
      await tg.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('mindlink over Telegram when a group is upgraded to a supergroup', () => {
  let tg: FakeTelegram;
  let dir: string;
  let ml: Running;

  beforeAll(async () => {
    tg = await FakeTelegram.start();
    dir = await mkdtemp(join(tmpdir(), 'mindlink-tg-'));
    ml = await startMindlink(tg, dir, { ADMINS: 'telegram:1001' });
    const created = tg.sendText({ chat: aliceDm, from: alice, text: '/avatar create steve' });
    expect((await tg.waitForMessage((s) => s.reply_to === created.message_id)).plain).toMatch(/^\[steve\] Created steve/);
  });

  afterAll(async () => {
    await ml.core.stop();
    await tg.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Link steve to `chat` from inside it, and wait until the reply is there. */
  async function linkSteve(chat: Chat): Promise<void> {
    const m = tg.sendText({ chat, from: alice, text: '/link steve' });
    const r = await tg.waitForMessage((s) => s.chat_id === chat.id && s.reply_to === m.message_id);
    expect(r.plain).toBe('[steve] Linked to this chat (control).');
    await ml.core.idle();
  }

  const sendsTo = (chatId: number, since: number): number =>
    tg.calls.slice(since).filter((c) => c.method === 'sendMessage' && c.params.chat_id === chatId).length;
  const linksOf = (dest: string): string[] => ml.core.store.state.data.links.filter((l) => l.dest === dest).map((l) => `${l.avatar} ${l.mode}`);

  it('GIVEN a linked group that was upgraded WHEN steve posts THEN the refused post and the ones behind it arrive in the supergroup exactly once, and the link follows', async () => {
    const old = groupChat(5100, 'builders');
    await linkSteve(old);
    const supergroup = tg.migrateChat(old);
    const since = tg.calls.length;
    const sentBefore = tg.sent.length;
    const alicePerson = ml.core.store.state.data.persons.find((p) => p.identities.includes('telegram:1001'))?.id ?? null;
    // Three posts in one go: the first is refused by the old group while the other two wait behind it.
    ml.core.poster.about('steve', 'info', 'first news', null);
    ml.core.poster.about('steve', 'done', 'Done: get 3 logs', alicePerson ? { person: alicePerson, setIn: `telegram:${old.id}` } : null);
    ml.core.poster.about('steve', 'info', 'last news', null);
    await tg.waitForMessage((m) => m.chat_id === supergroup.id && m.plain.includes('last news'), { since: sentBefore });
    await ml.core.idle();

    expect(sendsTo(old.id, since)).toBe(1);
    const arrived = tg.sent.slice(sentBefore).filter((m) => m.chat_id === supergroup.id);
    expect(arrived.map((m) => m.plain)).toEqual(['[steve] first news', '[steve] Alice Done: get 3 logs', '[steve] last news']);
    expect(arrived[1]?.mentions).toEqual([alice.id]);
    // Alice's DM got each post once too (nothing dropped or doubled), none pinging her there; the Done keeps its buttons, so it is not merged.
    const inDm = tg.sent.slice(sentBefore).filter((m) => m.chat_id === alice.id);
    expect(inDm.map((m) => m.plain)).toEqual(['[steve] first news', '[steve] Done: get 3 logs', '[steve] last news']);
    expect(inDm[1]?.reply_markup).toEqual({ inline_keyboard: [[{ text: 'New goal…', callback_data: 'newgoal:steve' }, { text: 'Status', callback_data: 'status:steve' }]] });
    expect(linksOf(`telegram:${old.id}`)).toEqual([]);
    expect(linksOf(`telegram:${supergroup.id}`)).toEqual(['steve control']);
    expect(ml.core.outbox.pending('telegram')).toEqual([]);

    // The supergroup is steve's chat now: a question there gets its answer there.
    const q = tg.sendText({ chat: supergroup, from: alice, text: 'steve: where are you?' });
    const answer = await tg.waitForMessage((m) => m.chat_id === supergroup.id && m.reply_to === q.message_id);
    expect(answer.plain).toMatch(/^\[steve\] I'm stopped/);
  });

  it('GIVEN the upgrade service messages THEN the link moves before anything is sent, is not doubled, and no post ever goes to the old id', async () => {
    const old = groupChat(5200, 'miners');
    await linkSteve(old);
    const supergroup = tg.migrateChat(old);
    // steve was already linked in the supergroup (someone linked it there before the notice came): that link stays the only one.
    ml.core.links.link('steve', `telegram:${supergroup.id}`, 'watch');
    const since = tg.calls.length;
    const sentBefore = tg.sent.length;
    const [, last] = tg.announceMigration({ from: old, to: supergroup, by: alice });
    await tg.waitForConfirmed(last.update_id);
    expect(linksOf(`telegram:${old.id}`)).toEqual([]);
    expect(linksOf(`telegram:${supergroup.id}`)).toEqual(['steve watch']);

    ml.core.poster.about('steve', 'info', 'after the upgrade', null);
    await tg.waitForMessage((m) => m.chat_id === supergroup.id && m.plain === '[steve] after the upgrade', { since: sentBefore });
    await ml.core.idle();
    expect(sendsTo(old.id, since)).toBe(0);
    expect(tg.sent.slice(sentBefore).filter((m) => m.chat_id === supergroup.id).map((m) => m.plain)).toEqual(['[steve] after the upgrade']);
    expect(ml.core.outbox.pending('telegram')).toEqual([]);
  });
});
