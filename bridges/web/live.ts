/**
 * Live updates for open dashboard pages (Server-Sent Events). Each open page
 * has one stream; what it shows (the rows, one avatar's page, one world view)
 * is computed from the core's read model for that page's viewer and sent only
 * when it changed. The store and the loop are looked at every
 * {@link CHECK_MS} (a change there reaches the page within that), the game's
 * own figures (health, position, the map) every {@link REFRESH_MS}.
 */
import type { Logger } from 'pino';
import type { ChatContext } from '../../src/chat.ts';
import type { Dashboard } from '../../src/dashboard.ts';
import { UserError } from '../../src/errors.ts';
import type { Destination } from '../../src/store/schema.ts';

/** How often the read model's version is compared (ms). */
export const CHECK_MS = 100;
/** How often everything is computed again, for what changes in the game without a store write (ms). */
export const REFRESH_MS = 1000;
/** Most open streams of one signed-in page's session; a new one beyond that closes the oldest. */
export const STREAMS_PER_SESSION = 8;

/** One message to a page: an SSE event name and its JSON data. */
export interface LiveEvent {
  event: 'rows' | 'details' | 'world' | 'reply' | 'problem' | 'signed-out';
  data: string;
}

/** An open page's stream. */
export interface LiveClient {
  /** The page's viewer (rights as in the chat the link was asked in). */
  viewer: ChatContext;
  /** The page's own destination (replies). */
  dest: Destination;
  /** The avatar whose page it is, if any, and whether it shows its world. */
  avatar: string | null;
  world: boolean;
  /** Whether the session still lasts. */
  valid(): boolean;
  send(event: LiveEvent): void;
  close(): void;
}

interface Shown {
  rows?: string;
  details?: string;
  world?: string;
}

/**
 * @example
 * const live = new LivePages(dashboard, log);
 * const stop = live.add(client); // sends what the page shows now, then every change
 * live.reply('web:abc', { id: 'p1', replyTo: 'm1', avatar: 'demo', text: 'Noted as direction #2.' });
 */
export class LivePages {
  private readonly clients = new Map<LiveClient, Shown>();
  private timer: NodeJS.Timeout | undefined;
  private lastVersion = '';
  private lastRefresh = 0;
  private busy = false;

  constructor(
    private readonly dashboard: Dashboard,
    private readonly log: Logger,
  ) {}

  /** Start streaming to a page; returns the function that ends it. */
  add(client: LiveClient): () => void {
    const same = [...this.clients.keys()].filter((c) => c.dest === client.dest);
    for (const old of same.slice(0, Math.max(0, same.length - STREAMS_PER_SESSION + 1))) {
      old.close();
      this.remove(old);
    }
    this.clients.set(client, {});
    void this.update(client);
    this.timer ??= setInterval(() => void this.check(), CHECK_MS);
    this.timer.unref();
    return () => this.remove(client);
  }

  /** Pages open now. */
  get size(): number {
    return this.clients.size;
  }

  /** A post for a page: every open stream of that page gets it. */
  reply(dest: Destination, reply: { id: string; replyTo: string | null; avatar: string | null; text: string }): void {
    for (const client of this.clients.keys()) {
      if (client.dest === dest) client.send({ event: 'reply', data: JSON.stringify(reply) });
    }
  }

  /** Close every stream (shutdown). */
  closeAll(): void {
    for (const client of [...this.clients.keys()]) {
      client.close();
      this.remove(client);
    }
  }

  private remove(client: LiveClient): void {
    this.clients.delete(client);
    if (this.clients.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private async check(): Promise<void> {
    if (this.busy) return;
    const version = this.dashboard.version();
    const now = Date.now();
    if (version === this.lastVersion && now - this.lastRefresh < REFRESH_MS) return;
    this.lastVersion = version;
    this.lastRefresh = now;
    this.busy = true;
    try {
      for (const client of [...this.clients.keys()]) await this.update(client);
    } finally {
      this.busy = false;
    }
  }

  /** Send what changed for one page; a page whose session ended is told so and closed. */
  private async update(client: LiveClient): Promise<void> {
    const shown = this.clients.get(client);
    if (!shown) return;
    if (!client.valid()) {
      client.send({ event: 'signed-out', data: '{}' });
      client.close();
      this.remove(client);
      return;
    }
    try {
      const rows = JSON.stringify(this.dashboard.rows(client.viewer));
      if (rows !== shown.rows) client.send({ event: 'rows', data: (shown.rows = rows) });
      if (client.avatar) {
        const details = JSON.stringify(await this.dashboard.details(client.viewer, client.avatar));
        if (details !== shown.details) client.send({ event: 'details', data: (shown.details = details) });
        if (client.world) {
          const world = JSON.stringify(this.dashboard.world(client.viewer, client.avatar));
          if (world !== shown.world) client.send({ event: 'world', data: (shown.world = world) });
        }
      }
    } catch (err) {
      // What the viewer may not (or no longer) see is said in chat's own words; anything else is logged.
      const text = err instanceof UserError ? err.message : 'Something went wrong; the log says what.';
      if (!(err instanceof UserError)) this.log.error({ err }, 'web: a live update failed');
      const problem = JSON.stringify({ text });
      if (problem !== shown.details) client.send({ event: 'problem', data: (shown.details = problem) });
    }
  }
}
