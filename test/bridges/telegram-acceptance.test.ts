/**
 * When the Telegram bridge tells Telegram an update was received (the offset of its next `getUpdates`): only
 * once the core accepted it, without one slow chat holding up the others. The real grammy bot against the fake
 * Bot API; the host is a small stand-in whose message handling the test finishes when it wants. The bound on an
 * update that is never accepted is a minute: that one is shown on the transformer alone, with fake timers.
 */
import { EventEmitter } from 'node:events';
import type { Update } from 'grammy/types';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOLD_MS, STUCK_MS, UpdateAcceptance } from '../../bridges/telegram/acceptance.ts';
import { TelegramBridge } from '../../bridges/telegram/telegram-bridge.ts';
import type { BridgeHost, CommandAnswer, InboundMessage, PressOutcome } from '../../src/chat.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeTelegram, privateChat, user } from '../fakes/telegram-api.ts';

/** A host whose handling of a message named in `held` ends only when the test lets it. */
class GatedHost implements BridgeHost {
  readonly handled: string[] = [];
  private readonly gates = new Map<string, () => void>();
  private readonly events = new EventEmitter();

  /** Messages with this text are held until {@link GatedHost.release}. */
  hold(text: string): void {
    this.gates.set(text, () => undefined);
  }

  release(text: string): void {
    this.gates.get(text)?.();
    this.gates.delete(text);
  }

  async handleMessage(msg: InboundMessage): Promise<void> {
    this.handled.push(msg.text);
    this.events.emit('handled');
    if (!this.gates.has(msg.text)) return;
    await new Promise<void>((resolve) => this.gates.set(msg.text, resolve));
  }

  /** Resolves once a message with `text` was handed over. */
  waitFor(text: string): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (!this.handled.includes(text)) return;
        this.events.off('handled', check);
        resolve();
      };
      this.events.on('handled', check);
      check();
    });
  }

  async runCommand(): Promise<void> {}
  async notRead(): Promise<void> {}
  async answerCommand(): Promise<CommandAnswer> {
    return { avatar: null, text: '', refused: false, announce: false };
  }
  async press(): Promise<PressOutcome> {
    return { kind: 'refused', avatar: null, text: 'no' };
  }
  avatarNames(): string[] {
    return [];
  }
  isLinked(): boolean {
    return false;
  }
}

describe('the Telegram bridge tells Telegram of an update once the core accepted it', () => {
  let tg: FakeTelegram;
  let bridge: TelegramBridge;
  const host = new GatedHost();
  const ann = user(2001, 'Ann');
  const ben = user(2002, 'Ben');

  beforeAll(async () => {
    tg = await FakeTelegram.start();
    bridge = new TelegramBridge({ token: tg.token, apiRoot: tg.apiRoot, log: silentLogger(), commands: [] });
    await bridge.start(host);
  });

  afterAll(async () => {
    await bridge.stop();
    await tg.close();
  });

  it('GIVEN a message still being handled THEN it is not confirmed, another chat\'s later message is handled meanwhile, and once it is accepted the poll past both goes out', async () => {
    host.hold('a long one');
    tg.sendText({ chat: privateChat(ann), from: ann, text: 'a long one' });
    const slow = tg.lastUpdateId;
    try {
      await host.waitFor('a long one');
      tg.sendText({ chat: privateChat(ben), from: ben, text: 'a quick one' });
      await host.waitFor('a quick one');
      // The polls went on from the slow update: Telegram keeps it (and sent it again), the bridge handed it over once.
      expect(tg.confirmedUpTo).toBeLessThan(slow);
      expect(host.handled.filter((t) => t === 'a long one')).toHaveLength(1);
    } finally {
      host.release('a long one');
    }
    await tg.waitForConfirmed(tg.lastUpdateId);
    expect(host.handled).toEqual(['a long one', 'a quick one']);
  });
});

describe('an update never accepted (a handler stuck)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('GIVEN an update whose handling never ends THEN polls hold it back for a minute, then confirm past it so the other chats are still read', async () => {
    vi.useFakeTimers();
    const asked: Record<string, unknown>[] = [];
    // What Telegram answers: the update still held, while the offset is at it.
    const cy = user(2003, 'Cy');
    const held: Update = { update_id: 5, message: { message_id: 1, date: 0, chat: privateChat(cy), from: cy, text: 'x' } };
    const api = async (_method: string, payload: Record<string, unknown>): Promise<{ ok: true; result: Update[] }> => {
      asked.push(payload);
      return { ok: true, result: Number(payload.offset) <= 5 ? [held] : [] };
    };
    const acceptance = new UpdateAcceptance();
    const poll = (): Promise<unknown> => acceptance.transformer(api as never, 'getUpdates', { offset: 6, timeout: 30 } as never);
    acceptance.track(5, new Promise(() => undefined));

    const first = poll();
    await vi.advanceTimersByTimeAsync(HOLD_MS);
    // The offset stays at the update; what Telegram sends again of it is not handed over twice.
    expect(await first).toEqual({ ok: true, result: [] });
    expect(asked).toEqual([{ offset: 5, timeout: 0 }]);

    await vi.advanceTimersByTimeAsync(STUCK_MS);
    expect(await poll()).toEqual({ ok: true, result: [] });
    expect(asked.at(-1)).toEqual({ offset: 6, timeout: 30 });
  });
});
