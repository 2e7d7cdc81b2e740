/**
 * Keeps mindlink's embedded world running: when its process dies on its own
 * (a crash, a kill), it is started again on the same port with the same
 * data, so the avatars' reconnects find it. A world that keeps dying (5 times
 * in 10 minutes) is left down with an error line, as a crash loop is.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import { backoffMs, type Backoff } from '../../backoff.ts';
import { EmbeddedWorld, type EmbeddedWorldOptions } from './embedded-world.ts';

/** Events of a {@link WorldSupervisor}. */
export interface WorldSupervisorEvents {
  /** The world died on its own and was started again. */
  restarted: [];
  /** The world died too often and is left down. */
  gaveUp: [reason: string];
}

/** Restarts within this window count towards giving up. */
const CRASH_WINDOW_MS = 10 * 60_000;
const MAX_CRASHES = 5;
const RESTART_BACKOFF: Backoff = { minMs: 500, maxMs: 15_000 };

/**
 * @example
 * const world = await WorldSupervisor.start({ dataDir, log });
 * const game = new MineflayerGame({ host: world.host, port: world.port, … });
 * await world.stop();
 */
export class WorldSupervisor extends EventEmitter<WorldSupervisorEvents> {
  /** Where this machine reaches the world (127.0.0.1 unless it listens on one address only). */
  get host(): string {
    return this.#world.host;
  }
  #world: EmbeddedWorld;
  #stopping = false;
  #crashes: number[] = [];
  #restarting: Promise<void> | null = null;
  /** Ends the backoff of a restart under way (see {@link WorldSupervisor.stop}). */
  #endBackoff: (() => void) | undefined;

  private constructor(
    world: EmbeddedWorld,
    private readonly opts: EmbeddedWorldOptions,
    private readonly log: Logger,
  ) {
    super();
    this.#world = world;
    this.watch(world);
  }

  /** Start the world and watch it. */
  static async start(opts: EmbeddedWorldOptions): Promise<WorldSupervisor> {
    const world = await EmbeddedWorld.start(opts);
    // Later starts reuse the port the first one got, so avatars reconnect to the same address.
    return new WorldSupervisor(world, { ...opts, port: world.port }, opts.log);
  }

  /** The port the world listens on (the same across restarts). */
  get port(): number {
    return this.#world.port;
  }

  /** The Minecraft version the world serves. */
  get version(): string {
    return this.#world.version;
  }

  /** The world running now (a new one after each restart). */
  get world(): EmbeddedWorld {
    return this.#world;
  }

  /** Stop the world for good (no restart). A restart waiting out its backoff ends at once. */
  async stop(): Promise<void> {
    this.#stopping = true;
    // A restart waiting out its backoff ends now: its timer is unref'd, and a shutdown awaiting it with nothing
    // else left to run would let the process exit before the data files are written.
    this.#endBackoff?.();
    await this.#restarting;
    await this.#world.stop();
  }

  private watch(world: EmbeddedWorld): void {
    world.once('exit', (code, signal) => {
      if (this.#stopping || world !== this.#world) return;
      this.#restarting = this.restart(code, signal).finally(() => {
        this.#restarting = null;
      });
    });
  }

  private async restart(code: number | null, signal: NodeJS.Signals | null): Promise<void> {
    const now = Date.now();
    this.#crashes = [...this.#crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
    if (this.#crashes.length >= MAX_CRASHES) {
      const reason = `the embedded world died ${this.#crashes.length} times in 10 minutes (last: ${signal ?? `code ${code}`})`;
      this.log.error({ code, signal }, `${reason}; it is left down: restart mindlink`);
      this.emit('gaveUp', reason);
      return;
    }
    for (let attempt = 0; !this.#stopping; attempt += 1) {
      const delay = backoffMs(attempt, RESTART_BACKOFF);
      this.log.warn({ code, signal, inMs: delay }, 'the embedded world died; starting it again');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay).unref();
        this.#endBackoff = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#endBackoff = undefined;
      if (this.#stopping) return;
      try {
        const world = await EmbeddedWorld.start(this.opts);
        this.#world = world;
        this.watch(world);
        this.log.info({ port: world.port }, 'embedded world started again');
        this.emit('restarted');
        return;
      } catch (err) {
        this.log.error({ err }, 'the embedded world could not be started again');
      }
    }
  }
}
