/**
 * The avatar hosts of the core: `AVATAR_HOSTS` child processes, each owning
 * the games (and skills and reflexes) of the avatars placed on it.
 *
 * - An avatar is placed when its game starts, on the host with the fewest
 *   avatars playing (the lowest slot on a tie), and stays there until it stops.
 * - Every call gets its answer: a skill's result, a stop, a map, a scene. A host that
 *   dies answers for itself: its running skills end `aborted` (as when a
 *   connection drops), its avatars are out of the world (`waiting`).
 * - A host that dies is started again in its slot (with backoff) and its
 *   avatars join again there and carry on; the other hosts, the chats and the
 *   core go on as they were. A slot whose host dies 5 times in 10 minutes is
 *   given up and its avatars are placed on the others.
 */
import type { Logger } from 'pino';
import { backoffMs, type Backoff } from '../../backoff.ts';
import type { GameCapabilities, GameServer, SayOutcome, Scene } from '../game.ts';
import type { SkillResult } from '../skill.ts';
import type { TopDownMap } from '../top-down.ts';
import { HostedGame, type HostLink } from './hosted-game.ts';
import { HostProcess } from './host-process.ts';
import type { CoreToHost, HostToCore, WorldAddress } from './protocol.ts';

/** Options of {@link HostPool.start}. */
export interface HostPoolOptions {
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

/** Defaults of {@link HostPoolOptions}. */
export const DefaultHostPoolOptions = {
  restart: { minMs: 500, maxMs: 15_000 },
  crashLoop: { count: 5, windowMs: 10 * 60_000 },
} satisfies Required<Pick<HostPoolOptions, 'restart' | 'crashLoop'>>;

interface Slot {
  index: number;
  proc: HostProcess | null;
  /** Games placed here, by avatar name. */
  games: Map<string, HostedGame>;
  deaths: number[];
  gaveUp: boolean;
}

type Pending =
  | { kind: 'skill'; slot: Slot; skill: string; resolve: (r: SkillResult) => void }
  | { kind: 'stop'; slot: Slot; resolve: () => void }
  | { kind: 'map'; slot: Slot; resolve: (m: TopDownMap | null) => void }
  | { kind: 'scene'; slot: Slot; resolve: (s: Scene | null) => void }
  | { kind: 'say'; slot: Slot; resolve: (o: SayOutcome) => void };

/**
 * @example
 * const pool = await HostPool.start({ count: 2, entry, world, log });
 * const game = pool.game('demo', server, EMBEDDED_CAPABILITIES);
 * await game.start();
 * await pool.close();
 */
export class HostPool implements HostLink {
  #o: HostPoolOptions & typeof DefaultHostPoolOptions;
  #slots: Slot[];
  #placed = new Map<HostedGame, Slot>();
  /** Games that should be in the world (started and not stopped). */
  #started = new Set<HostedGame>();
  #pending = new Map<number, Pending>();
  #calls = 0;
  #closing = false;

  private constructor(o: HostPoolOptions & typeof DefaultHostPoolOptions, slots: Slot[]) {
    this.#o = o;
    this.#slots = slots;
    for (const slot of slots) if (slot.proc) this.#watch(slot, slot.proc);
  }

  /**
   * Start `count` hosts and resolve once every one is ready (and the world, when it is still starting, listens:
   * the hosts start while it does, and are told where it is).
   */
  static async start(opts: HostPoolOptions): Promise<HostPool> {
    const o = { ...DefaultHostPoolOptions, ...opts };
    const starting = Promise.all(Array.from({ length: o.count }, (_, index) => HostProcess.start(HostPool.#processOptions(o, index))));
    const [procs, world] = await Promise.all([starting, o.world]).catch(async (err: unknown) => {
      // One of the two failed: leave no host behind.
      await starting.then((ps) => Promise.all(ps.map((p) => p.stop())), () => undefined);
      throw err;
    });
    if (o.world instanceof Promise) for (const proc of procs) proc.send({ type: 'world', world });
    const slots = procs.map((proc, index): Slot => ({ index, proc, games: new Map(), deaths: [], gaveUp: false }));
    o.log.info({ hosts: procs.map((p) => p.pid) }, 'avatar hosts ready');
    return new HostPool({ ...o, world }, slots);
  }

  static #processOptions(o: HostPoolOptions, index: number) {
    const config = o.world instanceof Promise ? { index } : { index, world: o.world };
    return { entry: o.entry, config, log: o.log, ...(o.aliveTimeoutMs ? { aliveTimeoutMs: o.aliveTimeoutMs } : {}) };
  }

  /** The game of one avatar, run on a host from its first start. */
  game(avatar: string, server: GameServer, capabilities: GameCapabilities): HostedGame {
    return new HostedGame(this, avatar, server, capabilities);
  }

  /** The slot an avatar's game is placed on, if any (tests, logs). */
  slotOf(game: HostedGame): number | undefined {
    return this.#placed.get(game)?.index;
  }

  /** The process ids of the hosts now running, by slot. */
  pids(): Array<number | null> {
    return this.#slots.map((s) => (s.proc?.running ? s.proc.pid : null));
  }

  start(game: HostedGame): void {
    this.#started.add(game);
    const slot = this.#placed.get(game) ?? this.#place(game);
    if (!slot) {
      game.emit('failed', 'crash loop in its avatar hosts (every host kept dying): restart mindlink');
      return;
    }
    this.#send(slot, { type: 'start', avatar: game.username, server: game.server, hear: game.hearing });
  }

  hear(game: HostedGame, on: boolean): void {
    // A game not placed yet tells its host with its start.
    const slot = this.#placed.get(game);
    if (slot) this.#send(slot, { type: 'hear', avatar: game.username, on });
  }

  say(game: HostedGame, line: string): Promise<SayOutcome> {
    const slot = this.#placed.get(game);
    if (!slot?.proc?.running) return Promise.resolve('not_in_game');
    return new Promise((resolve) => {
      const call = this.#call({ kind: 'say', slot, resolve });
      if (!this.#send(slot, { type: 'say', avatar: game.username, call, line })) this.#answer(call);
    });
  }

  async stop(game: HostedGame): Promise<void> {
    this.#started.delete(game);
    const slot = this.#placed.get(game);
    if (!slot) return;
    await new Promise<void>((resolve) => {
      const call = this.#call({ kind: 'stop', slot, resolve });
      if (!this.#send(slot, { type: 'stop', avatar: game.username, call })) this.#answer(call);
    });
    // A later start places it again, on whichever host is least loaded then.
    slot.games.delete(game.username);
    this.#placed.delete(game);
  }

  runSkill(game: HostedGame, id: string, params: unknown, signal: AbortSignal): Promise<SkillResult> {
    const slot = this.#placed.get(game);
    if (!slot?.proc?.running) return Promise.resolve({ ok: false, code: 'not_connected', detail: 'not in the game right now' });
    return new Promise<SkillResult>((resolve) => {
      const onAbort = (): void => {
        const reason: unknown = signal.reason;
        this.#send(slot, { type: 'abort', call, reason: reason instanceof Error ? reason.message : String(reason ?? 'aborted') });
      };
      const call = this.#call({
        kind: 'skill',
        slot,
        skill: id,
        resolve: (r) => {
          signal.removeEventListener('abort', onAbort);
          resolve(r);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      if (!this.#send(slot, { type: 'skill', avatar: game.username, call, skill: id, params, aborted: signal.aborted })) this.#answer(call);
    });
  }

  map(game: HostedGame, radius: number): Promise<TopDownMap | null> {
    const slot = this.#placed.get(game);
    if (!slot) return Promise.resolve(null);
    return new Promise((resolve) => {
      const call = this.#call({ kind: 'map', slot, resolve });
      if (!this.#send(slot, { type: 'map', avatar: game.username, call, radius })) this.#answer(call);
    });
  }

  scene(game: HostedGame, radius: number, blocks: boolean): Promise<Scene | null> {
    const slot = this.#placed.get(game);
    if (!slot) return Promise.resolve(null);
    return new Promise((resolve) => {
      const call = this.#call({ kind: 'scene', slot, resolve });
      if (!this.#send(slot, { type: 'scene', avatar: game.username, call, radius, blocks })) this.#answer(call);
    });
  }

  /** Stop every host (their games leave first); no restarts from now on. */
  async close(): Promise<void> {
    this.#closing = true;
    await Promise.all(this.#slots.map((s) => s.proc?.stop()));
  }

  #place(game: HostedGame): Slot | undefined {
    const open = this.#slots.filter((s) => !s.gaveUp);
    const slot = open.reduce<Slot | undefined>((best, s) => (!best || s.games.size < best.games.size ? s : best), undefined);
    if (!slot) return undefined;
    slot.games.set(game.username, game);
    this.#placed.set(game, slot);
    this.#o.log.info({ avatar: game.username, avatarHost: slot.index, pid: slot.proc?.pid }, 'placed on an avatar host');
    return slot;
  }

  #call(p: Pending): number {
    const call = ++this.#calls;
    this.#pending.set(call, p);
    return call;
  }

  /** Settle a call, with the host's answer or, when there is none, the one a dropped connection gives. */
  #answer(call: number, reply?: HostToCore): void {
    const p = this.#pending.get(call);
    if (!p) return;
    this.#pending.delete(call);
    if (p.kind === 'skill') p.resolve(reply?.type === 'skillResult' ? reply.result : { ok: false, code: 'aborted', detail: `${p.skill} was stopped` });
    else if (p.kind === 'map') p.resolve(reply?.type === 'map' ? reply.map : null);
    else if (p.kind === 'scene') p.resolve(reply?.type === 'scene' ? reply.scene : null);
    else if (p.kind === 'say') p.resolve(reply?.type === 'said' ? reply.outcome : 'not_in_game');
    else p.resolve();
  }

  #send(slot: Slot, msg: CoreToHost): boolean {
    return slot.proc?.send(msg) ?? false;
  }

  #watch(slot: Slot, proc: HostProcess): void {
    proc.on('message', (m) => this.#onMessage(slot, m));
    proc.once('exit', (code, signal) => this.#onExit(slot, proc, code, signal));
  }

  #onMessage(slot: Slot, m: HostToCore): void {
    switch (m.type) {
      case 'skillResult':
      case 'said':
      case 'stopped':
      case 'map':
      case 'scene':
        this.#answer(m.call, m);
        return;
      case 'state':
        slot.games.get(m.avatar)?.applyState(m);
        return;
      case 'snapshot':
        slot.games.get(m.avatar)?.applySnapshot(m.snapshot);
        return;
      case 'event':
        slot.games.get(m.avatar)?.applyEvent(m);
        return;
      case 'claim':
        for (const other of this.#slots) if (other !== slot) this.#send(other, m);
        return;
      case 'ready':
      case 'alive':
        return;
    }
  }

  #onExit(slot: Slot, proc: HostProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (slot.proc !== proc) return;
    slot.proc = null;
    for (const [call, p] of [...this.#pending]) if (p.slot === slot) this.#answer(call);
    if (this.#closing) return;
    for (const game of slot.games.values()) game.hostLost();
    const now = Date.now();
    const { count, windowMs } = this.#o.crashLoop;
    slot.deaths = [...slot.deaths.filter((t) => now - t < windowMs), now];
    const avatars = [...slot.games.keys()];
    if (slot.deaths.length >= count) {
      slot.gaveUp = true;
      this.#o.log.error({ avatarHost: slot.index, code, signal, deaths: slot.deaths.length, avatars }, 'an avatar host keeps dying; its avatars move to the other hosts');
      const moving = [...slot.games.values()];
      slot.games.clear();
      for (const game of moving) {
        this.#placed.delete(game);
        if (this.#started.has(game)) this.start(game);
      }
      return;
    }
    this.#o.log.warn({ avatarHost: slot.index, pid: proc.pid, code, signal, avatars }, 'an avatar host died; starting it again');
    void this.#restart(slot);
  }

  async #restart(slot: Slot): Promise<void> {
    for (let attempt = 0; !this.#closing; attempt += 1) {
      await new Promise((r) => setTimeout(r, backoffMs(attempt + slot.deaths.length - 1, this.#o.restart)).unref());
      if (this.#closing) return;
      try {
        const proc = await HostProcess.start(HostPool.#processOptions(this.#o, slot.index));
        if (this.#closing) {
          await proc.stop();
          return;
        }
        slot.proc = proc;
        this.#watch(slot, proc);
        this.#o.log.info({ avatarHost: slot.index, pid: proc.pid, avatars: [...slot.games.keys()] }, 'avatar host started again');
        for (const game of slot.games.values()) {
          if (this.#started.has(game)) this.#send(slot, { type: 'start', avatar: game.username, server: game.server, hear: game.hearing });
        }
        return;
      } catch (err) {
        this.#o.log.error({ err, avatarHost: slot.index }, 'an avatar host could not be started again');
      }
    }
  }
}
