/**
 * The thought stream (`/verbose on`): each turn of an avatar summarised in
 * one line (turn kind, skills run, result) in a thread of a linked channel,
 * paced so a busy avatar posts at most one message per interval (10 s),
 * coalescing the lines that came in between into that one message.
 *
 * Which threads stream which avatar is stored (`state.streams`); what is
 * waiting to be posted is not: a restart starts with an empty buffer.
 */
import type { TurnSummary } from './loop/goal-loop.ts';
import type { AvatarNews } from './loop/news.ts';
import type { Store } from './store/store.ts';
import type { Destination } from './store/schema.ts';
import { streamsWriter } from './store/writers/streams.ts';

/** How a {@link ThoughtStream} posts and paces. */
export interface ThoughtStreamOptions {
  store: Store;
  /** Queue one post (the outbox). */
  post(dest: Destination, avatar: string, text: string): void;
  /** The loops' turns, each taken in as it ends. */
  news?: AvatarNews;
  /** Least time between two posts to one thread (ms). Default 10 000. */
  intervalMs?: number;
  /** Longest post (the platform's limit). Default 2000. */
  maxLength?: number;
  now?: () => number;
}

/** Longest quoted reply line in a summary. */
const SAYS_MAX = 160;

/**
 * One turn as one line; a hybrid avatar's says who played it (`scripted`, or `model: llm`).
 *
 * @example
 * summaryLine({ kind: 'continue', status: 'working', actions: [{ skill: 'collect', ok: true, code: 'ok' }], says: 'Collected 3 oak logs.' })
 * // → 'continue · collect ok · working — Collected 3 oak logs.'
 * summaryLine({ kind: 'continue', status: 'done', actions: [], says: 'Done.', playedBy: { engine: 'llm', model: true } })
 * // → 'continue (model: llm) · no skill run · done — Done.'
 */
export function summaryLine(s: TurnSummary): string {
  const runs = s.actions.length === 0 ? 'no skill run' : s.actions.map((a) => `${a.skill} ${a.ok ? 'ok' : a.code}`).join(', ');
  const says = s.says.replace(/\s+/g, ' ').trim();
  const clipped = says.length > SAYS_MAX ? `${says.slice(0, SAYS_MAX - 1)}…` : says;
  const by = s.playedBy ? ` (${s.playedBy.model ? `model: ${s.playedBy.engine}` : 'scripted'})` : '';
  return `${s.kind}${by} · ${runs} · ${s.status}${clipped ? ` — ${clipped}` : ''}`;
}

/** The lines of one message: the newest that fit, with a count of those left out. */
export function coalesce(lines: readonly string[], maxLength: number): string {
  const kept: string[] = [];
  let length = 0;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i] as string;
    const room = maxLength - 40; // space for the "earlier turns" line
    if (length + line.length + 1 > room && kept.length > 0) break;
    kept.unshift(line.slice(0, room));
    length += line.length + 1;
  }
  const skipped = lines.length - kept.length;
  return skipped > 0 ? [`(${skipped} earlier turn${skipped === 1 ? '' : 's'} left out)`, ...kept].join('\n') : kept.join('\n');
}

interface Pending {
  lines: string[];
  lastPostAt: number;
  timer: NodeJS.Timeout | null;
}

/**
 * @example
 * const thoughts = new ThoughtStream({ store, post: (dest, avatar, text) => outbox.post({ dest, avatar, text, kind: 'info' }) });
 * loop.on('turnEnded', (_kind, summary) => thoughts.turnEnded('steve', summary));
 */
export class ThoughtStream {
  private readonly opts: ThoughtStreamOptions;
  private readonly intervalMs: number;
  private readonly maxLength: number;
  private readonly pending = new Map<Destination, Pending>();
  /** `state.json` `streams`: written here only. */
  private readonly streams;

  constructor(opts: ThoughtStreamOptions) {
    this.opts = opts;
    this.streams = streamsWriter(opts.store);
    opts.news?.on('turnEnded', (avatar, summary) => this.turnEnded(avatar, summary));
    this.intervalMs = opts.intervalMs ?? 10_000;
    this.maxLength = opts.maxLength ?? 2000;
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** Start streaming `avatar` into `thread` (opened from the linked chat `parent`). Returns false when it already streams there. */
  open(avatar: string, thread: Destination, parent: Destination): boolean {
    return this.streams.update((s) => {
      if (s.streams.some((x) => x.avatar === avatar && x.dest === thread)) return false;
      s.streams.push({ avatar, dest: thread, parent, createdAt: new Date(this.now()).toISOString() });
      return true;
    });
  }

  /** Stop streaming `avatar` from the linked chat `parent` (or from inside its thread). Returns the threads that were closed. */
  close(avatar: string, chat: Destination): Destination[] {
    const closed = this.streams.update((s) => {
      const gone = s.streams.filter((x) => x.avatar === avatar && (x.parent === chat || x.dest === chat));
      s.streams = s.streams.filter((x) => !gone.includes(x));
      return gone.map((x) => x.dest);
    });
    for (const dest of closed) this.forget(dest);
    return closed;
  }

  /** The thread streaming `avatar` from `parent`, if any. */
  threadOf(avatar: string, parent: Destination): Destination | undefined {
    return this.streams.value.streams.find((x) => x.avatar === avatar && x.parent === parent)?.dest;
  }

  /** A chat was unlinked or is gone: streams into it, or opened from it, end. */
  dropDest(dest: Destination): void {
    this.drop((x) => x.dest === dest || x.parent === dest);
  }

  /** A removed avatar: its streams end. Returns how many. */
  removeAllFor(avatar: string): number {
    return this.drop((x) => x.avatar === avatar);
  }

  /** A renamed avatar: its streams follow it. */
  renameAvatar(from: string, to: string): void {
    if (!this.streams.value.streams.some((x) => x.avatar === from)) return;
    this.streams.update((s) => {
      for (const x of s.streams) if (x.avatar === from) x.avatar = to;
    });
  }

  /** End the streams that match (and what they had pending); how many. */
  private drop(match: (x: { avatar: string; dest: Destination; parent: Destination }) => boolean): number {
    const gone = this.streams.value.streams.filter(match).map((x) => x.dest);
    if (gone.length === 0) return 0;
    this.streams.update((s) => {
      s.streams = s.streams.filter((x) => !match(x));
    });
    for (const dest of gone) this.forget(dest);
    return gone.length;
  }

  /** A turn of `avatar` ended: one line to each of its threads, paced. */
  turnEnded(avatar: string, summary: TurnSummary): void {
    const s = this.opts.store.state.data;
    const line = summaryLine(summary);
    for (const stream of s.streams.filter((x) => x.avatar === avatar)) {
      // A stream lives only as long as the avatar is linked where it was opened.
      if (!s.links.some((l) => l.avatar === avatar && l.dest === stream.parent)) {
        this.dropDest(stream.parent);
        continue;
      }
      const p = this.pending.get(stream.dest) ?? { lines: [], lastPostAt: Number.NEGATIVE_INFINITY, timer: null };
      this.pending.set(stream.dest, p);
      p.lines.push(line);
      this.schedule(stream.dest, avatar, p);
    }
  }

  /** Drop the timers (shutdown); buffered lines are not posted. */
  stop(): void {
    for (const dest of [...this.pending.keys()]) this.forget(dest);
  }

  private schedule(dest: Destination, avatar: string, p: Pending): void {
    if (p.timer) return;
    const wait = p.lastPostAt + this.intervalMs - this.now();
    if (wait <= 0) {
      this.flush(dest, avatar, p);
      return;
    }
    p.timer = setTimeout(() => {
      p.timer = null;
      this.flush(dest, avatar, p);
    }, wait);
    p.timer.unref();
  }

  private flush(dest: Destination, avatar: string, p: Pending): void {
    if (p.lines.length === 0) return;
    const text = coalesce(p.lines, this.maxLength);
    p.lines = [];
    p.lastPostAt = this.now();
    this.opts.post(dest, avatar, text);
  }

  private forget(dest: Destination): void {
    const p = this.pending.get(dest);
    if (p?.timer) clearTimeout(p.timer);
    this.pending.delete(dest);
  }
}
