/**
 * Work kept in order per key: a job runs once every job queued before it under the same key has
 * settled (done or failed), and keys do not wait for each other. A chat's messages are handled in
 * the order they came; one file's writes never overlap.
 */

/**
 * @example
 * const perChat = new KeyedQueue();
 * void perChat.run(dest, () => handle(msg)).catch((err: unknown) => log.error({ err }, 'handler failed'));
 * await perChat.idle(); // on stop: every job queued so far has settled
 */
export class KeyedQueue {
  /** Per key, the settling of its last job (never rejects). */
  private readonly tails = new Map<string, Promise<void>>();

  /** Run `job` after the jobs queued under `key` so far; its result or its error is the caller's. */
  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(job);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves once every job queued so far under `key` has settled. */
  async idleFor(key: string): Promise<void> {
    await this.tails.get(key);
  }

  /** Resolves once every job queued so far, under any key, has settled. */
  async idle(): Promise<void> {
    await Promise.all(this.tails.values());
  }
}
