/**
 * When the Telegram bridge tells Telegram an update was received (the offset of its next `getUpdates`): only
 * once the core accepted it, without one slow chat holding up the others. The real grammy bot against the fake
 * Bot API; the host is a small stand-in whose message handling the test finishes when it wants.
 */
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
