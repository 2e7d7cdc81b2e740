import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/logger.ts';
import { Courier, type CourierOptions } from '../../src/outbox/courier.ts';
import { Outbox } from '../../src/outbox/outbox.ts';
import { Store } from '../../src/store/store.ts';
import type { DeliveryOutcome } from '../../src/chat.ts';
import { BACKOFF_JITTER } from '../../src/backoff.ts';
import { deferred, RecordingBridge, runUntilIdle, tempDir } from './helpers.ts';

const ok: DeliveryOutcome = { ok: true, messageIds: [] };

describe('Courier', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let store: Store;
  let outbox: Outbox;
  const couriers: Courier[] = [];

  function courier(bridge: RecordingBridge, opts: Partial<CourierOptions> = {}): Courier {
    const c = new Courier({ outbox, bridge, log: silentLogger(), ...opts });
    couriers.push(c);
    c.start();
    return c;
  }

  function post(dest: string, text: string, extra: { ping?: string; replyTo?: string } = {}): void {
    outbox.post({ dest, avatar: 'demo', text, kind: 'reply', ...extra });
  }

  beforeEach(async () => {
    ({ dir, remove } = await tempDir());
    store = await Store.open(dir);
    outbox = new Outbox(store);
  });

  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(couriers.splice(0).map((c) => c.stop()));
    await store.flush();
    await remove();
  });

  describe('with fake timers', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    });

    it('GIVEN a bridge that waits out a 429 inside one delivery THEN the next post to that chat still waits the whole interval after it', async () => {
      // grammy's auto-retry sleeps the Retry-After and sends again inside one deliver() call.
      const bridge = new RecordingBridge('telegram', 4096, async (_post, _parts, i) => {
        if (i === 0) await new Promise((r) => setTimeout(r, 3000));
        return ok;
      });
      const c = courier(bridge, { perChatIntervalMs: 1000 });
      post('telegram:1', 'first');
      post('telegram:1', 'second');
      await runUntilIdle(c);
      const [first, second] = bridge.calls;
      expect(second?.at).toBeDefined();
      // The first was accepted 3000 ms after it started: the second may go 1000 ms after that, not at once.
      expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(4000);
    });

    it('GIVEN interleaved posts to two chats and slow deliveries THEN each chat gets its posts in order, one at a time, while the chats go in parallel', async () => {
      // Uneven delivery times, the same on every run.
      const delays = [37, 190, 12, 145, 88, 201, 54, 10, 163, 99, 121, 71, 180, 24, 133, 66, 47, 209, 15, 112];
      let n = 0;
      const bridge = new RecordingBridge('telegram', 4096, async () => {
        await new Promise((r) => setTimeout(r, delays[n++ % delays.length]));
        return ok;
      });
      const c = courier(bridge);
      for (let i = 0; i < 10; i++) {
        post('telegram:1', `one ${i}`);
        post('telegram:2', `two ${i}`);
      }
      await runUntilIdle(c);
      expect(bridge.acceptedLines('telegram:1')).toEqual(Array.from({ length: 10 }, (_, i) => `one ${i}`));
      expect(bridge.acceptedLines('telegram:2')).toEqual(Array.from({ length: 10 }, (_, i) => `two ${i}`));
      expect(bridge.maxInFlightPerDest).toBe(1);
      expect(bridge.maxInFlight).toBe(2);
      expect(outbox.all()).toEqual([]);
    });

    it('GIVEN a posts-only-other-platforms outbox THEN the courier leaves those posts alone', async () => {
      const bridge = new RecordingBridge('discord');
      const c = courier(bridge);
      post('telegram:1', 'not mine');
      post('discord:5', 'mine');
      await runUntilIdle(c);
      expect(bridge.calls.map((call) => call.post.text)).toEqual(['mine']);
      expect(outbox.all().map((p) => p.text)).toEqual(['not mine']);
    });

    it('GIVEN a retryable failure (429) THEN the chat waits at least retryAfterMs, keeps its order, and every post arrives exactly once', async () => {
      let failedOnce = false;
      const bridge = new RecordingBridge('telegram', 4096, (p) => {
        if (p.text === 'b' && !failedOnce) {
          failedOnce = true;
          return { ok: false, retry: true, retryAfterMs: 5000, reason: '429 Too Many Requests' };
        }
        return ok;
      });
      const c = courier(bridge, { backoff: { minMs: 100, maxMs: 1000 } });
      post('telegram:1', 'a');
      post('telegram:1', 'b');
      post('telegram:1', 'c');
      post('telegram:2', 'other chat');
      await runUntilIdle(c);

      expect(bridge.acceptedLines('telegram:1')).toEqual(['a', 'b', 'c']);
      expect(bridge.acceptedLines('telegram:2')).toEqual(['other chat']);
      const calls = bridge.calls.filter((call) => call.post.dest === 'telegram:1');
      expect(calls.map((call) => call.post.text)).toEqual(['a', 'b', 'b', 'c']);
      const [, first, retry, after] = calls;
      expect(retry!.at - first!.at).toBeGreaterThanOrEqual(5000);
      expect(retry!.post.attempts).toBe(1);
      expect(after!.at).toBeGreaterThanOrEqual(retry!.at);
      // The other chat did not wait for the failing one.
      expect(bridge.calls.find((call) => call.post.dest === 'telegram:2')!.at).toBeLessThan(first!.at + 5000);
    });

    it('GIVEN a bridge that throws THEN the post is retried with a doubling backoff capped at maxMs and delivered once', async () => {
      let throws = 6;
      const bridge = new RecordingBridge('discord', 2000, () => {
        if (throws-- > 0) throw new Error('ECONNRESET');
        return ok;
      });
      const c = courier(bridge, { backoff: { minMs: 100, maxMs: 1000 } });
      post('discord:9', 'hello');
      await runUntilIdle(c);

      expect(bridge.acceptedLines('discord:9')).toEqual(['hello']);
      const gaps = bridge.calls.slice(1).map((call, i) => call.at - bridge.calls[i]!.at);
      expect(gaps).toHaveLength(6);
      const expected = [100, 200, 400, 800, 1000, 1000];
      // Each delay is the plain one plus up to BACKOFF_JITTER of it, seen at the next 100-ms step of runUntilIdle.
      gaps.forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(expected[i]!);
        expect(gap).toBeLessThanOrEqual(Math.round(expected[i]! * (1 + BACKOFF_JITTER)) + 100);
      });
    });

    it('GIVEN a 403-style refusal THEN the post is dropped, onUndeliverable names the chat, it is never retried, and other chats go on', async () => {
      const bridge = new RecordingBridge('telegram', 4096, (p) =>
        p.dest === 'telegram:66' ? { ok: false, retry: false, reason: '403 Forbidden: bot was blocked by the user' } : ok,
      );
      const onUndeliverable = vi.fn((dest: string) => {
        outbox.dropDest(dest); // what the core does when it unlinks the chat
      });
      const c = courier(bridge, { onUndeliverable });
      post('telegram:66', 'x1');
      post('telegram:66', 'x2');
      post('telegram:7', 'y1');
      await runUntilIdle(c);
      await vi.advanceTimersByTimeAsync(10 * 60_000);

      expect(onUndeliverable).toHaveBeenCalledTimes(1);
      expect(onUndeliverable).toHaveBeenCalledWith('telegram:66', '403 Forbidden: bot was blocked by the user');
      expect(bridge.calls.filter((call) => call.post.dest === 'telegram:66')).toHaveLength(1);
      expect(bridge.acceptedLines('telegram:7')).toEqual(['y1']);
      expect(outbox.all()).toEqual([]);
    });

    it('GIVEN a refusal and no onUndeliverable THEN each refused post is dropped once and nothing is retried', async () => {
      const bridge = new RecordingBridge('telegram', 4096, () => ({ ok: false, retry: false, reason: 'chat not found' }));
      const c = courier(bridge);
      post('telegram:66', 'x1');
      post('telegram:66', 'x2');
      await runUntilIdle(c);
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(bridge.calls.map((call) => call.post.text)).toEqual(['x1', 'x2']);
    });

    it('GIVEN a chat that moved (a group upgraded to a supergroup) THEN onMoved is told, and its queue arrives at the new chat in order, each post once, at once', async () => {
      const bridge = new RecordingBridge('telegram', 4096, (p) =>
        p.dest === 'telegram:-4200' ? { ok: false, movedTo: 'telegram:-1004200', reason: '400: Bad Request: group chat was upgraded to a supergroup chat' } : ok,
      );
      const onMoved = vi.fn((from: string, to: string) => {
        outbox.moveDest(from, to); // what the core does when it relinks the chat
      });
      const onUndeliverable = vi.fn();
      const c = courier(bridge, { onMoved, onUndeliverable, backoff: { minMs: 5000, maxMs: 5000 } });
      post('telegram:-4200', 'a');
      post('telegram:-4200', 'b');
      post('telegram:7', 'elsewhere');
      post('telegram:-4200', 'c');
      await runUntilIdle(c);

      expect(onMoved).toHaveBeenCalledTimes(1);
      expect(onMoved).toHaveBeenCalledWith('telegram:-4200', 'telegram:-1004200');
      expect(onUndeliverable).not.toHaveBeenCalled();
      expect(bridge.calls.filter((call) => call.post.dest === 'telegram:-4200').map((call) => call.post.text)).toEqual(['a']);
      const moved = bridge.calls.filter((call) => call.post.dest === 'telegram:-1004200');
      expect(moved.map((call) => call.post.text)).toEqual(['a', 'b', 'c']);
      expect(bridge.acceptedLines('telegram:-1004200')).toEqual(['a', 'b', 'c']);
      expect(bridge.acceptedLines('telegram:7')).toEqual(['elsewhere']);
      // A move is not a failure: no attempt counted, no backoff waited.
      expect(moved[0]!.post.attempts).toBe(0);
      expect(moved[0]!.at - bridge.calls[0]!.at).toBeLessThan(5000);
      expect(outbox.all()).toEqual([]);
    });

    it('GIVEN a chat that moved and no onMoved THEN the courier still moves the queue, and nothing is dropped', async () => {
      const bridge = new RecordingBridge('telegram', 4096, (p) =>
        p.dest === 'telegram:-4200' ? { ok: false, movedTo: 'telegram:-1004200', reason: 'upgraded' } : ok,
      );
      const c = courier(bridge);
      ['a', 'b', 'c'].forEach((t) => post('telegram:-4200', t));
      await runUntilIdle(c);
      expect(bridge.acceptedLines('telegram:-1004200')).toEqual(['a', 'b', 'c']);
      expect(bridge.calls.map((call) => call.post.text)).toEqual(['a', 'a', 'b', 'c']);
    });

    it('GIVEN a bridge that names the same chat, or another platform, as the new address THEN the post waits and is retried there, not moved or dropped', async () => {
      let answers: DeliveryOutcome[] = [
        { ok: false, movedTo: 'telegram:-4200', reason: 'same chat' },
        { ok: false, movedTo: 'discord:1', reason: 'another platform' },
      ];
      const bridge = new RecordingBridge('telegram', 4096, () => answers.shift() ?? ok);
      const onMoved = vi.fn();
      const c = courier(bridge, { onMoved, backoff: { minMs: 100, maxMs: 1000 } });
      post('telegram:-4200', 'a');
      await runUntilIdle(c);
      expect(onMoved).not.toHaveBeenCalled();
      expect(bridge.calls.map((call) => [call.post.dest, call.post.attempts])).toEqual([
        ['telegram:-4200', 0],
        ['telegram:-4200', 1],
        ['telegram:-4200', 2],
      ]);
      expect(bridge.acceptedLines('telegram:-4200')).toEqual(['a']);
      answers = [];
    });

    it('GIVEN coalescing and a burst of plain posts THEN they arrive in fewer messages that fit the limit, each text exactly once and in order', async () => {
      const bridge = new RecordingBridge('telegram', 60);
      const c = courier(bridge, { coalesce: true, perChatIntervalMs: 1000 });
      const texts = Array.from({ length: 30 }, (_, i) => `msg ${String(i).padStart(2, '0')}`);
      texts.forEach((t) => post('telegram:1', t));
      await runUntilIdle(c);

      expect(bridge.calls.length).toBeLessThan(texts.length / 2);
      for (const call of bridge.calls) expect(call.post.text.length).toBeLessThanOrEqual(60);
      expect(bridge.acceptedLines('telegram:1')).toEqual(texts);
      expect(outbox.all()).toEqual([]);
    });

    it('GIVEN coalescing and posts arriving while the chat waits out its pacing THEN they go as one message after the interval', async () => {
      const bridge = new RecordingBridge('telegram', 4096);
      const c = courier(bridge, { coalesce: true, perChatIntervalMs: 1000 });
      post('telegram:1', 'first');
      await vi.advanceTimersByTimeAsync(10);
      expect(bridge.calls).toHaveLength(1);
      for (let i = 0; i < 5; i++) {
        post('telegram:1', `later ${i}`);
        await vi.advanceTimersByTimeAsync(100);
      }
      expect(bridge.calls).toHaveLength(1);
      await runUntilIdle(c);
      expect(bridge.calls.map((call) => call.post.text)).toEqual(['first', 'later 0\nlater 1\nlater 2\nlater 3\nlater 4']);
      expect(bridge.calls[1]!.at - bridge.calls[0]!.at).toBeGreaterThanOrEqual(1000);
    });

    it('GIVEN coalescing THEN a post with a ping or a reply, or about another avatar, is never merged', async () => {
      const bridge = new RecordingBridge('telegram', 4096);
      const c = courier(bridge, { coalesce: true, perChatIntervalMs: 1000 });
      post('telegram:1', 'a');
      post('telegram:1', 'b');
      post('telegram:1', 'Done: get logs', { ping: 'telegram:5' });
      post('telegram:1', 'c');
      post('telegram:1', 'answer', { replyTo: '42' });
      post('telegram:1', 'd');
      outbox.post({ dest: 'telegram:1', avatar: 'other', text: 'e', kind: 'info' });
      await runUntilIdle(c);
      expect(bridge.calls.map((call) => call.post.text)).toEqual(['a\nb', 'Done: get logs', 'c', 'answer', 'd', 'e']);
      expect(bridge.calls[1]!.post.ping).toBe('telegram:5');
      expect(bridge.calls[3]!.post.replyTo).toBe('42');
    });

    it('GIVEN coalesced posts whose delivery fails once THEN after the retry every text still arrives exactly once', async () => {
      let failed = false;
      const bridge = new RecordingBridge('telegram', 4096, () => {
        if (failed) return ok;
        failed = true;
        return { ok: false, retry: true, retryAfterMs: 2000, reason: 'timeout' };
      });
      const c = courier(bridge, { coalesce: true });
      ['a', 'b', 'c'].forEach((t) => post('telegram:1', t));
      await runUntilIdle(c);
      expect(bridge.acceptedLines('telegram:1')).toEqual(['a', 'b', 'c']);
      expect(outbox.all()).toEqual([]);
    });

    it('GIVEN perChatIntervalMs THEN deliveries to one chat start at least that far apart', async () => {
      const bridge = new RecordingBridge('discord', 2000);
      const c = courier(bridge, { perChatIntervalMs: 1500 });
      for (let i = 0; i < 5; i++) post('discord:1', `m${i}`);
      await runUntilIdle(c);
      expect(bridge.calls).toHaveLength(5);
      bridge.calls.slice(1).forEach((call, i) => expect(call.at - bridge.calls[i]!.at).toBeGreaterThanOrEqual(1500));
    });

    it('GIVEN groupPerMinute THEN a Telegram group gets at most that many per minute, while a private chat is not held back', async () => {
      const bridge = new RecordingBridge('telegram', 4096);
      const c = courier(bridge, { groupPerMinute: 3 });
      for (let i = 0; i < 7; i++) post('telegram:-100123', `g${i}`);
      for (let i = 0; i < 7; i++) post('telegram:5', `p${i}`);
      await runUntilIdle(c);

      const group = bridge.calls.filter((call) => call.post.dest === 'telegram:-100123').map((call) => call.at);
      expect(group).toHaveLength(7);
      for (let i = 3; i < group.length; i++) expect(group[i]! - group[i - 3]!).toBeGreaterThanOrEqual(60_000);
      const privateChat = bridge.calls.filter((call) => call.post.dest === 'telegram:5').map((call) => call.at);
      expect(privateChat.at(-1)! - privateChat[0]!).toBeLessThan(1000);
      expect(bridge.acceptedLines('telegram:-100123')).toEqual(Array.from({ length: 7 }, (_, i) => `g${i}`));
    });

    it('GIVEN globalPerSecond THEN no second window holds more deliveries than that, across chats', async () => {
      const bridge = new RecordingBridge('telegram', 4096);
      const c = courier(bridge, { globalPerSecond: 2 });
      for (let i = 0; i < 9; i++) post(`telegram:${i + 1}`, `m${i}`);
      await runUntilIdle(c);
      const times = bridge.calls.map((call) => call.at).sort((a, b) => a - b);
      expect(times).toHaveLength(9);
      for (let i = 2; i < times.length; i++) expect(times[i]! - times[i - 2]!).toBeGreaterThanOrEqual(1000);
    });

    it('GIVEN a 10 000-char post THEN it is handed to the bridge as one delivery of parts within the limit', async () => {
      const bridge = new RecordingBridge('telegram', 4096);
      const c = courier(bridge);
      const text = Array.from({ length: 1000 }, (_, i) => `line ${String(i).padStart(4, '0')}`).join('\n').slice(0, 10_000);
      post('telegram:1', text);
      await runUntilIdle(c);
      expect(bridge.calls).toHaveLength(1);
      const parts = bridge.calls[0]!.parts;
      expect(parts.length).toBe(3);
      for (const part of parts) expect(part.length).toBeLessThanOrEqual(4096);
      expect(parts.join('\n')).toBe(text);
    });

    it('GIVEN nothing pending THEN the courier sets no timer (no polling)', async () => {
      const bridge = new RecordingBridge('telegram', 4096);
      const c = courier(bridge, { perChatIntervalMs: 1000 });
      post('telegram:1', 'a');
      await runUntilIdle(c);
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  it('GIVEN a delivery in flight WHEN the courier stops THEN stop waits for it, and nothing more is delivered', async () => {
    const gate = deferred<DeliveryOutcome>();
    const started = deferred<void>();
    const bridge = new RecordingBridge('telegram', 4096, () => {
      started.resolve();
      return gate.promise;
    });
    const c = courier(bridge);
    post('telegram:1', 'a');
    post('telegram:1', 'b');
    await started.promise;
    let stopped = false;
    const stopping = c.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    gate.resolve(ok);
    await stopping;
    post('telegram:1', 'c');
    await store.flush();
    expect(bridge.calls.map((call) => call.post.text)).toEqual(['a']);
    expect(outbox.all().map((p) => p.text)).toEqual(['b', 'c']);
  });

  it('GIVEN a post in flight WHEN its chat is moved meanwhile (the service-message path) THEN it never starts twice, and arrives once at the new chat', async () => {
    const gate = deferred<DeliveryOutcome>();
    const started = deferred<void>();
    const bridge = new RecordingBridge('telegram', 4096, (p) => {
      if (p.dest !== 'telegram:-4200') return ok;
      started.resolve();
      return gate.promise;
    });
    const c = courier(bridge);
    post('telegram:-4200', 'a');
    await started.promise;
    expect(outbox.moveDest('telegram:-4200', 'telegram:-1004200').map((p) => p.text)).toEqual(['a']);
    post('telegram:-1004200', 'b'); // wakes the courier while 'a' is still in flight
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(bridge.calls.map((call) => `${call.post.dest} ${call.post.text}`)).toEqual(['telegram:-4200 a']);
    gate.resolve({ ok: false, movedTo: 'telegram:-1004200', reason: 'upgraded' });
    await c.idle();
    // Attempts stay 0: the answer was taken as a move, not as a failure to back off from.
    expect(bridge.calls.map((call) => `${call.post.dest} ${call.post.text} ${call.post.attempts}`)).toEqual([
      'telegram:-4200 a 0',
      'telegram:-1004200 a 0',
      'telegram:-1004200 b 0',
    ]);
    expect(outbox.all()).toEqual([]);
  });

  it('GIVEN a restart (new Store, Outbox and Courier on the same dir) THEN pending posts are delivered exactly once and delivered ones never again', async () => {
    // First run: the platform accepts two posts, then the third fails while we shut down.
    const third = deferred<void>();
    const gate = deferred<DeliveryOutcome>();
    const bridge1 = new RecordingBridge('telegram', 4096, (_p, _parts, index) => {
      if (index < 2) return ok;
      third.resolve();
      return gate.promise;
    });
    const c1 = courier(bridge1, { backoff: { minMs: 1, maxMs: 1 } });
    ['one', 'two', 'three', 'four'].forEach((t) => post('telegram:1', t));
    post('console', 'console post');
    await third.promise;
    const stopping = c1.stop();
    gate.resolve({ ok: false, retry: true, retryAfterMs: 0, reason: 'network down' });
    await stopping;
    post('telegram:1', 'five'); // made while no courier runs
    await store.flush();
    expect(bridge1.acceptedLines('telegram:1')).toEqual(['one', 'two']);

    // Second run on the same files.
    const store2 = await Store.open(dir);
    const outbox2 = new Outbox(store2);
    const bridge2 = new RecordingBridge('telegram', 4096);
    const c2 = new Courier({ outbox: outbox2, bridge: bridge2, log: silentLogger() });
    couriers.push(c2);
    c2.start();
    await c2.idle();
    await store2.flush();

    expect(bridge2.acceptedLines('telegram:1')).toEqual(['three', 'four', 'five']);
    const all = [...bridge1.acceptedLines('telegram:1'), ...bridge2.acceptedLines('telegram:1')];
    expect(all).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(outbox2.all().map((p) => p.text)).toEqual(['console post']);

    // A third start finds nothing of telegram's left to send.
    const store3 = await Store.open(dir);
    const bridge3 = new RecordingBridge('telegram', 4096);
    const c3 = new Courier({ outbox: new Outbox(store3), bridge: bridge3, log: silentLogger() });
    couriers.push(c3);
    c3.start();
    await c3.idle();
    expect(bridge3.calls).toEqual([]);
    await store3.flush();
  });
});
