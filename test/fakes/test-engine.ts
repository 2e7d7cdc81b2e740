/**
 * A deterministic engine for tests: replies come from a script (a function of
 * the request) written in the reporting protocol, as a model writes them and
 * read as the llm engine reads them; every request is recorded, and each turn
 * can be awaited. Like an engine that does not stop in time, it ignores its
 * abort signal (the loop stops waiting for it).
 */
import { EventEmitter } from 'node:events';
import type { Engine, SessionInfo, TurnReply, TurnRequest } from '../../src/engines/engine.ts';
import { readReport } from '../../src/engines/llm/protocol.ts';

export type Script = (req: TurnRequest, n: number) => string | Error | Promise<string | Error>;

export class TestEngine extends EventEmitter<{ turned: [TurnRequest] }> implements Engine {
  readonly name = 'test';
  readonly requests: TurnRequest[] = [];
  resets = 0;
  sessionInfo: SessionInfo = { startedAt: Date.now(), size: 0 };

  constructor(public script: Script) {
    super();
  }

  async turn(req: TurnRequest, _signal: AbortSignal): Promise<TurnReply> {
    this.requests.push(req);
    this.emit('turned', req);
    const out = await this.script(req, this.requests.length);
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
