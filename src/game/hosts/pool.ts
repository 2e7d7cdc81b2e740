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
 * - With leases ({@link AvatarLeases}: NATS hosts and a database), the number
 *   of each placement is the epoch of the avatar's lease, taken for the host
 *   before the start is sent; only hosts that can hold leases are placed on;
 *   an avatar whose lease is lost moves to another host (not the one it lost
 *   it on, while there is another), and one whose lease another holder still
 *   has waits for it to lapse.
 */
import type { Logger } from 'pino';
import type { GameCapabilities, GameServer, SayOutcome, Scene } from '../game.ts';
import type { SkillResult } from '../skill.ts';
import type { TopDownMap } from '../top-down.ts';
import { LEASE_HELD, LEASE_LOST, NO_DATABASE, NO_LEASING_HOST, type AvatarLeases } from './avatar-leases.ts';
import { ChildHosts, CRASH_LOOP, type ChildHostsOptions } from './child-hosts.ts';
import { canHoldLeases, chooseHost, type HostSlot } from './choose-host.ts';
import { HostCalls, type CallTo } from './host-calls.ts';
import { HostedGame, type HostLink } from './hosted-game.ts';
import { LateMessages } from './late-messages.ts';
import type { CoreToHost, HostToCore } from './protocol.ts';
import type { HostDown, HostInfo, HostSource } from './source.ts';

/** Options of {@link HostPool.start}: the child hosts'. */
export type HostPoolOptions = ChildHostsOptions;

/** Why an avatar is out of the world while no host can take it. */
export const NO_HOST = 'no avatar host is connected';
/** Why an avatar is out of the world while every host is full. */
export const HOSTS_FULL = 'every avatar host is full: add a host';

type Slot = HostSlot<HostedGame>;

/** Options of {@link HostPool.over}. */
export interface HostPoolOver {
  /** Hold each placement by the avatar's lease (NATS hosts with a database). */
  leases?: AvatarLeases;
}

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
  #calls = new HostCalls<Slot>((slot, msg) => this.#send(slot, msg));
  #closing = false;
  #leases: AvatarLeases | undefined;
  /** The host each game lost its lease on: it is placed elsewhere while there is another host. */
  #avoid = new Map<HostedGame, string>();
  #checker: NodeJS.Timeout | undefined;
  #checking = false;
  #late: LateMessages;

  private constructor(source: HostSource, log: Logger, leases: AvatarLeases | undefined) {
    this.#source = source;
    this.#log = log;
    this.#late = new LateMessages(log);
    this.#leases = leases;
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
  static async over(source: HostSource, log: Logger, opts: HostPoolOver = {}): Promise<HostPool> {
    const pool = new HostPool(source, log, opts.leases);
    await source.start();
    const leases = opts.leases;
    if (leases) {
      pool.#checker = setInterval(() => void pool.#checkLeases(leases), leases.checkEveryMs);
      pool.#checker.unref();
    }
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
    this.#start(game, false);
  }

  hear(game: HostedGame, on: boolean): void {
    // A game not placed yet tells its host with its start.
    const slot = this.#placed.get(game);
    const placement = this.#placement.get(game);
    if (slot && placement !== undefined) this.#send(slot, { type: 'hear', avatar: game.username, placement, on });
  }

  say(game: HostedGame, line: string): Promise<SayOutcome> {
    const to = this.#to(game);
    return to?.slot.up ? this.#calls.say(to, line) : Promise.resolve('not_in_game');
  }

  async stop(game: HostedGame): Promise<void> {
    this.#started.delete(game);
    this.#waiting.delete(game);
    this.#avoid.delete(game);
    const to = this.#to(game);
    if (!to) return;
    await this.#calls.stop(to);
    // A later start places it again, on whichever host is least loaded then (its lease free at once).
    if (this.#placed.get(game) !== to.slot) return;
    if (this.#leases && to.placement > 0 && this.#placement.get(game) === to.placement) void this.#leases.release(game.username, to.slot.info.key, to.placement);
    this.#unplace(game);
  }

  runSkill(game: HostedGame, id: string, params: unknown, signal: AbortSignal): Promise<SkillResult> {
    const to = this.#to(game);
    return to?.slot.up ? this.#calls.skill(to, id, params, signal) : Promise.resolve({ ok: false, code: 'not_connected', detail: 'not in the game right now' });
  }

  map(game: HostedGame, radius: number): Promise<TopDownMap | null> {
    const to = this.#to(game);
    return to ? this.#calls.map(to, radius) : Promise.resolve(null);
  }

  scene(game: HostedGame, radius: number, blocks: boolean): Promise<Scene | null> {
    const to = this.#to(game);
    return to ? this.#calls.scene(to, radius, blocks) : Promise.resolve(null);
  }

  /** Stop the hosts' source (child hosts leave their games and exit); nothing is placed from now on. */
  async close(): Promise<void> {
    this.#closing = true;
    clearInterval(this.#checker);
    await this.#source.close();
    await this.#leases?.close();
  }

  /** Where a call about the game goes: its host and placement (0 while its placement is being taken). */
  #to(game: HostedGame): CallTo<Slot> | undefined {
    const slot = this.#placed.get(game);
    return slot && { avatar: game.username, slot, placement: this.#placement.get(game) ?? 0 };
  }

  /** Start on the host it is placed on, or place it (`planned`: its former host said it stops, and its lease is taken from it). */
  #start(game: HostedGame, planned: boolean): void {
    this.#started.add(game);
    const slot = this.#placed.get(game) ?? this.#place(game);
    if (slot) this.#sendStart(slot, game, planned);
    else this.#wait(game);
  }

  /** Place the game on the host `choose-host.ts` picks, or none. */
  #place(game: HostedGame): Slot | undefined {
    const best = chooseHost(this.#slots.values(), this.#leases, this.#avoid.get(game));
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

  #sendStart(slot: Slot, game: HostedGame, planned = false): void {
    if (this.#leases) void this.#takeAndStart(this.#leases, slot, game, planned);
    else this.#startAs(slot, game, ++this.#placements);
  }

  #startAs(slot: Slot, game: HostedGame, placement: number): void {
    this.#placement.set(game, placement);
    // A host that is down now (a child restarting) gets its starts when it is up again.
    this.#send(slot, { type: 'start', avatar: game.username, placement, server: game.server, hear: game.hearing });
  }

  /** Take the game's lease for the host it is placed on, then start it there at the lease's epoch; or let it wait. */
  async #takeAndStart(leases: AvatarLeases, slot: Slot, game: HostedGame, planned: boolean): Promise<void> {
    const taken = await leases.take(game.username, slot.info.key, planned);
    if ('moot' in taken) return;
    if (this.#closing || !this.#started.has(game) || this.#placed.get(game) !== slot || !slot.up) {
      // Taken for nothing: it stopped meanwhile.
      if ('epoch' in taken) void leases.release(game.username, slot.info.key, taken.epoch);
      return;
    }
    if ('epoch' in taken) {
      this.#log.info({ avatar: game.username, avatarHost: slot.info.name, epoch: taken.epoch }, 'took the lease of an avatar for its avatar host');
      this.#avoid.delete(game);
      this.#startAs(slot, game, taken.epoch);
      return;
    }
    if ('heldBy' in taken) this.#log.info({ avatar: game.username, heldBy: taken.heldBy }, 'the lease of an avatar is still held by another host; it waits for it to lapse');
    // Tried again at the next look at the leases.
    this.#unplace(game);
    this.#wait(game, 'heldBy' in taken ? LEASE_HELD : NO_DATABASE);
  }

  #wait(game: HostedGame, reason?: string): void {
    const up = [...this.#slots.values()].filter((s) => s.up);
    if (!this.#source.canGrow && up.length === 0) {
      this.#waiting.delete(game);
      game.emit('failed', CRASH_LOOP);
      return;
    }
    this.#waiting.add(game);
    game.hostLost(reason ?? (up.length === 0 ? NO_HOST : !up.some((s) => canHoldLeases(s, this.#leases)) ? NO_LEASING_HOST : HOSTS_FULL));
  }

  /**
   * The game's placement on `slot` is over while it plays (its lease lost): its calls there end as a dropped
   * connection ends them, the host is told to drop it, and it is placed on another host.
   */
  #move(game: HostedGame, slot: Slot): void {
    const placement = this.#placement.get(game);
    this.#calls.endAll(slot, game.username);
    if (placement !== undefined) this.#send(slot, { type: 'drop', avatar: game.username, placement });
    this.#unplace(game);
    this.#avoid.set(game, slot.info.key);
    game.hostLost(LEASE_LOST);
    if (this.#started.has(game)) this.#start(game, false);
  }

  /** Move the games whose leases were lost, and place the waiting ones whose leases are free (lapsed, released). */
  async #checkLeases(leases: AvatarLeases): Promise<void> {
    if (this.#checking || this.#closing) return;
    this.#checking = true;
    try {
      const placed = [...this.#placement].flatMap(([game, epoch]) => {
        const slot = this.#placed.get(game);
        return slot && this.#started.has(game) ? [{ avatar: game.username, holder: slot.info.key, epoch, game, slot }] : [];
      });
      const seen = await leases.look(placed, [...this.#waiting].map((g) => g.username));
      if (!seen || this.#closing) return;
      for (const { game, slot, epoch } of seen.lost) {
        if (this.#placed.get(game) !== slot || this.#placement.get(game) !== epoch) continue;
        this.#log.warn({ avatar: game.username, avatarHost: slot.info.name, epoch }, 'the lease of an avatar lapsed on its avatar host (or was taken); it moves to another host');
        this.#move(game, slot);
      }
      // A waiting game whose lease another host still holds is placed once it lapses.
      for (const game of [...this.#waiting].filter((g) => !seen.held.has(g.username))) {
        const to = this.#place(game);
        if (to) this.#sendStart(to, game);
      }
    } finally {
      this.#checking = false;
    }
  }

  #send(slot: Slot, msg: CoreToHost): boolean {
    return slot.up && this.#source.send(slot.info.key, msg);
  }

  #onUp(info: HostInfo): void {
    const slot = this.#slots.get(info.key) ?? { info, up: false, heard: 0, games: new Map<string, HostedGame>() };
    slot.info = info;
    slot.up = true;
    slot.heard = Date.now();
    this.#slots.set(info.key, slot);
    if (this.#closing) return;
    if (this.#leases && info.leases === undefined) this.#log.warn({ avatarHost: info.name }, 'an avatar host with no database joined: it takes no avatar, as avatars are held by leases (give it --database or DATABASE_URL)');
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
    this.#calls.endAll(slot);
    if (this.#closing) return;
    if (wasUp) for (const game of slot.games.values()) game.hostLost(how.reason);
    if (how.kind === 'restarting') return;
    this.#slots.delete(key);
    const moving = [...slot.games.values()];
    if (moving.length > 0) this.#log.warn({ avatarHost: slot.info.name, avatars: moving.map((g) => g.username) }, 'an avatar host is gone; its avatars move to other hosts');
    for (const game of moving) {
      this.#unplace(game);
      if (this.#started.has(game)) this.#start(game, how.planned === true);
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
        const answer = this.#calls.answered(slot, m);
        if (!answer.taken) this.#dropped(slot, answer.avatar, m.placement, m.type);
        return;
      }
      case 'left': {
        const game = this.#current(slot, m);
        if (!game) return;
        this.#log.warn({ avatar: m.avatar, avatarHost: slot.info.name, epoch: m.placement, why: m.why }, 'an avatar host left the game of an avatar (its lease lost); it moves to another host');
        this.#move(game, slot);
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
        // Whether it can hold leases now, as its beat says.
        if (slot.info.leases !== m.leases) slot.info = { ...slot.info, leases: m.leases };
        slot.heard = Date.now();
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

  /**
   * The game a host's message is about, if it is placed there under the message's number. This is the fence: what a
   * host says under an older number (one cut off that comes back, one whose lease was lost) changes nothing.
   */
  #current(slot: Slot, m: { type: string; avatar: string; placement: number }): HostedGame | undefined {
    const game = slot.games.get(m.avatar);
    if (game && this.#placement.get(game) === m.placement) return game;
    this.#dropped(slot, m.avatar, m.placement, m.type);
    return undefined;
  }

  #dropped(slot: Slot, avatar: string | null, placement: number, message: string): void {
    this.#late.dropped(slot.info, avatar, placement, [...this.#placement].find(([g]) => g.username === avatar)?.[1] ?? null, message);
  }
}
