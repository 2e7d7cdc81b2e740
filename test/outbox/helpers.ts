import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { Bridge, DeliveryOutcome, Platform } from '../../src/chat.ts';
import type { Courier } from '../../src/outbox/courier.ts';
import type { Post } from '../../src/store/schema.ts';

/** One call of {@link RecordingBridge.deliver}. */
export interface DeliveryCall {
  post: Post;
  parts: string[];
  at: number;
  outcome: DeliveryOutcome | 'threw';
}

/** What the recording bridge answers for a call; the default accepts. */
export type Script = (post: Post, parts: string[], callIndex: number) => DeliveryOutcome | Promise<DeliveryOutcome>;

/** A bridge that records what it was asked to deliver: the platform boundary, nothing else. */
export class RecordingBridge implements Bridge {
  readonly calls: DeliveryCall[] = [];
  /** Texts the "platform" accepted, in the order it accepted them, per destination. */
  readonly accepted = new Map<string, string[]>();
  private inFlight = new Map<string, number>();
  /** The most deliveries that were ever in flight at once, per destination and overall. */
  maxInFlightPerDest = 0;
  maxInFlight = 0;
  private nextMessageId = 1;

  constructor(
    readonly platform: Platform = 'telegram',
    readonly maxMessageLength = 4096,
    public script: Script = () => ({ ok: true, messageIds: [] }),
  ) {}

  async start(): Promise<void> {}
  async stop(): Promise<void> {}

  async deliver(post: Post, parts: string[]): Promise<DeliveryOutcome> {
    const index = this.calls.length;
    const call: DeliveryCall = { post: { ...post }, parts, at: Date.now(), outcome: 'threw' };
    this.calls.push(call);
    const n = (this.inFlight.get(post.dest) ?? 0) + 1;
    this.inFlight.set(post.dest, n);
    this.maxInFlightPerDest = Math.max(this.maxInFlightPerDest, n);
    this.maxInFlight = Math.max(this.maxInFlight, [...this.inFlight.values()].reduce((a, b) => a + b, 0));
    try {
      let outcome = await this.script(post, parts, index);
      if (outcome.ok) {
        outcome = { ok: true, messageIds: parts.map(() => String(this.nextMessageId++)) };
        const list = this.accepted.get(post.dest) ?? [];
        list.push(...parts);
        this.accepted.set(post.dest, list);
      }
      call.outcome = outcome;
      return outcome;
    } finally {
      this.inFlight.set(post.dest, (this.inFlight.get(post.dest) ?? 1) - 1);
    }
  }

  /** Every accepted text, split back into the lines the posts were made of. */
  acceptedLines(dest: string): string[] {
    return (this.accepted.get(dest) ?? []).flatMap((t) => t.split('\n'));
  }
}

/** A fresh temp dir, and its removal. */
export async function tempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-outbox-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * With fake timers: advance time in small steps until the courier is idle
 * (nothing pending, nothing in flight), or fail after `maxMs` of fake time.
 */
export async function runUntilIdle(courier: Courier, maxMs = 15 * 60_000, stepMs = 100): Promise<void> {
  let done = false;
  const idle = courier.idle().then(() => {
    done = true;
  });
  for (let t = 0; !done && t <= maxMs; t += stepMs) await vi.advanceTimersByTimeAsync(stepMs);
  if (!done) throw new Error(`courier not idle after ${maxMs} ms of fake time`);
  await idle;
}

/** A promise whose resolution the test controls. */
export function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
