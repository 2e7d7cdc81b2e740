/**
 * The persisted outbox: every post the core makes waits here (in
 * `outbox.json`) until its platform accepted it, so a restart re-sends only
 * posts that were never accepted, and nothing twice.
 *
 * The core calls {@link Outbox.post}; a {@link Courier} per bridge takes the
 * pending posts of its platform and reports back with
 * {@link Outbox.delivered}, {@link Outbox.retryLater} or {@link Outbox.drop}.
 */
import { EventEmitter } from 'node:events';
import type { Store } from '../store/store.ts';
import type { Card, Destination, Identity, Post, SentParts } from '../store/schema.ts';
import { outboxWriter } from '../store/writers/outbox.ts';

import { platformOf, type OutboxPlatform } from '../store/destination.ts';

export { platformOf, type OutboxPlatform };

/** What the core hands to {@link Outbox.post}; the outbox adds id, time and delivery bookkeeping. */
export interface NewPost {
  /** Where the post goes. */
  dest: Destination;
  /** The avatar the post is about, or null for a `[mindlink]` post. */
  avatar: string | null;
  /** The text, unsplit. */
  text: string;
  /** The one identity this post may ping, or null. */
  ping?: Identity | null;
  /** Platform message id this post replies to, or null. */
  replyTo?: string | null;
  /** What the post is. */
  kind: Post['kind'];
  /** Its card, kept with it until it is delivered (a restart included). */
  card?: Card;
  /** The key of the update it answers, when the platform may deliver that update again (`ChatContext.updateKey`). */
  answers?: string;
}


/** The width of the number in a post id (`p000123`); wider numbers simply grow. */
const ID_DIGITS = 6;
/** The most keys of answered updates kept: a platform delivers again only what came just before a kill. */
export const ANSWERED_LIMIT = 500;

/**
 * Posts not yet accepted by their platform, persisted in `outbox.json`: the
 * one writer of that file (its record writer is imported here only). Readers
 * get the posts read-only.
 *
 * Every change is made through the store's serialised writer; call
 * `store.flush()` to wait until it is on disk.
 *
 * @example
 * const outbox = new Outbox(store);
 * outbox.post({ dest: 'console', avatar: 'demo', text: 'Done: get 3 logs', kind: 'done' });
 * outbox.pending('console'); // → [ { id: 'p000001', … } ]
 */
export class Outbox extends EventEmitter<{ posted: [Post] }> {
  private readonly file;

  constructor(store: Store) {
    super();
    this.file = outboxWriter(store);
  }

  /** The pending posts, read-only. */
  private get posts(): readonly Readonly<Post>[] {
    return this.file.value.pending as readonly Post[];
  }

  /**
   * Queue a post (persisted) and emit `posted` with it. Its id comes from the file's sequence, e.g. `p000123`.
   * A post that `answers` an update marks that update answered in the same write (`src/handled-updates.ts`).
   */
  post(p: NewPost): Post {
    const post = this.file.update((d) => {
      d.seq += 1;
      const created: Post = {
        id: `p${String(d.seq).padStart(ID_DIGITS, '0')}`,
        dest: p.dest,
        avatar: p.avatar,
        text: p.text,
        ping: p.ping ?? null,
        replyTo: p.replyTo ?? null,
        kind: p.kind,
        createdAt: new Date().toISOString(),
        attempts: 0,
        notBefore: 0,
        ...(p.card ? { card: p.card } : {}),
        ...(p.answers !== undefined ? { answers: p.answers } : {}),
      };
      d.pending.push(created);
      if (p.answers !== undefined && !d.answered.includes(p.answers)) {
        d.answered.push(p.answers);
        if (d.answered.length > ANSWERED_LIMIT) d.answered.splice(0, d.answered.length - ANSWERED_LIMIT);
      }
      return created;
    });
    this.emit('posted', post);
    return post;
  }

  /** Resolve once every change to the outbox so far is on disk; throws StoreWriteError while the disk refuses it. */
  saved(): Promise<void> {
    return this.file.flush();
  }

  /** The pending posts of one platform, in creation order. */
  pending(platform: OutboxPlatform): Readonly<Post>[] {
    return this.posts.filter((p) => platformOf(p.dest) === platform);
  }

  /** Every pending post, in creation order. */
  all(): Readonly<Post>[] {
    return [...this.posts];
  }

  /** One pending post by id, or undefined once it was delivered or dropped. */
  get(id: string): Readonly<Post> | undefined {
    return this.posts.find((p) => p.id === id);
  }

  /** The platform accepted these posts: remove them (persisted). Unknown ids are ignored. */
  delivered(ids: string[]): void {
    this.remove(new Set(ids));
  }

  /** A delivery failed and may succeed later: count the attempt and hold the post until `now + retryAfterMs`. */
  retryLater(id: string, retryAfterMs: number, now: number = Date.now()): void {
    if (!this.get(id)) return;
    this.file.update((d) => {
      const post = d.pending.find((p) => p.id === id);
      if (!post) return;
      post.attempts += 1;
      post.notBefore = now + Math.max(0, retryAfterMs);
    });
  }

  /** The platform accepted the first parts of a multi-part post: remember them (persisted) so a retry sends only the rest. */
  partsSent(id: string, sent: SentParts): void {
    if (!this.get(id)) return;
    this.file.update((d) => {
      const post = d.pending.find((p) => p.id === id);
      if (post) post.sent = { parts: [...sent.parts], messageIds: [...sent.messageIds] };
    });
  }

  /** The post can never be delivered: remove it (persisted). */
  drop(id: string): void {
    this.remove(new Set([id]));
  }

  /** Drop every pending post to a chat (it blocked the bot or is gone) and return them. */
  dropDest(dest: Destination): Readonly<Post>[] {
    const dropped = this.posts.filter((p) => p.dest === dest);
    if (dropped.length > 0) this.remove(new Set(dropped.map((p) => p.id)));
    return dropped;
  }

  /**
   * A chat got a new address: every pending post to `from` now goes to `to`
   * (persisted), keeping its place in creation order, its attempts and its
   * retry time. Returns the moved posts.
   *
   * @example
   * outbox.moveDest('telegram:-4200', 'telegram:-1004200'); // → the group's posts, now for the supergroup
   */
  moveDest(from: Destination, to: Destination): Post[] {
    if (from === to || !this.posts.some((p) => p.dest === from)) return [];
    return this.file.update((d) => {
      const moved = d.pending.filter((p) => p.dest === from);
      for (const p of moved) p.dest = to;
      return moved;
    });
  }

  private remove(ids: ReadonlySet<string>): void {
    if (!this.posts.some((p) => ids.has(p.id))) return;
    this.file.update((d) => {
      d.pending = d.pending.filter((p) => !ids.has(p.id));
    });
  }
}
