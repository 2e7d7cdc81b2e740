/**
 * Event waits for the fake: a probe is checked now and after every change
 * in the fake, and its first non-undefined value resolves the wait. No
 * sleeps, no polling; closing rejects every pending wait.
 */
interface Waiter {
  check(): boolean;
  fail(error: Error): void;
}

export class Waits {
  readonly #waiters = new Set<Waiter>();
  #closed = false;

  /** Re-checks every wait; call after any change. */
  changed(): void {
    for (const w of [...this.#waiters]) if (w.check()) this.#waiters.delete(w);
  }

  /** Resolves with the first non-undefined value `probe` returns (checked now and after every change). */
  waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
    if (this.#closed) return Promise.reject(new Error(`fake Discord is closed (waiting for ${what})`));
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        check: () => {
          const value = probe();
          if (value === undefined) return false;
          resolve(value);
          return true;
        },
        fail: reject,
      };
      if (!waiter.check()) this.#waiters.add(waiter);
    });
  }

  /** Rejects every pending wait. */
  close(): void {
    this.#closed = true;
    for (const w of this.#waiters) w.fail(new Error('fake Discord closed while a test was waiting on it'));
    this.#waiters.clear();
  }
}
