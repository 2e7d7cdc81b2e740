/**
 * Bounded waits on work mindlink does not control (an engine's turn, a bot
 * leaving the game): a chat answer or a stop never hangs on one of them. The
 * work itself goes on; only the wait for it ends.
 */

/**
 * Wait for `work`, at most `ms`. Resolves `true` when it settled in time (either way), `false` when the
 * wait ran out first. A rejection of `work` is not rethrown: the caller handles it on `work` itself.
 *
 * @example
 * if (!(await settledWithin(game.stop(), 1000))) log.warn('still leaving the game');
 */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `work`'s outcome, unless `signal` aborts and `work` has still not settled `graceMs` later: then it
 * rejects with the abort reason and `work`, left behind, is handed to `abandoned` (to log it and catch
 * its late rejection).
 *
 * @example
 * const reply = await unlessAbandoned(engine.turn(req, signal), signal, 1000, (late) => late.catch(logIt));
 */
export function unlessAbandoned<T>(work: Promise<T>, signal: AbortSignal, graceMs: number, abandoned: (late: Promise<T>) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      timer = setTimeout(() => {
        if (done) return;
        finish();
        abandoned(work);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      }, graceMs);
    };
    work.then(
      (v) => {
        if (done) return;
        finish();
        resolve(v);
      },
      (err: unknown) => {
        if (done) return;
        finish();
        reject(err);
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}
