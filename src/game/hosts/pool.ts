/**
 * The avatar hosts of the core, whatever carries their messages (a
 * {@link HostSource}: child processes on IPC, or hosts on other machines over
 * NATS): each owns the games (and skills and reflexes) of the avatars placed
 * on it.
 *
 * - An avatar is placed when its game starts, on the live host with the
 *   lowest load (avatars over capacity; the fewest avatars, the first host on
 *   a tie), and stays there until it stops. With no live host (or every one
 *   full) it waits, out of the world, and is placed on the first that comes.
 * - Every placement has a number, carried by each call about the avatar and
 *   each message back: what a host says about an avatar under an older number
 *   is dropped, and a host that says it still plays an avatar placed elsewhere
 *   since is told to drop it.
 * - Every call gets its answer: a skill's result, a stop, a line said, a map, a scene. A host
 *   that goes down answers for itself: its running skills end `aborted` (as
 *   when a connection drops), its avatars are out of the world (`waiting`).
 *   A host that restarts in place gets its avatars back; a host that is gone
 *   (given up, or silent past the bound over NATS) has them placed on others.
 */
import type { Logger } from 'pino';
import type { GameCapabilities, GameServer, SayOutcome, Scene } from '../game.ts';
import type { SkillResult } from '../skill.ts';
import type { TopDownMap } from '../top-down.ts';
import { ChildHosts, CRASH_LOOP, type ChildHostsOptions } from './child-hosts.ts';
import { HostedGame, type HostLink } from './hosted-game.ts';
import type { CoreToHost, HostToCore } from './protocol.ts';
import type { HostDown, HostInfo, HostSource } from './source.ts';

/** Options of {@link HostPool.start}: the child hosts'. */
export type HostPoolOptions = ChildHostsOptions;

/** Why an avatar is out of the world while no host can take it. */
export const NO_HOST = 'no avatar host is connected';
/** Why an avatar is out of the world while every host is full. */
export const HOSTS_FULL = 'every avatar host is full: add a host';

interface Slot {
  info: HostInfo;
  up: boolean;
  /** Games placed here, by avatar name. */
  games: Map<string, HostedGame>;
}

type Pending =
  | { kind: 'skill'; slot: Slot; placement: number; skill: string; resolve: (r: SkillResult) => void }
  | { kind: 'stop'; slot: Slot; placement: number; resolve: () => void }
  | { kind: 'map'; slot: Slot; placement: number; resolve: (m: TopDownMap | null) => void }
  | { kind: 'scene'; slot: Slot; placement: number; resolve: (s: Scene | null) => void }
  | { kind: 'say'; slot: Slot; placement: number; resolve: (o: SayOutcome) => void };

/**
 * @example
 * const pool = await HostPool.start({ count: 2, entry, world, log });
 * const game = pool.game('demo', server, EMBEDDED_CAPABILITIES);
 * await game.start();
 * await pool.close();
 */
export class HostPool implements HostLink {
  #source: HostSource;
  #log: Logger;
  #slots = new Map<string, Slot>();
  #placed = new Map<HostedGame, Slot>();
  /** The number of each game's placement. */
  #placement = new Map<HostedGame, number>();
  #placements = 0;
  /** Games that should be in the world (started and not stopped). */
  #started = new Set<HostedGame>();
  /** Started games on no host yet: placed as soon as one can take them. */
  #waiting = new Set<HostedGame>();
  #pending = new Map<number, Pending>();
  #calls = 0;
  #closing = false;

  private constructor(source: HostSource, log: Logger) {
    this.#source = source;
    this.#log = log;
    source.on('up', (info) => this.#onUp(info));
    source.on('down', (key, how) => this.#onDown(key, how));
    source.on('message', (key, m) => this.#onMessage(key, m));
  }

  /**
   * Start `count` child hosts and resolve once every one is ready (and the world, when it is still starting,
   * listens: the hosts start while it does, and are told where it is).
   */
  static async start(opts: HostPoolOptions): Promise<HostPool> {
    return HostPool.over(new ChildHosts(opts), opts.log);
  }

  /** A pool over the hosts of `source`, resolved once the source has started. */
  static async over(source: HostSource, log: Logger): Promise<HostPool> {
    const pool = new HostPool(source, log);
    await source.start();
    return pool;
  }

  /** The game of one avatar, run on a host from its first start. */
  game(avatar: string, server: GameServer, capabilities: GameCapabilities): HostedGame {
    return new HostedGame(this, avatar, server, capabilities);
  }

  /** The host an avatar's game is placed on, if any (tests, logs): a child's slot number, a NATS host's id. */
  slotOf(game: HostedGame): string | number | undefined {
    return this.#placed.get(game)?.info.name;
  }

  /** The process ids of the hosts now up (a child's slot is null while it restarts). */
  pids(): Array<number | null> {
    return [...this.#slots.values()].map((s) => (s.up ? s.info.pid : null));
  }

  start(game: HostedGame): void {
    this.#started.add(game);
    const slot = this.#placed.get(game) ?? this.#place(game);
    if (slot) this.#sendStart(slot, game);
    else this.#wait(game);
  }

  hear(game: HostedGame, on: boolean): void {
    // A game not placed yet tells its host with its start.
    const slot = this.#placed.get(game);
    const placement = this.#placement.get(game);
    if (slot && placement !== undefined) this.#send(slot, { type: 'hear', avatar: game.username, placement, on });
  }

  say(game: HostedGame, line: string): Promise<SayOutcome> {
    const slot = this.#placed.get(game);
    const placement = this.#placement.get(game) ?? 0;
    if (!slot?.up) return Promise.resolve('not_in_game');
    return new Promise((resolve) => {
      const call = this.#call({ kind: 'say', slot, placement, resolve });
      if (!this.#send(slot, { type: 'say', avatar: game.username, placement, call, line })) this.#answer(call);
    });
  }

  async stop(game: HostedGame): Promise<void> {
    this.#started.delete(game);
    this.#waiting.delete(game);
    const slot = this.#placed.get(game);
    if (!slot) return;
    const placement = this.#placement.get(game) ?? 0;
    await new Promise<void>((resolve) => {
      const call = this.#call({ kind: 'stop', slot, placement, resolve });
      if (!this.#send(slot, { type: 'stop', avatar: game.username, placement, call })) this.#answer(call);
    });
    // A later start places it again, on whichever host is least loaded then.
    if (this.#placed.get(game) === slot) this.#unplace(game);
  }

  runSkill(game: HostedGame, id: string, params: unknown, signal: AbortSignal): Promise<SkillResult> {
    const slot = this.#placed.get(game);
    const placement = this.#placement.get(game) ?? 0;
    if (!slot?.up) return Promise.resolve({ ok: false, code: 'not_connected', detail: 'not in the game right now' });
    return new Promise<SkillResult>((resolve) => {
      const onAbort = (): void => {
        const reason: unknown = signal.reason;
        this.#send(slot, { type: 'abort', call, reason: reason instanceof Error ? reason.message : String(reason ?? 'aborted') });
      };
      const call = this.#call({
        kind: 'skill',
        slot,
        placement,
        skill: id,
        resolve: (r) => {
          signal.removeEventListener('abort', onAbort);
          resolve(r);
        },
      });
      signal.addEventListener('abort', onAbort, { once: true });
      if (!this.#send(slot, { type: 'skill', avatar: game.username, placement, call, skill: id, params, aborted: signal.aborted })) this.#answer(call);
    });
  }

  map(game: HostedGame, radius: number): Promise<TopDownMap | null> {
    const slot = this.#placed.get(game);
    const placement = this.#placement.get(game) ?? 0;
    if (!slot) return Promise.resolve(null);
    return new Promise((resolve) => {
      const call = this.#call({ kind: 'map', slot, placement, resolve });
      if (!this.#send(slot, { type: 'map', avatar: game.username, placement, call, radius })) this.#answer(call);
    });
  }

  scene(game: HostedGame, radius: number, blocks: boolean): Promise<Scene | null> {
    const slot = this.#placed.get(game);
    const placement = this.#placement.get(game) ?? 0;
    if (!slot) return Promise.resolve(null);
    return new Promise((resolve) => {
      const call = this.#call({ kind: 'scene', slot, placement, resolve });
      if (!this.#send(slot, { type: 'scene', avatar: game.username, placement, call, radius, blocks })) this.#answer(call);
    });
  }

  /** Stop the hosts' source (child hosts leave their games and exit); nothing is placed from now on. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#source.close();
  }

  /** The live host with the lowest load and room left, or none. */
  #place(game: HostedGame): Slot | undefined {
    const load = (s: Slot): number => (s.info.capacity ? s.games.size / s.info.capacity : s.games.size);
    let best: Slot | undefined;
    for (const s of this.#slots.values()) {
      if (!s.up || (s.info.capacity !== null && s.games.size >= s.info.capacity)) continue;
      if (!best || load(s) < load(best) || (load(s) === load(best) && s.games.size < best.games.size)) best = s;
    }
    if (!best) return undefined;
    best.games.set(game.username, game);
    this.#placed.set(game, best);
    this.#waiting.delete(game);
    this.#log.info({ avatar: game.username, avatarHost: best.info.name, pid: best.info.pid }, 'placed on an avatar host');
    return best;
  }

  #unplace(game: HostedGame): void {
    const slot = this.#placed.get(game);
    if (slot?.games.get(game.username) === game) slot.games.delete(game.username);
    this.#placed.delete(game);
    this.#placement.delete(game);
  }

  #sendStart(slot: Slot, game: HostedGame): void {
    const placement = ++this.#placements;
    this.#placement.set(game, placement);
    // A host that is down now (a child restarting) gets its starts when it is up again.
    this.#send(slot, { type: 'start', avatar: game.username, placement, server: game.server, hear: game.hearing });
  }

  #wait(game: HostedGame): void {
    if (!this.#source.canGrow && ![...this.#slots.values()].some((s) => s.up)) {
      this.#waiting.delete(game);
      game.emit('failed', CRASH_LOOP);
      return;
    }
    this.#waiting.add(game);
    game.hostLost([...this.#slots.values()].some((s) => s.up) ? HOSTS_FULL : NO_HOST);
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
    return slot.up && this.#source.send(slot.info.key, msg);
  }

  #onUp(info: HostInfo): void {
    const slot = this.#slots.get(info.key) ?? { info, up: false, games: new Map<string, HostedGame>() };
    slot.info = info;
    slot.up = true;
    this.#slots.set(info.key, slot);
    if (this.#closing) return;
    if (slot.games.size > 0) this.#log.info({ avatarHost: info.name, pid: info.pid, avatars: [...slot.games.keys()] }, 'avatar host up again; its avatars join again');
    for (const game of slot.games.values()) if (this.#started.has(game)) this.#sendStart(slot, game);
    for (const game of [...this.#waiting]) {
      const to = this.#place(game);
      if (!to) break;
      this.#sendStart(to, game);
    }
  }

  #onDown(key: string, how: HostDown): void {
    const slot = this.#slots.get(key);
    if (!slot) return;
    const wasUp = slot.up;
    slot.up = false;
    for (const [call, p] of [...this.#pending]) if (p.slot === slot) this.#answer(call);
    if (this.#closing) return;
    if (wasUp) for (const game of slot.games.values()) game.hostLost(how.reason);
    if (how.kind === 'restarting') return;
    this.#slots.delete(key);
    const moving = [...slot.games.values()];
    if (moving.length > 0) this.#log.warn({ avatarHost: slot.info.name, avatars: moving.map((g) => g.username) }, 'an avatar host is gone; its avatars move to other hosts');
    for (const game of moving) {
      this.#unplace(game);
      if (this.#started.has(game)) this.start(game);
    }
  }

  #onMessage(key: string, m: HostToCore): void {
    const slot = this.#slots.get(key);
    if (!slot) return;
    switch (m.type) {
      case 'skillResult':
      case 'said':
      case 'stopped':
      case 'map':
      case 'scene': {
        const p = this.#pending.get(m.call);
        if (p?.slot === slot && p.placement === m.placement) this.#answer(m.call, m);
        return;
      }
      case 'state':
        this.#current(slot, m)?.applyState(m);
        return;
      case 'snapshot':
        this.#current(slot, m)?.applySnapshot(m.snapshot);
        return;
      case 'event':
        this.#current(slot, m)?.applyEvent(m);
        return;
      case 'alive':
        for (const [avatar, placement] of m.avatars) {
          const game = slot.games.get(avatar);
          if (game && this.#placement.get(game) === placement) continue;
          this.#log.info({ avatar, avatarHost: slot.info.name, placement }, 'an avatar host still plays an avatar placed elsewhere since; telling it to drop it');
          this.#send(slot, { type: 'drop', avatar, placement });
        }
        return;
      case 'claim':
        for (const other of this.#slots.values()) if (other !== slot) this.#send(other, m);
        return;
      case 'ready':
        return;
    }
  }

  /** The game a host's message is about, if it is placed there under the message's number. */
  #current(slot: Slot, m: { avatar: string; placement: number }): HostedGame | undefined {
    const game = slot.games.get(m.avatar);
    return game && this.#placement.get(game) === m.placement ? game : undefined;
  }
}
