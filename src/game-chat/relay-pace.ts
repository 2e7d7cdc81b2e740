/**
 * How relayed chat lines become posts: per chat and avatar, the lines that
 * come within a short gathering time (1 s) are one post, and two posts are
 * at least an interval apart (3 s): a burst of 20 lines in 2 s is at most
 * three posts, usually two. A post keeps the newest lines that fit the
 * platforms' length (1,800 characters) and says how many older ones it left
 * out. What waits is not stored: a restart starts with nothing waiting.
 */
import type { Destination } from '../store/schema.ts';

/** How a {@link RelayPace} posts and paces. */
export interface RelayPaceOptions {
  /** Queue one post (the outbox, through the poster). */
  post(dest: Destination, avatar: string, text: string): void;
  /** How long the first line of a quiet spell waits for the lines after it (ms). Default 1000. */
  gatherMs?: number;
  /** Least time between two posts of one avatar to one chat (ms). Default 3000. */
  intervalMs?: number;
  /** Longest post. Default 1800 (Discord takes 2000 with the `[avatar] ` prefix, Telegram 4096). */
  maxLength?: number;
  now?: () => number;
}

/**
 * The lines of one post: the newest that fit `maxLength`, after a line saying how many older ones were left out.
 *
 * @example
 * fitLines(['<a> hi', '<b> hello'], 100) // → '<a> hi\n<b> hello'
 */
export function fitLines(lines: readonly string[], maxLength: number): string {
  const room = maxLength - 40; // space for the "left out" line
  const kept: string[] = [];
  let length = 0;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = (lines[i] as string).slice(0, room);
    if (kept.length > 0 && length + line.length + 1 > room) break;
    kept.unshift(line);
    length += line.length + 1;
  }
  const skipped = lines.length - kept.length;
  return skipped > 0 ? [`(${skipped} earlier line${skipped === 1 ? '' : 's'} left out)`, ...kept].join('\n') : kept.join('\n');
}

interface Waiting {
  dest: Destination;
  avatar: string;
  lines: string[];
  lastPostAt: number;
  timer: NodeJS.Timeout | null;
}

/**
 * @example
 * const pace = new RelayPace({ post: (dest, avatar, text) => poster.to(dest, avatar, text) });
 * pace.add('discord:42', 'demo', '<alice> hi'); // posted about a second later, with what came meanwhile
 */
export class RelayPace {
  private readonly waiting = new Map<string, Waiting>();
  private readonly gatherMs: number;
  private readonly intervalMs: number;
  private readonly maxLength: number;

  constructor(private readonly opts: RelayPaceOptions) {
    this.gatherMs = opts.gatherMs ?? 1000;
    this.intervalMs = opts.intervalMs ?? 3000;
    this.maxLength = opts.maxLength ?? 1800;
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** One more line for `avatar`'s relay into `dest`: posted with the others of its spell, paced. */
  add(dest: Destination, avatar: string, line: string): void {
    const key = `${dest}\u0000${avatar}`;
    const w = this.waiting.get(key) ?? { dest, avatar, lines: [], lastPostAt: Number.NEGATIVE_INFINITY, timer: null };
    this.waiting.set(key, w);
    w.lines.push(line);
    if (w.timer) return;
    const wait = Math.max(this.gatherMs, w.lastPostAt + this.intervalMs - this.now());
    w.timer = setTimeout(() => {
      w.timer = null;
      this.flush(w);
    }, wait);
    w.timer.unref();
  }

  /** Forget what waits for the relays `match` selects (ended): nothing of it is posted. */
  drop(match: (dest: Destination, avatar: string) => boolean): void {
    for (const [key, w] of this.waiting) {
      if (!match(w.dest, w.avatar)) continue;
      if (w.timer) clearTimeout(w.timer);
      this.waiting.delete(key);
    }
  }

  /** Drop every timer (shutdown); what waits is not posted. */
  stop(): void {
    this.drop(() => true);
  }

  private flush(w: Waiting): void {
    if (w.lines.length === 0) return;
    const text = fitLines(w.lines, this.maxLength);
    w.lines = [];
    w.lastPostAt = this.now();
    this.opts.post(w.dest, w.avatar, text);
  }
}
