/**
 * One avatar host's child process, as the core runs it: started (with the
 * TypeScript loader when it runs from source) with an IPC channel (the `HostToCore` / `CoreToHost`
 * messages), in its own process group (a terminal's Ctrl-C reaches the core
 * only, which stops the hosts itself after the loops have paused), its
 * stderr shared with the core's (its log lines), its stdout closed (stdout is
 * chat). A host that sends nothing for `aliveTimeoutMs` is taken as hung and
 * killed; the pool then starts it again.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { gameProcessEnvironment } from '../../config.ts';
import type { CoreToHost, HostConfig, HostToCore } from './protocol.ts';
import { childReady } from '../child-ready.ts';
import { profilingArgs } from '../profiling-args.ts';

/** Options of {@link HostProcess.start}. */
export interface HostProcessOptions {
  /** The host's entry script (`src/avatar-host.ts`). */
  entry: string;
  config: HostConfig;
  log: Logger;
  /** How long the host may take to say `ready`. */
  readyTimeoutMs?: number;
  /** A host silent for this long is killed (it sends `alive` every couple of seconds). */
  aliveTimeoutMs?: number;
}

/** Defaults of {@link HostProcessOptions}. */
/**
 * V8 flags of a host: a young generation of 32 MB a half (16 MB by default). Fifty avatars make short-lived
 * objects (packets, blocks, path nodes) faster than a small nursery is swept, so many were kept through two
 * sweeps and copied for nothing. Measured with 100 working avatars on two hosts (docs/benchmarks.md): the time
 * in garbage collection 8.7-9.8 -> 6.9-7.5 %, the hosts' event-loop p99 108-140 -> 76-98 ms, for some 35 MB
 * more per host.
 */
const HOST_V8_FLAGS = ['--max-semi-space-size=32'];

export const DefaultHostProcessOptions = { readyTimeoutMs: 60_000, aliveTimeoutMs: 60_000 } satisfies Required<Pick<HostProcessOptions, 'readyTimeoutMs' | 'aliveTimeoutMs'>>;

/** Events of a {@link HostProcess}. */
export interface HostProcessEvents {
  message: [HostToCore];
  exit: [code: number | null, signal: NodeJS.Signals | null];
}

/** The TypeScript loader a host started from source needs (one started from the build needs none). */
function loaderArgs(entry: string): string[] {
  return entry.endsWith('.ts') ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : [];
}

/**
 * @example
 * const host = await HostProcess.start({ entry, config: { index: 0, world }, log });
 * host.on('message', (m) => …);
 * host.send({ type: 'start', avatar: 'demo', server });
 */
export class HostProcess extends EventEmitter<HostProcessEvents> {
  readonly pid: number;
  #child: ChildProcess;
  #alive = true;
  #exited: Promise<void>;
  #lastHeard = Date.now();
  #watchdog: NodeJS.Timeout;
  #log: Logger;

  private constructor(child: ChildProcess, log: Logger, aliveTimeoutMs: number) {
    super();
    this.#child = child;
    this.#log = log;
    this.pid = child.pid ?? -1;
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.on('message', (m: HostToCore) => {
      this.#lastHeard = Date.now();
      this.emit('message', m);
    });
    child.once('exit', (code, signal) => {
      this.#alive = false;
      clearInterval(this.#watchdog);
      this.emit('exit', code, signal);
    });
    this.#watchdog = setInterval(() => {
      if (Date.now() - this.#lastHeard < aliveTimeoutMs) return;
      log.error({ pid: this.pid, silentMs: Date.now() - this.#lastHeard }, 'an avatar host stopped answering; killing it');
      this.kill('SIGKILL');
    }, Math.min(aliveTimeoutMs, 5000));
    this.#watchdog.unref();
  }

  /** Start a host and resolve once it is ready (rejects if it exits or stays silent first). */
  static async start(opts: HostProcessOptions): Promise<HostProcess> {
    const o = { ...DefaultHostProcessOptions, ...opts };
    const child = fork(o.entry, [JSON.stringify(o.config)], {
      execArgv: [...HOST_V8_FLAGS, ...loaderArgs(o.entry), ...profilingArgs()],
      cwd: process.cwd(),
      env: gameProcessEnvironment(),
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      detached: true,
      serialization: 'advanced',
    });
    await childReady<HostToCore, true>(child, {
      timeoutMs: o.readyTimeoutMs,
      answer: (m) => (m.type === 'ready' ? { ready: true } : undefined),
      timedOut: () => new Error(`avatar host ${o.config.index} was not ready within ${o.readyTimeoutMs} ms`),
      exited: (code, signal) => new Error(`avatar host ${o.config.index} exited during start-up (${signal ?? `code ${code}`})`),
    });
    return new HostProcess(child, o.log, o.aliveTimeoutMs);
  }

  /** Whether the process is still running. */
  get running(): boolean {
    return this.#alive;
  }

  /** Send a message; false when the host is gone (the pool then answers for it). */
  send(msg: CoreToHost): boolean {
    if (!this.#alive || !this.#child.connected) return false;
    this.#child.send(msg, (err) => {
      // The host died between the check and the send: its exit event does the rest.
      if (err) this.#log.debug({ err, pid: this.pid, message: msg.type }, 'message to a host that is gone');
    });
    return true;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.#alive) this.#child.kill(signal);
  }

  /** Ask the host to leave its games and exit; kill it after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.#alive) return;
    this.send({ type: 'shutdown' });
    const timer = setTimeout(() => this.kill('SIGKILL'), graceMs);
    await this.#exited;
    clearTimeout(timer);
  }
}
