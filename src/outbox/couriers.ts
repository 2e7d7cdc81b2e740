/**
 * The running bridges, each with the courier that delivers its posts from
 * the outbox: started together, waited on together, stopped together.
 */
import type { Logger } from 'pino';
import type { Bridge, BridgeHost } from '../chat.ts';
import type { Destination, Identity } from '../store/schema.ts';
import { Courier, type CourierOptions } from './courier.ts';
import { UserError } from '../errors.ts';
import { platformOf, type Outbox } from './outbox.ts';

/** Courier settings a bridge may tune (pacing, coalescing, backoff). */
export type CourierTuning = Partial<Omit<CourierOptions, 'outbox' | 'bridge' | 'log' | 'onUndeliverable' | 'onMoved'>>;

/** What the couriers report back about chats. */
export interface CourierEvents {
  /** The chat is gone or blocked the bot. */
  onUndeliverable(dest: Destination, reason: string): void;
  /** The chat lives at another address now. */
  onMoved(from: Destination, to: Destination): void;
}

/**
 * @example
 * const couriers = new Couriers(outbox, log, { onUndeliverable, onMoved });
 * await couriers.add(bridge, host, { perChatIntervalMs: 1000 });
 */
export class Couriers {
  private readonly running: { bridge: Bridge; courier: Courier }[] = [];

  constructor(
    private readonly outbox: Outbox,
    private readonly log: Logger,
    private readonly events: CourierEvents,
  ) {}

  /** Start a bridge (handing it `host`) and the courier that delivers its posts. */
  async add(bridge: Bridge, host: BridgeHost, tuning: CourierTuning = {}): Promise<void> {
    const courier = new Courier({
      outbox: this.outbox,
      bridge,
      log: this.log.child({ courier: bridge.platform }),
      onUndeliverable: (dest, reason) => this.events.onUndeliverable(dest, reason),
      onMoved: (from, to) => this.events.onMoved(from, to),
      ...tuning,
    });
    this.running.push({ bridge, courier });
    await bridge.start(host);
    courier.start();
  }

  /** Open a thread under a chat on the bridge of its platform (Discord); a UserError where the platform has none. */
  async openThread(dest: Destination, name: string): Promise<Destination> {
    const bridge = this.running.find((b) => b.bridge.platform === platformOf(dest))?.bridge;
    if (!bridge?.openThread) throw new UserError('no_threads', 'Thought streams need a Discord channel.');
    return bridge.openThread(dest, name);
  }

  /** Show typing in a chat on its platform's bridge until the returned function is called (a no-op where it has none). */
  typing(dest: Destination): () => void {
    const bridge = this.running.find((b) => b.bridge.platform === platformOf(dest))?.bridge;
    return bridge?.typing?.(dest) ?? (() => {});
  }

  /**
   * The DM with a person on their platform: the console, Telegram's private chat (the user's own id), or
   * a DM channel the bridge opens (Discord). Throws where the platform's bridge is not running.
   */
  async openDm(user: Identity): Promise<Destination> {
    const platform = user.slice(0, user.indexOf(':'));
    if (platform === 'console') return 'console';
    if (platform === 'telegram') return `telegram:${user.slice('telegram:'.length)}`;
    const bridge = this.running.find((b) => b.bridge.platform === platform)?.bridge;
    if (!bridge?.openDm) throw new UserError('no_dm', `No ${platform} bridge is running to reach ${user}.`);
    return bridge.openDm(user);
  }

  /** Wait until every courier delivered what it can now. */
  async idle(): Promise<void> {
    await Promise.all(this.running.map((b) => b.courier.idle()));
  }

  /** Give the couriers up to `graceMs` to deliver, then stop every courier and its bridge. */
  async stop(graceMs: number): Promise<void> {
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, graceMs).unref())]);
    for (const { bridge, courier } of this.running) {
      await courier.stop();
      await bridge.stop().catch((err: unknown) => this.log.warn({ err, platform: bridge.platform }, 'bridge stop failed'));
    }
  }
}
