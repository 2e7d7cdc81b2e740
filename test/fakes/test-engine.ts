/**
 * A deterministic engine for tests: replies come from a script (a function of
 * the request) written in the reporting protocol, as a model writes them and
 * read as the llm engine reads them; every request is recorded, and each turn
 * can be awaited. Like an engine that does not stop in time, it ignores its
 * abort signal (the loop stops waiting for it), unless built with
 * `stopsOnAbort`: then it keeps the engine contract and rejects with
 * TurnInterruptedError as soon as its signal aborts.
 */
import { EventEmitter } from 'node:events';
import { TurnInterruptedError, type Engine, type SessionInfo, type TurnReply, type TurnRequest } from '../../src/engines/engine.ts';
import { readReport } from '../../src/engines/llm/protocol.ts';

export type Script = (req: TurnRequest, n: number) => string | Error | Promise<string | Error>;

export class TestEngine extends EventEmitter<{ turned: [TurnRequest] }> implements Engine {
  readonly name = 'test';
  readonly requests: TurnRequest[] = [];
  resets = 0;
  sessionInfo: SessionInfo = { startedAt: Date.now(), size: 0 };

  constructor(
    public script: Script,
    private readonly opts: { stopsOnAbort?: boolean } = {},
  ) {
    super();
  }

  async turn(req: TurnRequest, signal: AbortSignal): Promise<TurnReply> {
    this.requests.push(req);
    this.emit('turned', req);
    const work = Promise.resolve(this.script(req, this.requests.length));
    const out = this.opts.stopsOnAbort ? await Promise.race([work, interruption(signal)]) : await work;
    if (out instanceof Error) throw out;
    return { report: readReport(out) };
  }

  session(): SessionInfo {
    return this.sessionInfo;
  }

  resetSession(): void {
    this.resets++;
    this.sessionInfo = { startedAt: Date.now(), size: 0 };
  }

  /** Resolves with the next request (or the n-th overall when already there). */
  nextTurn(count = this.requests.length + 1): Promise<TurnRequest> {
    const have = this.requests[count - 1];
    if (have) return Promise.resolve(have);
    return new Promise((resolve) => {
      const on = (): void => {
        const r = this.requests[count - 1];
        if (r) {
          this.off('turned', on);
          resolve(r);
        }
      };
      this.on('turned', on);
    });
  }
}

/** Rejects with TurnInterruptedError once `signal` aborts (never resolves). */
function interruption(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    const stop = (): void => reject(new TurnInterruptedError({ promptTokens: 0, completionTokens: 0, requests: 0 }, signal.reason));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
}
