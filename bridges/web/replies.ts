/**
 * Replies awaited by a page: a direction sent from the page is answered like a
 * chat message, by a post to the page's destination that replies to it. The
 * request that sent it waits a little for that post, so the page can show the
 * answer beside the field; later answers (a question's) reach the page live.
 */

/** How long a request waits for its reply (ms). */
export const REPLY_WAIT_MS = 10_000;

/** A reply as the page shows it. */
export interface PageReply {
  id: string;
  avatar: string | null;
  text: string;
}

/**
 * @example
 * const replies = new Replies();
 * const answered = replies.wait(messageId);   // before the message is handed on
 * replies.delivered(post.replyTo, { id: post.id, avatar: post.avatar, text }); // from the bridge's deliver
 * await answered; // → the reply, or null after REPLY_WAIT_MS
 */
export class Replies {
  private readonly waiting = new Map<string, (reply: PageReply | null) => void>();

  constructor(private readonly waitMs = REPLY_WAIT_MS) {}

  /** The first reply to message `id`, or null when none comes in time. */
  wait(id: string): Promise<PageReply | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(null), this.waitMs);
      timer.unref();
      const settle = (reply: PageReply | null): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(reply);
      };
      this.waiting.set(id, settle);
    });
  }

  /** A post replying to message `replyTo` was delivered to its page. */
  delivered(replyTo: string | null, reply: PageReply): void {
    if (replyTo) this.waiting.get(replyTo)?.(reply);
  }

  /** Let every waiting request go (shutdown). */
  release(): void {
    for (const settle of [...this.waiting.values()]) settle(null);
  }
}
