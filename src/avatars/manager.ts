/**
 * The avatar manager: each avatar's live parts (game, engine, goal loop,
 * TASK.md), built on first need, and what can be done to an avatar — create,
 * play, stop, give a goal or a direction, ask — plus keeping TASK.md's
 * mindlink sections in step with the store. It checks no rights: the router
 * and the command host do, before calling here.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Engine, EngineKind, EngineProvider } from '../engines/engine.ts';
import { UserError } from '../errors.ts';
import type { AvatarGame, GameProvider, Snapshot } from '../game/game.ts';
import type { SignInCode } from '../game/sign-in.ts';
import type { SkillRegistryFactory } from '../game/skill.ts';
import type { SkillLibrary } from '../learned/library.ts';
import { engineContext } from './engine-context.ts';
import { avatarUsage, type AvatarUsage } from './usage.ts';
import { addDirection } from '../task/directions.ts';
import { GoalLoop, type DisplayState, type DonePing, type GoalChecker, type LoopPostKind, type TurnSummary } from '../loop/goal-loop.ts';
import type { GoalOrigin } from '../loop/goal-store.ts';
import { stopStored } from '../loop/loop-state.ts';
import { TaskFile } from '../task/task-file.ts';
import { mindlinkParts } from '../task/task-md.ts';
import { settledWithin } from '../settle.ts';
import { checkName } from './names.ts';
import { dropParked } from './parked.ts';
import { forgetAvatar, moveToRemoved, purgeRemoved, renameFolder, renameInRecord, renameInState, takeHistory } from './retire.ts';
import { newAvatarRecord, type Avatar, type Destination, type ParkedGoal, type Store } from '../store/store.ts';

/** The longest a stop waits for the loop to halt and the bot to leave before it is answered. */
const STOP_WAIT_MS = 1000;
/** The longest shutdown waits for the bots to leave (each game bounds its own quit well below this). */
const SHUTDOWN_LEAVE_WAIT_MS = 10_000;

/** What the manager is built from. */
export interface AvatarManagerDeps {
  config: Config;
  store: Store;
  log: Logger;
  games: GameProvider;
  engines: EngineProvider;
  skills: SkillRegistryFactory;
  /** The skills avatars wrote and kept: each avatar's engine gets its own through its context. */
  learned?: SkillLibrary;
  checkGoal: GoalChecker;
  /** Post about an avatar to its chats (`ping`: whom an owner goal's Done pings, and where it was set). */
  post(avatar: string, kind: LoopPostKind, text: string, ping: DonePing | null): void;
  /** A turn of an avatar ended (the thought stream). */
  turnEnded?(avatar: string, summary: TurnSummary): void;
  /** An avatar's Microsoft sign-in needs a code typed by its owner (it goes to the owner's DMs only). */
  signInCode?(avatar: string, server: string, code: SignInCode): void;
  now(): Date;
}

export type { AvatarUsage } from './usage.ts';

/** One avatar's live parts. */
interface Runtime {
  game: AvatarGame;
  engine: Engine;
  loop: GoalLoop;
  task: TaskFile;
}

/**
 * @example
 * const avatars = new AvatarManager(deps);
 * await avatars.resumeAll();            // at start: every avatar that was playing plays again
 * avatars.setGoal('demo', 'collect 3 oak logs', personId);
 */
export class AvatarManager {
  private readonly runtimes = new Map<string, Runtime>();

  constructor(private readonly deps: AvatarManagerDeps) {}

  /** Build every avatar's parts and play those that were playing; one that cannot start stays stopped, the others go on. */
  async resumeAll(): Promise<void> {
    const { store, log } = this.deps;
    for (const a of store.state.data.avatars) {
      try {
        this.runtime(a.name);
        if (a.playing) await this.play(a.name);
      } catch (err) {
        log.error({ err, avatar: a.name }, 'avatar cannot start; it stays stopped');
        stopStored(store, a);
      }
    }
  }

  /** Every avatar record. */
  all(): Avatar[] {
    return this.deps.store.state.data.avatars;
  }

  /** One avatar by name (case-insensitive). */
  get(name: string): Avatar | undefined {
    const n = name.toLowerCase();
    return this.deps.store.state.data.avatars.find((a) => a.name.toLowerCase() === n);
  }

  private runtime(name: string): Runtime {
    const existing = this.runtimes.get(name);
    if (existing) return existing;
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const server = this.deps.store.state.data.servers.find((s) => s.id === avatar.server);
    if (!server) throw new UserError('unknown_server', `Avatar ${name} is on server "${avatar.server}", which is not configured.`);
    const log = this.deps.log.child({ avatar: name });
    const game = this.deps.games.create(avatar, server, log);
    const task = new TaskFile(this.deps.store.avatarDir(name), name);
    let engine: Engine;
    try {
      engine = this.deps.engines(avatar.engine, engineContext(this.deps, name, game, log, task));
    } catch (err) {
      this.deps.games.release?.(game);
      throw err;
    }
    game.on('signInCode', (code) => this.deps.signInCode?.(name, server.id, code));
    game.on('playingAs', (player) => this.deps.post(name, 'info', `${name} plays on ${server.id} as ${player}: the Minecraft name of the Microsoft account it signed in with.`, null));
    const rt = this.assemble(name, game, engine, task, log);
    this.runtimes.set(name, rt);
    return rt;
  }

  /** An avatar's TASK.md and lab log (writes to one file are serialised however many of these there are). */
  private taskFile(name: string): TaskFile {
    return this.runtimes.get(name)?.task ?? new TaskFile(this.deps.store.avatarDir(name), name);
  }

  /** The goal loop and TASK.md of an avatar around its game and engine. */
  private assemble(name: string, game: AvatarGame, engine: Engine, task: TaskFile, log: Logger): Runtime {
    const loop = new GoalLoop({
      avatar: name,
      store: this.deps.store,
      engine,
      game,
      task,
      log,
      checkGoal: this.deps.checkGoal,
      post: (kind, text, ping) => this.deps.post(name, kind, text, ping ?? null),
      onSelfStop: () => {
        void game.stop().catch((err: unknown) => log.error({ err }, 'leaving the game failed'));
      },
      syncTask: () => this.syncTask(name),
      pacing: { baseMs: this.deps.config.LOOP_PACE_MS, maxMs: this.deps.config.LOOP_MAX_PACE_MS },
      now: this.deps.now,
    });
    loop.on('turnEnded', (_kind, summary) => this.deps.turnEnded?.(name, summary));
    return { game, engine, loop, task };
  }

  /**
   * Give an avatar another engine (`/engine`). The new engine is built first (a refusal, such as an
   * llm engine that is not configured, changes nothing), then stored; a playing avatar stays in the
   * game, and its loop resumes the goal with the new engine.
   */
  async switchEngine(name: string, kind: EngineKind): Promise<void> {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const old = this.runtime(avatar.name);
    const log = this.deps.log.child({ avatar: avatar.name });
    const engine = this.deps.engines(kind, engineContext(this.deps, avatar.name, old.game, log, old.task));
    const wasActive = old.loop.isActive;
    if (wasActive) await old.loop.pause('engine switch');
    old.engine.close?.();
    this.deps.store.state.update(() => {
      avatar.engine = kind;
    });
    const rt = this.assemble(avatar.name, old.game, engine, old.task, log);
    this.runtimes.set(avatar.name, rt);
    if (wasActive) rt.loop.start();
  }

  /** The model tokens an avatar used (and a hybrid avatar's turns): in all, on its current goal, and on its ended goals (oldest first). */
  usage(name: string): AvatarUsage {
    return avatarUsage(this.deps.store, this.get(name)?.name ?? name);
  }

  /** The loop state to show for an avatar (`stopped` for one whose engine or server cannot be built). */
  displayState(name: string): DisplayState {
    try {
      return this.runtime(name).loop.displayState;
    } catch (err) {
      this.deps.log.debug({ err, avatar: name }, 'no runtime');
      return 'stopped';
    }
  }

  /** Whether the avatar plays (its loop runs): the one meaning of "stopped" is `!isPlaying`. */
  isPlaying(name: string): boolean {
    return this.displayState(name) !== 'stopped';
  }

  /** What the avatar sees and carries now, or undefined while it is stopped or out of the game. */
  snapshot(name: string): Snapshot | undefined {
    return this.isPlaying(name) ? this.runtime(name).game.snapshot() : undefined;
  }

  /** The avatar's game while it plays (the dashboard's world view reads its world from it), else undefined. */
  game(name: string): AvatarGame | undefined {
    return this.isPlaying(name) ? this.runtime(name).game : undefined;
  }

  /** While it plays but is out of the game (`waiting`): why it left, as its game says (see `AvatarGame.downReason`). */
  downReason(name: string): string | undefined {
    return this.displayState(name) === 'waiting' ? this.runtime(name).game.downReason : undefined;
  }

  /** While it is `waiting` for something other than a dropped connection (a Microsoft sign-in): what. */
  waitReason(name: string): string | undefined {
    return this.displayState(name) === 'waiting' ? this.runtime(name).game.waitReason : undefined;
  }

  /** While it is stopped because its server refused it for good: why, as its game says (see `AvatarGame.endReason`). */
  stopReason(name: string): string | undefined {
    return this.displayState(name) === 'stopped' ? this.runtimes.get(name)?.game.endReason : undefined;
  }

  /** Create an avatar (stopped until play), owned by `ownerId`; nothing is stored if its engine or game cannot be built. */
  async create(name: string, ownerId: string, opts: { server?: string; engine?: Avatar['engine'] }): Promise<Avatar> {
    checkName(this.all(), name);
    const servers = this.deps.store.state.data.servers;
    const server = opts.server ?? servers[0]?.id;
    if (!server || !servers.some((s) => s.id === server)) {
      throw new UserError('unknown_server', `Unknown server "${opts.server}". Servers: ${servers.map((s) => s.id).join(', ')}.`);
    }
    const avatar = newAvatarRecord(name, ownerId, server, opts.engine ?? this.deps.config.ENGINE, false, this.deps.now());
    this.deps.store.state.update((s) => s.avatars.push(avatar));
    try {
      this.runtime(name);
    } catch (err) {
      this.deps.store.state.update((s) => {
        s.avatars = s.avatars.filter((a) => a !== avatar);
      });
      throw err;
    }
    await this.syncTask(name);
    return avatar;
  }

  /** Start an avatar: join the game and run its loop (resuming its goal). Returns false when it was playing already. */
  async play(name: string): Promise<boolean> {
    const rt = this.runtime(name);
    if (rt.loop.isActive) return false;
    await rt.game.start();
    rt.loop.start();
    return true;
  }

  /** Stop an avatar: end the loop, leave the game; the goal is kept. Returns false when it was stopped already. */
  async stop(name: string): Promise<boolean> {
    const rt = this.runtime(name);
    const wasPlaying = this.isPlaying(name);
    // The loop halts and the bot quits together; the answer waits for neither longer than STOP_WAIT_MS
    // (a bot still settling after its spawn, or a server that does not close the connection, goes on leaving).
    const halted = rt.loop.stop('owner stop');
    const left = rt.game.stop().catch((err: unknown) => this.deps.log.warn({ err, avatar: name }, 'leaving the game failed'));
    if (!(await settledWithin(Promise.all([halted, left]), STOP_WAIT_MS))) {
      this.deps.log.info({ avatar: name, waitedMs: STOP_WAIT_MS }, 'stopped; still leaving the game');
    }
    return wasPlaying;
  }

  /**
   * Replace an avatar's goal with an owner goal (its Done pings `setById` in `origin.setIn`); returns a scheduled goal
   * parked behind an older message's (see `GoalStore.setOwnerGoal`).
   */
  setGoal(name: string, text: string, setById: string | null, origin: GoalOrigin = {}): ParkedGoal | null {
    const parked = this.runtime(name).loop.setOwnerGoal(text, setById, origin);
    void this.syncTask(name);
    return parked;
  }

  /** Park an owner goal beside the running one; it is offered again when the avatar chooses. */
  parkGoal(name: string, text: string, setById: string | null, reason: string, setIn?: Destination): void {
    this.runtime(name).loop.parkGoal(text, setById, reason, setIn);
  }

  /**
   * Drop parked goals: `which` holds their positions in the list (1 is the oldest), or is `all`.
   * Throws UserError, dropping nothing, when a position is not in the list. Returns the goals dropped.
   */
  unpark(name: string, which: readonly number[] | 'all'): ParkedGoal[] {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    return dropParked(this.deps.store, avatar, which);
  }

  /** Store a new owner direction, write TASK.md and hand it to the avatar's loop, if it has one. Returns its number and the numbers of the older ones that no longer fit. */
  addDirection(name: string, text: string, by: string | null): { n: number; dropped: number[] } {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const { added, dropped } = this.deps.store.state.update(() => addDirection(avatar.directions, text, by, this.deps.now()));
    void this.syncTask(avatar.name);
    // Only a loop that exists takes it in; one built later reads the stored book.
    this.runtimes.get(avatar.name)?.loop.directionAdded(added.text);
    return { n: added.n, dropped: dropped.map((d) => d.n) };
  }

  /** An avatar's live parts are done with: its loop and game stopped, TASK.md written, the engine closed, the game released. */
  private async retireRuntime(name: string): Promise<void> {
    const rt = this.runtimes.get(name);
    if (!rt) return;
    this.runtimes.delete(name);
    await rt.loop.stop('removed');
    await rt.game.stop().catch((err: unknown) => this.deps.log.warn({ err, avatar: name }, 'leaving the game failed'));
    await rt.task.idle();
    rt.engine.close?.();
    this.deps.games.release?.(rt.game);
    rt.game.removeAllListeners();
  }

  /** Build a stopped avatar's live parts anew from its record (its server changed); throws UserError when they cannot be. */
  async rebuild(name: string): Promise<void> {
    await this.retireRuntime(name);
    this.runtime(name);
  }

  /**
   * Remove an avatar: it stops and leaves the game; its record goes, with everything that names it
   * (links, shares of it alone, thought streams, its history in the goal record); its folder moves to
   * `DATA_DIR/removed/`, its record and history beside it, for a week. Returns that folder and how
   * many chats it was linked to.
   */
  async remove(name: string): Promise<{ keptIn: string; unlinked: number }> {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    await this.retireRuntime(avatar.name);
    const history = this.deps.store.record.update((r) => takeHistory(r, avatar.name));
    const unlinked = this.deps.store.state.update((s) => forgetAvatar(s, avatar.name));
    const keptIn = await moveToRemoved(this.deps.config.DATA_DIR, avatar, history, this.deps.now());
    this.deps.games.forget?.(avatar.name);
    const purged = await purgeRemoved(this.deps.config.DATA_DIR, this.deps.now());
    this.deps.log.info({ avatar: avatar.name, keptIn, purged }, 'avatar removed');
    return { keptIn, unlinked };
  }

  /**
   * Give a stopped avatar a new name (one Minecraft accepts, no other avatar's): its record, links,
   * shares, thought streams, history and folder follow. In the game it is a new player.
   */
  async rename(from: string, to: string): Promise<Avatar> {
    const avatar = this.get(from);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${from}".`);
    checkName(this.all(), to, avatar);
    if (this.isPlaying(avatar.name)) {
      throw new UserError('still_playing', `Stop ${avatar.name} first (/stop ${avatar.name}): only a stopped avatar can be renamed.`, avatar.name);
    }
    const old = avatar.name;
    await this.retireRuntime(old);
    await renameFolder(this.deps.config.DATA_DIR, old, to);
    this.deps.games.renamed?.(old, to);
    this.deps.store.record.update((r) => renameInRecord(r, old, to));
    this.deps.store.state.update((s) => renameInState(s, old, to));
    this.runtime(to);
    return avatar;
  }

  /** Give an avatar to another person. */
  setOwner(name: string, personId: string): void {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    this.deps.store.state.update(() => {
      avatar.owner = personId;
    });
  }

  /** Ask an avatar a question in its own short turn. */
  async ask(name: string, question: string): Promise<string> {
    return this.runtime(name).loop.ask(question);
  }

  /** The turn that takes in an avatar's latest owner goal or direction, ended (`GoalLoop.wokenTurn`); null when none is to come. */
  wokenTurn(name: string): Promise<void> | null {
    return this.runtimes.get(name)?.loop.wokenTurn() ?? null;
  }

  /** Rewrite the mindlink sections of an avatar's TASK.md from the store (no game, engine or loop needed). */
  async syncTask(name: string): Promise<void> {
    const avatar = this.get(name);
    if (!avatar) return;
    try {
      await this.taskFile(avatar.name).update(mindlinkParts(avatar, this.deps.store.record.data.goals));
    } catch (err) {
      this.deps.log.error({ err, avatar: name }, 'TASK.md update failed');
    }
  }

  /** Process shutdown: every loop pauses between turns (the stored `playing` flag is kept), every avatar leaves its game and its TASK.md writes end. */
  async shutdown(): Promise<void> {
    const runtimes = [...this.runtimes.values()];
    await Promise.all(runtimes.map((rt) => rt.loop.pause('shutdown')));
    const left = Promise.all(runtimes.map((rt) => rt.game.stop().catch((err: unknown) => this.deps.log.warn({ err }, 'leaving the game failed'))));
    if (!(await settledWithin(left, SHUTDOWN_LEAVE_WAIT_MS))) this.deps.log.warn({ waitedMs: SHUTDOWN_LEAVE_WAIT_MS }, 'some avatars had not left the game; stopping anyway');
    // TASK.md rewrites started by the last turns and directions (not awaited where they began) end before the stop does.
    await Promise.all(this.all().map((a) => this.taskFile(a.name).idle()));
  }
}
