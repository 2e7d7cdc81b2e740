/**
 * The updates the fake Telegram holds for the bot, and `getUpdates` as Telegram answers it: a long poll
 * held until an update arrives or `timeout` seconds pass (a missing timeout is 0); `offset` confirms and
 * forgets the updates below it; a newer poll ends an older one with 409; only the update types of the last
 * `allowed_updates` the bot gave are delivered (Telegram keeps that setting between calls).
 */
import type { ServerResponse } from 'node:http';
import type { Update } from 'grammy/types';
import { asNumber } from './params.ts';

interface PendingPoll {
  offset: number;
  limit: number;
  res: ServerResponse;
  timer: NodeJS.Timeout;
}

export class UpdateQueue {
  /** Highest update id the bot confirmed (by asking for a later offset). */
  confirmedUpTo = 0;
  private updates: Update[] = [];
  /** Every update ever queued, by id. */
  private readonly history = new Map<number, Update>();
  /** The update types the bot asked for; null: all of them. */
  private allowed: string[] | null = null;
  private readonly polls = new Set<PendingPoll>();
  private nextId = 1;

  constructor(
    private readonly reply: (res: ServerResponse, status: number, body: unknown) => void,
    private readonly changed: () => void,
  ) {}

  /** Queue an update (its `update_id` is assigned) and wake a pending long poll. */
  push(update: Omit<Update, 'update_id'>): Update {
    const full = { ...update, update_id: this.nextId++ } as Update;
    this.history.set(full.update_id, full);
    this.updates.push(full);
    this.wake();
    return full;
  }

  /** The id of the latest update queued (0 when none was). */
  get lastId(): number {
    return this.nextId - 1;
  }

  /** Queue update `id` again, as it was (its id too), and wake a pending long poll. */
  again(id: number): Update {
    const update = this.history.get(id);
    if (!update) throw new Error(`fake Telegram: no update ${id} was ever queued`);
    this.updates = [...this.updates.filter((u) => u.update_id !== id), update].sort((a, b) => a.update_id - b.update_id);
    this.wake();
    return update;
  }

  /** Answer the pending long polls that have updates now. */
  private wake(): void {
    for (const poll of [...this.polls]) {
      const ready = this.readyFor(poll.offset, poll.limit);
      if (ready.length > 0) this.finish(poll, { ok: true, result: ready });
    }
  }

  getUpdates(params: Record<string, unknown>, res: ServerResponse): void {
    const asked = typeof params.allowed_updates === 'string' ? (JSON.parse(params.allowed_updates) as unknown) : params.allowed_updates;
    if (Array.isArray(asked) && asked.length > 0) this.allowed = asked.map(String);
    const offset = asNumber(params.offset) ?? 0;
    const limit = Math.min(100, Math.max(1, asNumber(params.limit) ?? 100));
    const timeout = Math.max(0, asNumber(params.timeout) ?? 0);
    if (offset > 0) {
      // Asking for `offset` confirms every update below it: Telegram forgets them.
      this.updates = this.updates.filter((u) => u.update_id >= offset);
      if (offset - 1 > this.confirmedUpTo) {
        this.confirmedUpTo = offset - 1;
        this.changed();
      }
    } else if (offset < 0) {
      this.updates = this.updates.slice(offset);
    }
    // Like Telegram, a newer getUpdates ends an older one with 409.
    for (const poll of [...this.polls]) {
      this.finish(poll, { ok: false, error_code: 409, description: 'Conflict: terminated by other getUpdates request' }, 409);
    }
    const ready = this.readyFor(offset, limit);
    if (ready.length > 0 || timeout === 0) {
      this.reply(res, 200, { ok: true, result: ready });
      return;
    }
    const poll: PendingPoll = {
      offset,
      limit,
      res,
      timer: setTimeout(() => this.finish(poll, { ok: true, result: [] }), timeout * 1000),
    };
    this.polls.add(poll);
    // The client gave up (grammy aborts the poll on stop): forget it; its updates stay queued.
    res.on('close', () => {
      clearTimeout(poll.timer);
      this.polls.delete(poll);
    });
  }

  /** Answer every pending long poll with nothing. */
  close(): void {
    for (const poll of [...this.polls]) this.finish(poll, { ok: true, result: [] });
  }

  private readyFor(offset: number, limit: number): Update[] {
    const allowed = this.allowed;
    // Telegram never delivers an update of a type the bot did not ask for.
    if (allowed) this.updates = this.updates.filter((u) => Object.keys(u).some((k) => k !== 'update_id' && allowed.includes(k)));
    return this.updates.filter((u) => u.update_id >= offset).slice(0, limit);
  }

  private finish(poll: PendingPoll, body: unknown, status = 200): void {
    clearTimeout(poll.timer);
    this.polls.delete(poll);
    this.reply(poll.res, status, body);
  }
}
