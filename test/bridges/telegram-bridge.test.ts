/**
 * The Telegram bridge with the real grammy bot against our fake Bot API.
 * The host is a small recorder: the boundary between the bridge and the core.
 */
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionPress, BridgeHost, CommandAnswer, ChatContext, CommandInvocation, InboundMessage, PressOutcome, SentParts } from '../../src/chat.ts';
import { TelegramBridge } from '../../bridges/telegram/telegram-bridge.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Post } from '../../src/store/schema.ts';
import { FakeTelegram, groupChat, privateChat, supergroupChat, user } from '../fakes/telegram-api.ts';

type Event =
  | { type: 'message'; msg: InboundMessage }
  | { type: 'command'; inv: CommandInvocation }
  | { type: 'notRead'; chat: ChatContext; what: string }
  | { type: 'moved'; from: string; to: string }
  | { type: 'press'; press: ActionPress };

/** Records what the bridge hands the core; optionally throws once to test the handler boundary. */
class RecordingHost implements BridgeHost {
  readonly events: Event[] = [];
  failNext = false;
  private readonly emitter = new EventEmitter();

  async handleMessage(msg: InboundMessage): Promise<void> {
    this.record({ type: 'message', msg });
  }

  async runCommand(inv: CommandInvocation): Promise<void> {
    this.record({ type: 'command', inv });
  }

  async notRead(chat: ChatContext, what: string): Promise<void> {
    this.record({ type: 'notRead', chat, what });
  }

  chatMoved(from: string, to: string): void {
    this.record({ type: 'moved', from, to });
  }

  // Telegram answers commands through runCommand; these are for platforms that answer in place.
  async answerCommand(inv: CommandInvocation): Promise<CommandAnswer> {
    this.record({ type: 'command', inv });
    return { avatar: null, text: '', refused: false, announce: false };
  }

  async press(press: ActionPress): Promise<PressOutcome> {
    this.record({ type: 'press', press });
    return { kind: 'refused', avatar: null, text: 'no' };
  }

  avatarNames(): string[] {
    return [];
  }

  isLinked(): boolean {
    return false;
  }

  private record(e: Event): void {
    this.events.push(e);
    this.emitter.emit('event');
    if (this.failNext) {
      this.failNext = false;
      throw new Error('host exploded');
    }
  }

  /** The first recorded event (from `since`) that matches, waiting up to 10 s. */
  waitFor(pred: (e: Event) => boolean, since = 0): Promise<Event> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const hit = this.events.slice(since).find(pred);
        if (!hit) return false;
        clearTimeout(timer);
        this.emitter.off('event', check);
        resolve(hit);
        return true;
      };
      const timer = setTimeout(() => {
        this.emitter.off('event', check);
        reject(new Error(`no matching event; got ${JSON.stringify(this.events)}`));
      }, 10_000);
      this.emitter.on('event', check);
      check();
    });
  }
}

function textOf(e: Event): string {
  if (e.type === 'message') return e.msg.text;
  if (e.type === 'command') return `/${e.inv.name} ${e.inv.argsText ?? ''}`;
  if (e.type === 'notRead') return `not read: ${e.what}`;
  if (e.type === 'press') return `pressed ${e.press.action}`;
  return `moved ${e.from} → ${e.to}`;
}

let seq = 0;
function post(fields: Partial<Post> & Pick<Post, 'dest' | 'text'>): Post {
  seq += 1;
  return {
    id: `p${seq}`,
    avatar: null,
    ping: null,
    replyTo: null,
    kind: 'reply',
    createdAt: new Date().toISOString(),
    attempts: 0,
    notBefore: 0,
    ...fields,
  };
}

const COMMANDS = [
  { name: 'goal', description: 'Set the goal of an avatar' },
  { name: 'status', description: 'Show an avatar' },
];

describe('TelegramBridge against the fake Bot API', () => {
  let tg: FakeTelegram;
  let bridge: TelegramBridge;
  const host = new RecordingHost();
  const alice = user(1001, 'Alice', { last_name: 'Liddell' });
  const bob = user(1002, 'Bob');

  beforeAll(async () => {
    tg = await FakeTelegram.start();
    bridge = new TelegramBridge({ token: tg.token, apiRoot: tg.apiRoot, log: silentLogger(), commands: COMMANDS, maxRetryAfterSeconds: 2 });
    await bridge.start(host);
  });

  afterAll(async () => {
    await bridge.stop();
    await tg.close();
  });

  it('GIVEN the bridge started THEN the command menu is the given list', () => {
    expect(tg.commands).toEqual([
      { command: 'goal', description: 'Set the goal of an avatar' },
      { command: 'status', description: 'Show an avatar' },
    ]);
  });

  it('GIVEN a private text THEN handleMessage gets the sender, the chat and the message id', async () => {
    const sent = tg.sendText({ chat: privateChat(alice), from: alice, text: 'where are you?' });
    const e = await host.waitFor((x) => x.type === 'message' && x.msg.text === 'where are you?');
    expect(e).toEqual({
      type: 'message',
      msg: {
        platform: 'telegram',
        from: 'telegram:1001',
        fromName: 'Alice Liddell',
        dest: 'telegram:1001',
        chatKind: 'private',
        messageId: String(sent.message_id),
        // When Telegram says it was written (its `date`, in seconds).
        sentAt: sent.date * 1000,
        // The bot's id and the update's: the same when Telegram sends the update again.
        updateKey: expect.stringMatching(new RegExp(`^telegram:${tg.bot.id}:\\d+$`)),
        text: 'where are you?',
      },
    });
  });

  it('GIVEN /goal@thisbot in a group THEN runCommand gets the name and the argument text', async () => {
    const chat = groupChat(501, 'builders');
    tg.sendText({ chat, from: bob, text: '/goal@mindlink_test_bot get 30 logs' });
    const e = await host.waitFor((x) => x.type === 'command' && x.inv.dest === 'telegram:-501');
    expect(e.type === 'command' && e.inv).toMatchObject({
      platform: 'telegram',
      name: 'goal',
      argsText: 'get 30 logs',
      from: 'telegram:1002',
      fromName: 'Bob',
      chatKind: 'group',
    });
  });

  it('GIVEN a command for another bot, an edit, another bot and a channel-style sender THEN none reach the core', async () => {
    const chat = supergroupChat(777, 'mixed');
    const since = host.events.length;
    tg.sendText({ chat, from: bob, text: '/goal@otherbot get 30 logs' });
    tg.sendText({ chat, from: bob, text: 'steve: mine 5 stone', edited: true });
    tg.sendText({ chat, from: user(9, 'Helper', { is_bot: true }), text: 'steve: Goal: dance' });
    tg.sendText({ chat, from: bob, text: 'sentinel' });
    const e = await host.waitFor((x) => x.type === 'message' && x.msg.text === 'sentinel', since);
    expect(host.events.slice(since)).toEqual([e]);
    expect(e.type === 'message' && e.msg.dest).toBe('telegram:-100777');
  });

  it('GIVEN a sticker and an edit in a DM, and in a group a photo replying to our post and one that does not THEN the core hears of each meant for the bot', async () => {
    const dm = privateChat(bob);
    const group = supergroupChat(778, 'pics');
    const since = host.events.length;
    const ours = await bridge.deliver(post({ dest: 'telegram:-100778', avatar: 'steve', text: 'look at this' }), ['look at this']);
    const ourMessage = tg.sent.find((m) => ours.ok && String(m.message.message_id) === ours.messageIds[0])?.message;
    tg.pushUpdate({ message: { message_id: 9001, date: 0, chat: dm, from: bob, sticker: { file_id: 's1' } } } as never);
    tg.sendText({ chat: dm, from: bob, text: 'Goal: get 3 logs', edited: true });
    tg.pushUpdate({ message: { message_id: 9002, date: 0, chat: group, from: bob, photo: [], reply_to_message: ourMessage } } as never);
    tg.pushUpdate({ message: { message_id: 9003, date: 0, chat: group, from: bob, photo: [] } } as never);
    tg.sendText({ chat: group, from: bob, text: 'sentinel' });
    tg.sendText({ chat: dm, from: bob, text: 'dm sentinel' });
    await host.waitFor((x) => x.type === 'message' && x.msg.text === 'sentinel', since);
    await host.waitFor((x) => x.type === 'message' && x.msg.text === 'dm sentinel', since);
    // Each chat's updates are handled in order; the two chats are independent.
    const inChat = (dest: string): string[] =>
      host.events.slice(since).filter((e) => (e.type === 'message' ? e.msg.dest : e.type === 'notRead' ? e.chat.dest : '') === dest).map(textOf);
    expect(inChat(`telegram:${bob.id}`)).toEqual(['not read: a sticker', 'not read: an edit', 'dm sentinel']);
    expect(inChat('telegram:-100778')).toEqual(['not read: a photo', 'sentinel']);
    const photo = host.events.slice(since).find((e) => e.type === 'notRead' && e.what === 'a photo');
    expect(photo?.type === 'notRead' && photo.chat).toMatchObject({ dest: 'telegram:-100778', from: `telegram:${bob.id}`, messageId: '9002' });
  });

  it('GIVEN /start, a plain /status and a leading @mention THEN the core sees help, status and the bare text', async () => {
    const chat = groupChat(502, 'g2');
    const since = host.events.length;
    tg.sendText({ chat, from: bob, text: '/start' });
    tg.sendText({ chat, from: bob, text: '/status steve' });
    tg.sendText({ chat, from: bob, text: '@mindlink_test_bot steve: Goal: mine 5 stone' });
    await host.waitFor((x) => x.type === 'message' && x.msg.dest === 'telegram:-502', since);
    expect(host.events.slice(since).map(textOf)).toEqual(['/help ', '/status steve', 'steve: Goal: mine 5 stone']);
  });

  it('GIVEN a reply to an avatar post THEN replyToAvatar names it, also for a post the bridge does not remember', async () => {
    const chat = groupChat(503, 'g3');
    const outcome = await bridge.deliver(post({ dest: 'telegram:-503', avatar: 'steve', text: 'New goal (my choice): chop wood' }), [
      'New goal (my choice): chop wood',
    ]);
    expect(outcome.ok).toBe(true);
    const ours = await tg.waitForMessage((m) => m.chat_id === -503);
    const since = host.events.length;
    tg.sendText({ chat, from: bob, text: 'why wood?', replyTo: ours.message });
    // A post from before a restart: only its "[name] " prefix tells.
    const old = { ...ours.message, message_id: 999_999, text: '[alex] Done: mine 5 stone' };
    tg.sendText({ chat, from: bob, text: 'nice', replyTo: old });
    // A reply to a person, not to the bot: no avatar.
    const human = tg.sendText({ chat, from: alice, text: '[steve] pretending' });
    tg.sendText({ chat, from: bob, text: 'lol', replyTo: human });
    const last = await host.waitFor((x) => x.type === 'message' && x.msg.text === 'lol', since);
    const msgs = host.events.slice(since).flatMap((x) => (x.type === 'message' ? [x.msg] : []));
    expect(msgs.map((m) => [m.text, m.replyToAvatar])).toEqual([
      ['why wood?', 'steve'],
      ['nice', 'alex'],
      ['[steve] pretending', undefined],
      ['lol', undefined],
    ]);
    expect(last.type === 'message' && 'replyToAvatar' in last.msg).toBe(false);
  });

  it('GIVEN a handler that throws THEN polling goes on and the next message arrives', async () => {
    const chat = privateChat(bob);
    const since = host.events.length;
    host.failNext = true;
    tg.sendText({ chat, from: bob, text: 'first' });
    tg.sendText({ chat, from: bob, text: 'second' });
    await host.waitFor((x) => x.type === 'message' && x.msg.text === 'second', since);
  });

  it('GIVEN a post with markup, a link and @everyone THEN Telegram gets it escaped as HTML and shows it as plain text', async () => {
    const text = '<b>x</b> _y_ @everyone https://x.y & *z*';
    const outcome = await bridge.deliver(post({ dest: 'telegram:1001', avatar: 'steve', text }), [text]);
    expect(outcome).toMatchObject({ ok: true, messageIds: [expect.any(String)] });
    const m = await tg.waitForMessage((x) => x.chat_id === 1001);
    expect(m.parse_mode).toBe('HTML');
    expect(m.text).toBe('[steve] &lt;b&gt;x&lt;/b&gt; _y_ @everyone https://x.y &amp; *z*');
    expect(m.plain).toBe(`[steve] ${text}`);
    expect(m.mentions).toEqual([]);
    expect(m.link_preview_disabled).toBe(true);
  });

  it('GIVEN a post without avatar that replies to a message THEN it has no prefix and threads to that message', async () => {
    await bridge.deliver(post({ dest: 'telegram:1002', text: 'Avatars: steve, alex', replyTo: '41' }), ['Avatars: steve, alex']);
    const m = await tg.waitForMessage((x) => x.chat_id === 1002 && x.plain.startsWith('Avatars'));
    expect(m.plain).toBe('Avatars: steve, alex');
    expect(m.reply_to).toBe(41);
    expect(m.allow_sending_without_reply).toBe(true);
  });

  it('GIVEN a done post with a ping in a group THEN it mentions exactly that user, by the name they wrote under', async () => {
    // Bob wrote in this group earlier (test above), so the bridge knows his name.
    await bridge.deliver(post({ dest: 'telegram:-501', avatar: 'steve', kind: 'done', ping: 'telegram:1002', text: 'Done: get 30 logs' }), [
      'Done: get 30 logs',
    ]);
    const m = await tg.waitForMessage((x) => x.chat_id === -501);
    expect(m.mentions).toEqual([1002]);
    expect(m.plain).toBe('[steve] Bob Done: get 30 logs');
    expect(m.text).toBe('[steve] <a href="tg://user?id=1002">Bob</a> Done: get 30 logs');
  });

  it('GIVEN a ping in a private chat, or for another platform THEN nothing extra is added', async () => {
    const since = tg.sent.length;
    await bridge.deliver(post({ dest: 'telegram:1001', avatar: 'steve', ping: 'telegram:1001', text: 'Done: a' }), ['Done: a']);
    await bridge.deliver(post({ dest: 'telegram:-501', avatar: 'steve', ping: 'discord:1001', text: 'Done: b' }), ['Done: b']);
    const sent = tg.sent.slice(since);
    expect(sent.map((m) => [m.plain, m.mentions])).toEqual([
      ['[steve] Done: a', []],
      ['[steve] Done: b', []],
    ]);
  });

  it('GIVEN a post of several parts THEN each part arrives in order, under 4096 characters, only the first replying', async () => {
    const line = 'x'.repeat(99);
    const part1 = Array.from({ length: 40 }, () => line).join('\n'); // 3999 chars
    const part2 = Array.from({ length: 41 }, () => line).join('\n'); // 4099 > 4096 - prefix: split again
    const p = post({ dest: 'telegram:-504', avatar: 'steve', text: `${part1}\n${part2}`, replyTo: '7' });
    const outcome = await bridge.deliver(p, [part1, part2]);
    const sent = tg.sent.filter((m) => m.chat_id === -504);
    expect(outcome).toEqual({ ok: true, messageIds: sent.map((m) => String(m.message.message_id)) });
    expect(sent.length).toBe(3);
    for (const m of sent) {
      expect(m.plain.length).toBeLessThanOrEqual(4096);
      expect(m.plain.startsWith('[steve] ')).toBe(true);
    }
    expect(sent.map((m) => m.plain.slice('[steve] '.length)).join('\n')).toBe(p.text);
    expect(sent.map((m) => m.reply_to)).toEqual([7, undefined, undefined]);
  });

  it('GIVEN a 429 then success THEN the post is delivered once', async () => {
    tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 1 });
    const outcome = await bridge.deliver(post({ dest: 'telegram:-505', avatar: 'steve', text: 'after a wait' }), ['after a wait']);
    expect(outcome.ok).toBe(true);
    expect(tg.sent.filter((m) => m.chat_id === -505).map((m) => m.plain)).toEqual(['[steve] after a wait']);
    expect(tg.calls.filter((c) => c.method === 'sendMessage' && c.params.chat_id === -505).length).toBe(2);
  });

  it('GIVEN a 429 longer than the bridge waits THEN the outbox is told to retry after it', async () => {
    tg.failNext('sendMessage', { kind: 'rate_limit', retryAfter: 120 });
    const outcome = await bridge.deliver(post({ dest: 'telegram:-506', text: 'later' }), ['later']);
    expect(outcome).toMatchObject({ ok: false, retry: true, retryAfterMs: 120_000 });
    expect(tg.sent.filter((m) => m.chat_id === -506)).toEqual([]);
  });

  it('GIVEN a chat that blocked the bot THEN the outcome is undeliverable, not retried', async () => {
    tg.failNext('sendMessage', { kind: 'blocked' });
    const outcome = await bridge.deliver(post({ dest: 'telegram:1003', text: 'hello' }), ['hello']);
    expect(outcome).toEqual({ ok: false, retry: false, reason: '403: Forbidden: bot was blocked by the user' });
  });

  it('GIVEN a chat that is gone THEN the outcome is undeliverable', async () => {
    tg.failNext('sendMessage', { kind: 'error', code: 400, description: 'Bad Request: chat not found' });
    const outcome = await bridge.deliver(post({ dest: 'telegram:-999', text: 'hello' }), ['hello']);
    expect(outcome).toMatchObject({ ok: false, retry: false });
  });

  it('GIVEN a group upgraded to a supergroup THEN a send there answers movedTo the supergroup, also for a topic destination, and is never retried to the old id', async () => {
    const old = groupChat(4600, 'upgraded');
    const supergroup = tg.migrateChat(old);
    const outcome = await bridge.deliver(post({ dest: `telegram:${old.id}`, text: 'hello' }), ['hello']);
    expect(outcome).toEqual({
      ok: false,
      movedTo: `telegram:${supergroup.id}`,
      reason: '400: Bad Request: group chat was upgraded to a supergroup chat',
    });
    // A topic id of the old chat means nothing in the new one: the move goes to the chat itself.
    expect(await bridge.deliver(post({ dest: `telegram:${old.id}:7`, text: 'hi' }), ['hi'])).toMatchObject({ ok: false, movedTo: `telegram:${supergroup.id}` });
    expect(tg.sent.filter((m) => m.chat_id === old.id)).toEqual([]);
  });

  it('GIVEN the upgrade service messages (old group, then new supergroup) THEN the core hears chatMoved from the old chat to the new one, and no message', async () => {
    const old = groupChat(4700, 'upgraded too');
    const supergroup = tg.migrateChat(old);
    const since = host.events.length;
    tg.announceMigration({ from: old, to: supergroup, by: alice });
    tg.sendText({ chat: supergroup, from: alice, text: 'after the upgrade' });
    await host.waitFor((e) => e.type === 'message' && e.msg.text === 'after the upgrade', since);
    const moves = host.events.slice(since).filter((e) => e.type === 'moved');
    expect(moves.map(textOf)).toEqual([`moved telegram:${old.id} → telegram:${supergroup.id}`, `moved telegram:${old.id} → telegram:${supergroup.id}`]);
    expect(host.events.slice(since).filter((e) => e.type !== 'moved')).toHaveLength(1);
  });

  it('GIVEN a dropped connection THEN the outcome is a retry, and the retry delivers exactly once', async () => {
    tg.failNext('sendMessage', { kind: 'drop' });
    const p = post({ dest: 'telegram:-507', text: 'through a flaky line' });
    const first = await bridge.deliver(p, [p.text]);
    expect(first).toMatchObject({ ok: false, retry: true });
    const second = await bridge.deliver({ ...p, attempts: 1 }, [p.text]);
    expect(second.ok).toBe(true);
    expect(tg.sent.filter((m) => m.chat_id === -507).map((m) => m.plain)).toEqual(['through a flaky line']);
  });

  it('GIVEN the second part of a post fails THEN it reports the accepted part, and a retry with it sends only the rest', async () => {
    const p = post({ dest: 'telegram:-508', text: 'one\ntwo' });
    tg.failNext('sendMessage', { kind: 'none' });
    tg.failNext('sendMessage', { kind: 'error', code: 502, description: 'Bad Gateway' });
    const reported: SentParts[] = [];
    expect(await bridge.deliver(p, ['one', 'two'], (s) => reported.push(s))).toMatchObject({ ok: false, retry: true, reason: '502: Bad Gateway' });
    expect(reported).toEqual([{ parts: ['one'], messageIds: [expect.any(String)] }]);
    const retried = await bridge.deliver({ ...p, attempts: 1, sent: reported[0] }, ['one', 'two']);
    const sent = tg.sent.filter((m) => m.chat_id === -508);
    expect(sent.map((m) => m.plain)).toEqual(['one', 'two']);
    expect(retried).toEqual({ ok: true, messageIds: sent.map((m) => String(m.message.message_id)) });
  });
});

describe('TelegramBridge secrets and start-up', () => {
  it('GIVEN a wrong token THEN start fails with a clear error that does not show the token', async () => {
    const tg = await FakeTelegram.start();
    const wrong = `${tg.bot.id}:WRONG-token-${'y'.repeat(30)}`;
    const bridge = new TelegramBridge({ token: wrong, apiRoot: tg.apiRoot, log: silentLogger(), commands: [] });
    try {
      const err = await bridge.start(new RecordingHost()).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(err?.message).toMatch(/Telegram: cannot connect the bot/);
      expect(err?.message).toMatch(/401/);
      expect(err?.message).not.toContain(wrong);
    } finally {
      await bridge.stop();
      await tg.close();
    }
  });

  it('GIVEN network failures and refusals THEN no log line contains the token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString('utf8'));
        cb();
      },
    });
    const log = pino({ level: 'trace' }, sink);
    const tg = await FakeTelegram.start({ botId: 7000002 });
    const bridge = new TelegramBridge({ token: tg.token, apiRoot: tg.apiRoot, log, commands: COMMANDS });
    const host = new RecordingHost();
    try {
      tg.failNext('setMyCommands', { kind: 'drop' });
      await bridge.start(host);
      tg.failNext('sendMessage', { kind: 'drop' });
      const dropped = await bridge.deliver(post({ dest: 'telegram:5', text: 'x' }), ['x']);
      expect(dropped).toMatchObject({ ok: false, retry: true });
      if (!dropped.ok) expect(dropped.reason).not.toContain(tg.token);
      tg.failNext('sendMessage', { kind: 'error', code: 401, description: 'Unauthorized' });
      expect(await bridge.deliver(post({ dest: 'telegram:5', text: 'y' }), ['y'])).toMatchObject({ ok: false, retry: true });
      host.failNext = true;
      tg.sendText({ chat: privateChat(user(5, 'E')), from: user(5, 'E'), text: 'boom' });
      await host.waitFor((e) => e.type === 'message');
    } finally {
      await bridge.stop();
      await tg.close();
    }
    const all = lines.join('');
    expect(all).toContain('setMyCommands failed');
    expect(all).toContain('telegram message handler failed');
    expect(all).not.toContain(tg.token);
    expect(all).not.toContain(tg.token.split(':')[1]);
  });
});
