/**
 * The default {@link HostSource}: `AVATAR_HOSTS` child processes on IPC
 * channels, one per slot (docs/avatar-hosts.md).
 *
 * - A host that dies is `restarting`: it is started again in its slot (with
 *   backoff) and its avatars wait for it there.
 * - A slot whose host dies 5 times in 10 minutes is given up (`gone`): its
 *   avatars are placed on the other hosts.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { backoffMs, type Backoff } from '../../backoff.ts';
import { HOST_RESTARTING } from './hosted-game.ts';
import { HostProcess } from './host-process.ts';
import type { CoreToHost, WorldAddress } from './protocol.ts';
import type { HostSource, HostSourceEvents } from './source.ts';

/** Options of {@link ChildHosts}. */
export interface ChildHostsOptions {
  count: number;
  /** The host's entry script (`src/avatar-host.ts`). */
  entry: string;
  /** The embedded world, or the world still starting: the hosts start meanwhile and are told where it is once it listens. */
  world: WorldAddress | null | Promise<WorldAddress | null>;
  log: Logger;
  /** Pause before a dead host is started again (doubling). */
  restart?: Backoff;
  /** A slot whose host dies this often within `windowMs` is given up. */
  crashLoop?: { count: number; windowMs: number };
  /** Passed to each {@link HostProcess}. */
  aliveTimeoutMs?: number;
}

/** Defaults of {@link ChildHostsOptions}. */
export const DefaultChildHostsOptions = {
  restart: { minMs: 500, maxMs: 15_000 },
  crashLoop: { count: 5, windowMs: 10 * 60_000 },
} satisfies Required<Pick<ChildHostsOptions, 'restart' | 'crashLoop'>>;

/** Why the avatars of a given-up slot fail when no other slot is left. */
export const CRASH_LOOP = 'crash loop in its avatar hosts (every host kept dying): restart mindlink';

interface Slot {
  index: number;
  proc: HostProcess | null;
  deaths: number[];
  gaveUp: boolean;
}

/**
 * @example
 * const source = new ChildHosts({ count: 2, entry, world, log });
 * const pool = await HostPool.over(source, log);
 */
export class ChildHosts extends EventEmitter<HostSourceEvents> implements HostSource {
  #o: ChildHostsOptions & typeof DefaultChildHostsOptions;
  #slots: Slot[];
  #closing = false;

  constructor(opts: ChildHostsOptions) {
    super();
    this.#o = { ...DefaultChildHostsOptions, ...opts };
    this.#slots = Array.from({ length: this.#o.count }, (_, index) => ({ index, proc: null, deaths: [], gaveUp: false }));
  }

  get canGrow(): boolean {
    return this.#slots.some((s) => !s.gaveUp);
  }

  /** The process ids of the hosts now running, by slot. */
  pids(): Array<number | null> {
    return this.#slots.map((s) => (s.proc?.running ? s.proc.pid : null));
  }

  /** Resolves once every host is ready and the world (when it was still starting) listens: each host is told where. */
  async start(): Promise<void> {
    const starting = Promise.all(this.#slots.map((s) => HostProcess.start(this.#processOptions(s.index))));
    const [procs, world] = await Promise.all([starting, this.#o.world]).catch(async (err: unknown) => {
      // One of the two failed: leave no host behind.
      await starting.then((ps) => Promise.all(ps.map((p) => p.stop())), () => undefined);
      throw err;
    });
    if (this.#o.world instanceof Promise) for (const proc of procs) proc.send({ type: 'world', world });
    // A host started again later is told the world at once.
    this.#o.world = world;
    this.#o.log.info({ hosts: procs.map((p) => p.pid) }, 'avatar hosts ready');
    for (const [i, proc] of procs.entries()) {
      const slot = this.#slots[i];
      if (slot) this.#up(slot, proc);
    }
  }

  send(key: string, msg: CoreToHost): boolean {
    return this.#slots[Number(key)]?.proc?.send(msg) ?? false;
  }

  /** Stop every host (their games leave first); no restarts from now on. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all(this.#slots.map((s) => s.proc?.stop()));
  }

  #processOptions(index: number) {
    const o = this.#o;
    const config = o.world instanceof Promise ? { index } : { index, world: o.world };
    return { entry: o.entry, config, log: o.log, ...(o.aliveTimeoutMs ? { aliveTimeoutMs: o.aliveTimeoutMs } : {}) };
  }

  #up(slot: Slot, proc: HostProcess): void {
    slot.proc = proc;
    const key = String(slot.index);
    proc.on('message', (m) => this.emit('message', key, m));
    proc.once('exit', (code, signal) => this.#onExit(slot, proc, code, signal));
    this.emit('up', { key, name: slot.index, pid: proc.pid, capacity: null });
  }

  #onExit(slot: Slot, proc: HostProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.proc !== proc) return;
    slot.proc = null;
    const key = String(slot.index);
    this.emit('down', key, { kind: 'restarting', reason: HOST_RESTARTING });
    if (this.#closing) return;
    const now = Date.now();
    const { count, windowMs } = this.#o.crashLoop;
    slot.deaths = [...slot.deaths.filter((t) => now - t < windowMs), now];
    if (slot.deaths.length >= count) {
      slot.gaveUp = true;
      this.#o.log.error({ avatarHost: slot.index, code, signal, deaths: slot.deaths.length }, 'an avatar host keeps dying; its avatars move to the other hosts');
      this.emit('down', key, { kind: 'gone', reason: this.canGrow ? HOST_RESTARTING : CRASH_LOOP });
      return;
    }
    this.#o.log.warn({ avatarHost: slot.index, pid: proc.pid, code, signal }, 'an avatar host died; starting it again');
    void this.#restart(slot);
  }

  async #restart(slot: Slot): Promise<void> {
    for (let attempt = 0; !this.#closing; attempt += 1) {
      await new Promise((r) => setTimeout(r, backoffMs(attempt + slot.deaths.length - 1, this.#o.restart)).unref());
      if (this.#closing) return;
      try {
        const proc = await HostProcess.start(this.#processOptions(slot.index));
        if (this.#closing) {
          await proc.stop();
          return;
        }
        this.#o.log.info({ avatarHost: slot.index, pid: proc.pid }, 'avatar host started again');
        this.#up(slot, proc);
        return;
      } catch (err) {
        this.#o.log.error({ err, avatarHost: slot.index }, 'an avatar host could not be started again');
      }
    }
  }
}
