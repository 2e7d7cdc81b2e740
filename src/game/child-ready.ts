/**
 * The start-up handshake with a child process mindlink runs (the embedded
 * world, an avatar host): wait for the message that says it is ready, and
 * fail with the caller's words when it says it failed, exits first, or stays
 * silent too long (then it is killed).
 */
import type { ChildProcess } from 'node:child_process';

/** What a message of the child means for its start: ready (with a value), failed, or neither. */
export type StartAnswer<T> = { ready: T } | { failed: Error } | undefined;

/** Options of {@link childReady}. */
export interface ChildReadyOptions<M, T> {
  timeoutMs: number;
  /** Reads each message of the child. */
  answer(message: M): StartAnswer<T>;
  /** The error when it stayed silent for `timeoutMs` (it is killed with SIGKILL). */
  timedOut(): Error;
  /** The error when it exited before it was ready. */
  exited(code: number | null, signal: NodeJS.Signals | null): Error;
}

/**
 * @example
 * const port = await childReady<ChildMessage, number>(child, {
 *   timeoutMs: 60_000,
 *   answer: (m) => (m.type === 'ready' ? { ready: m.port } : undefined),
 *   timedOut: () => new Error('the world did not start in time'),
 *   exited: (code) => new Error(`the world exited during start-up (code ${code})`),
 * });
 */
export function childReady<M, T>(child: ChildProcess, opts: ChildReadyOptions<M, T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(opts.timedOut());
    }, opts.timeoutMs);
    const onMessage = (m: M): void => {
      const a = opts.answer(m);
      if (!a) return;
      cleanup();
      if ('ready' in a) resolve(a.ready);
      else reject(a.failed);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      cleanup();
      reject(opts.exited(code, signal));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}
