/**
 * The avatar manager: each avatar's live parts (game, engine, goal loop,
 * TASK.md), built on first need, and what can be done to an avatar — create,
 * play, stop, give a goal or a direction, ask, remove, rename — plus keeping
 * TASK.md's mindlink sections in step with the store. Its records are
 * written by their owner ({@link AvatarRecords}); the parts that keep
 * records naming avatars (links, shares, thought streams, chat relays, schedules) follow
 * a removal or a renaming ({@link AvatarFollower}). It checks no rights: the
 * router and the command host do, before calling here.
 */
import type { EngineKind } from '../engines/engine.ts';
import { UserError } from '../errors.ts';
import type { AvatarGame, SayOutcome, Snapshot } from '../game/game.ts';
import { engineContext } from './engine-context.ts';
import { avatarUsage, type AvatarUsage } from './usage.ts';
import type { DisplayState, GoalOrigin } from '../loop/goal-loop.ts';
import { settledWithin } from '../settle.ts';
import { checkName } from './names.ts';
import { Runtimes, type AvatarParts } from './runtimes.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, Destination, ParkedGoal } from '../store/schema.ts';
import { newAvatarRecord } from '../store/store.ts';

/** The longest a stop waits for the loop to halt and the bot to leave before it is answered. */
const STOP_WAIT_MS = 1000;
/** The longest shutdown waits for the bots to leave (each game bounds its own quit well below this). */
const SHUTDOWN_LEAVE_WAIT_MS = 10_000;

/**
 * A part that keeps records naming avatars (links, shares, thought streams, chat relays, schedules): asked to forget a
 * removed avatar, and to follow a renamed one.
 */
export interface AvatarFollower {
  /** The avatar is gone: forget it. Returns how many records went. */
  removeAllFor(avatar: string): number;
  /** The avatar is called `to` now. */
  renameAvatar(from: string, to: string): void;
}

export type { AvatarParts as AvatarManagerDeps } from './runtimes.ts';
export type { AvatarUsage } from './usage.ts';

/**
 * @example
 * const avatars = new AvatarManager(deps);
 * await avatars.resumeAll();            // at start: every avatar that was playing plays again
 * avatars.setGoal('demo', 'collect 3 oak logs', personId);
 */
export class AvatarManager {
  private readonly runtimes: Runtimes;
  private readonly followers = new Map<string, AvatarFollower>();

  constructor(private readonly deps: AvatarParts) {
    this.runtimes = new Runtimes(deps);
  }

  /** `follower` forgets removed avatars and follows renamed ones; `what` names its count in {@link AvatarManager.remove}'s answer. */
  followedBy(what: string, follower: AvatarFollower): void {
    this.followers.set(what, follower);
  }

  /** Build every avatar's parts and play those that were playing; one that cannot start stays stopped, the others go on. */
  async resumeAll(): Promise<void> {
    const { records, log } = this.deps;
    for (const a of records.all()) {
      try {
        this.runtimes.of(a.name);
        if (a.playing) await this.play(a.name);
      } catch (err) {
        log.error({ err, avatar: a.name }, 'avatar cannot start; it stays stopped');
        records.setStopped(a.name);
      }
    }
  }

  /** Every avatar record, read-only. */
  all(): readonly DeepReadonly<Avatar>[] {
    return this.deps.records.all();
  }

  /** One avatar by name (case-insensitive), read-only. */
  get(name: string): DeepReadonly<Avatar> | undefined {
    return this.deps.records.get(name);
  }

  /**
   * Give an avatar another engine (`/engine`). The new engine is built first (a refusal, such as an
   * llm engine that is not configured, changes nothing), then stored; a playing avatar stays in the
   * game, and its loop resumes the goal with the new engine.
   */
  async switchEngine(name: string, kind: EngineKind): Promise<void> {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const old = this.runtimes.of(avatar.name);
    const log = this.deps.log.child({ avatar: avatar.name });
    const engine = this.deps.engines(kind, engineContext(this.deps, avatar.name, old.game, log, old.task));
    const wasActive = old.loop.isActive;
    if (wasActive) await old.loop.pause('engine switch');
    old.engine.close?.();
    this.deps.records.setEngine(avatar.name, kind);
    const rt = this.runtimes.withEngine(avatar.name, engine, log);
    if (wasActive) rt.loop.start();
  }

  /** The model tokens an avatar used (and a hybrid avatar's turns): in all, on its current goal, and on its ended goals (oldest first). */
  usage(name: string): AvatarUsage {
    return avatarUsage(this.deps.store, this.get(name)?.name ?? name);
  }

  /** The loop state to show for an avatar (`stopped` for one whose engine or server cannot be built). */
  displayState(name: string): DisplayState {
    try {
      return this.runtimes.of(name).loop.displayState;
    } catch (err) {
      this.deps.log.debug({ err, avatar: name }, 'no runtime');
      return 'stopped';
    }
  }

  /** The avatars on a server, and whether each plays. */
  onServer(serverId: string): { name: string; playing: boolean }[] {
    return this.all()
      .filter((a) => a.server === serverId)
      .map((a) => ({ name: a.name, playing: this.isPlaying(a.name) }));
  }

  /** Whether the avatar plays (its loop runs): the one meaning of "stopped" is `!isPlaying`. */
  isPlaying(name: string): boolean {
    return this.displayState(name) !== 'stopped';
  }

  /** What the avatar sees and carries now, or undefined while it is stopped or out of the game. */
  snapshot(name: string): Snapshot | undefined {
    return this.isPlaying(name) ? this.runtimes.of(name).game.snapshot() : undefined;
  }

  /** The avatar's game while it plays (the dashboard's world view reads its world from it), else undefined. */
  game(name: string): AvatarGame | undefined {
    return this.isPlaying(name) ? this.runtimes.of(name).game : undefined;
  }

  /** While it plays but is out of the game (`waiting`): why it left, as its game says (see `AvatarGame.downReason`). */
  downReason(name: string): string | undefined {
    return this.displayState(name) === 'waiting' ? this.runtimes.of(name).game.downReason : undefined;
  }

  /** While it is `waiting` for something other than a dropped connection (a Microsoft sign-in): what. */
  waitReason(name: string): string | undefined {
    return this.displayState(name) === 'waiting' ? this.runtimes.of(name).game.waitReason : undefined;
  }

  /** While it is stopped because its server refused it for good: why, as its game says (see `AvatarGame.endReason`). */
  stopReason(name: string): string | undefined {
    return this.displayState(name) === 'stopped' ? this.runtimes.existing(name)?.game.endReason : undefined;
  }

  /** Create an avatar (stopped until play), owned by `ownerId`; nothing is stored if its engine or game cannot be built. */
  async create(name: string, ownerId: string, opts: { server?: string; engine?: Avatar['engine'] }): Promise<DeepReadonly<Avatar>> {
    checkName(this.all(), name);
    const servers = this.deps.store.state.data.servers;
    const server = opts.server ?? servers[0]?.id;
    if (!server || !servers.some((s) => s.id === server)) {
      throw new UserError('unknown_server', `Unknown server "${opts.server}". Servers: ${servers.map((s) => s.id).join(', ')}.`);
    }
    this.deps.records.add(newAvatarRecord(name, ownerId, server, opts.engine ?? this.deps.config.ENGINE, false, this.deps.now()));
    try {
      this.runtimes.of(name);
    } catch (err) {
      this.deps.records.remove(name);
      throw err;
    }
    await this.syncTask(name);
    return this.get(name) as DeepReadonly<Avatar>;
  }

  /** Start an avatar: join the game and run its loop (resuming its goal). Returns false when it was playing already. */
  async play(name: string): Promise<boolean> {
    const rt = this.runtimes.of(name);
    if (rt.loop.isActive) return false;
    await rt.game.start();
    rt.loop.start();
    return true;
  }

  /** Stop an avatar: end the loop, leave the game; the goal is kept. Returns false when it was stopped already. */
  async stop(name: string): Promise<boolean> {
    const rt = this.runtimes.of(name);
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
   * parked behind an older message's (see `ownerGoalSet` of `src/loop/goal-moves.ts`).
   */
  setGoal(name: string, text: string, setById: string | null, origin: GoalOrigin = {}): ParkedGoal | null {
    const parked = this.runtimes.of(name).loop.setOwnerGoal(text, setById, origin);
    void this.syncTask(name);
    return parked;
  }

  /** Park an owner goal beside the running one; it is offered again when the avatar chooses. */
  parkGoal(name: string, text: string, setById: string | null, reason: string, setIn?: Destination): void {
    this.runtimes.of(name).loop.parkGoal(text, setById, reason, setIn);
  }

  /**
   * Drop parked goals: `which` holds their positions in the list (1 is the oldest), or is `all`.
   * Throws UserError, dropping nothing, when a position is not in the list. Returns the goals dropped.
   */
  unpark(name: string, which: readonly number[] | 'all'): ParkedGoal[] {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    return this.deps.records.dropParked(avatar.name, which);
  }

  /** Store a new owner direction, write TASK.md and hand it to the avatar's loop, if it has one. Returns its number and the numbers of the older ones that no longer fit. */
  addDirection(name: string, text: string, by: string | null): { n: number; dropped: number[] } {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const { added, dropped } = this.deps.records.addDirection(avatar.name, text, by);
    void this.syncTask(avatar.name);
    // Only a loop that exists takes it in; one built later reads the stored book.
    this.runtimes.existing(avatar.name)?.loop.directionAdded(added.text);
    return { n: added.n, dropped: dropped.map((d) => d.n) };
  }

  /** Build a stopped avatar's live parts anew from its record (its server changed); throws UserError when they cannot be. */
  async rebuild(name: string): Promise<void> {
    await this.runtimes.retire(name);
    this.runtimes.of(name);
  }

  /**
   * Remove an avatar: it stops and leaves the game; its record and its history in the goal record go, and
   * every follower forgets it (links, shares of it alone, thought streams, chat relays, schedules); its files move to
   * `removed/<name>-<time>` (`DATA_DIR/removed/`, or the database's), its record and history beside them, for a week. Returns where, and how many
   * records each follower forgot (`links`: the chats it was linked to).
   */
  async remove(name: string): Promise<{ keptIn: string; forgotten: Record<string, number> }> {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const { records, history, usage } = this.deps;
    await this.runtimes.retire(avatar.name);
    const kept = { goals: history.take(avatar.name), usage: usage.take(avatar.name) };
    const forgotten: Record<string, number> = {};
    for (const [what, follower] of this.followers) forgotten[what] = follower.removeAllFor(avatar.name);
    records.remove(avatar.name);
    const files = this.deps.store.avatarFiles;
    const now = this.deps.now();
    const keptIn = await files.retire(avatar.name, { removedAt: now.toISOString(), avatar, ...kept }, now);
    this.deps.games.forget?.(avatar.name);
    const purged = await files.purgeRetired(this.deps.now());
    this.deps.log.info({ avatar: avatar.name, keptIn, purged }, 'avatar removed');
    return { keptIn, forgotten };
  }

  /**
   * Give a stopped avatar a new name (one Minecraft accepts, no other avatar's): its record, history,
   * usage and folder follow, and so does every follower (links, shares, thought streams, chat relays, schedules). In the
   * game it is a new player. Returns its record under the new name.
   */
  async rename(from: string, to: string): Promise<DeepReadonly<Avatar>> {
    const avatar = this.get(from);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${from}".`);
    checkName(this.all(), to, avatar);
    if (this.isPlaying(avatar.name)) {
      throw new UserError('still_playing', `Stop ${avatar.name} first (/stop ${avatar.name}): only a stopped avatar can be renamed.`, avatar.name);
    }
    const old = avatar.name;
    await this.runtimes.retire(old);
    await this.deps.store.avatarFiles.renameAvatar(old, to);
    this.deps.games.renamed?.(old, to);
    this.deps.history.rename(old, to);
    this.deps.usage.rename(old, to);
    this.deps.records.rename(old, to);
    for (const follower of this.followers.values()) follower.renameAvatar(old, to);
    this.runtimes.of(to);
    return this.get(to) as DeepReadonly<Avatar>;
  }

  /** Give an avatar to another person. */
  setOwner(name: string, personId: string): void {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    this.deps.records.setOwner(avatar.name, personId);
  }

  /**
   * Put a stopped avatar on another server: its game there is built at once, and when it cannot be the
   * avatar stays where it was. Throws UserError for a playing avatar.
   */
  async moveTo(name: string, serverId: string): Promise<void> {
    const avatar = this.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    if (this.isPlaying(avatar.name)) throw new UserError('still_playing', `${avatar.name} is playing: /stop ${avatar.name} first, then move it.`, avatar.name);
    const from = avatar.server;
    this.deps.records.setServer(avatar.name, serverId);
    try {
      await this.rebuild(avatar.name);
    } catch (err) {
      this.deps.records.setServer(avatar.name, from);
      await this.rebuild(avatar.name);
      throw err;
    }
  }

  /** Whether the avatar's game reports the public chat it hears (the chat relay asks, for the avatars it relays). */
  hearChat(name: string, on: boolean): void {
    this.runtimes.hearChat(name, on);
  }

  /** Say one line in the game's chat through the avatar, paced; `not_in_game` while it is stopped or out of the game. */
  async say(name: string, line: string): Promise<SayOutcome> {
    const game = this.game(name);
    if (!game?.say || game.state !== 'connected') return 'not_in_game';
    return game.say(line);
  }

  /** Ask an avatar a question in its own short turn. */
  async ask(name: string, question: string): Promise<string> {
    return this.runtimes.of(name).loop.ask(question);
  }

  /** The turn that takes in an avatar's latest owner goal or direction, ended (`GoalLoop.wokenTurn`); null when none is to come. */
  wokenTurn(name: string): Promise<void> | null {
    return this.runtimes.existing(name)?.loop.wokenTurn() ?? null;
  }

  /** Rewrite the mindlink sections of an avatar's TASK.md from the store (no game, engine or loop needed). */
  syncTask(name: string): Promise<void> {
    return this.runtimes.syncTask(name);
  }

  /** Process shutdown: every loop pauses between turns (the stored `playing` flag is kept), every avatar leaves its game and its TASK.md writes end. */
  async shutdown(): Promise<void> {
    const runtimes = this.runtimes.all();
    await Promise.all(runtimes.map((rt) => rt.loop.pause('shutdown')));
    const left = Promise.all(runtimes.map((rt) => rt.game.stop().catch((err: unknown) => this.deps.log.warn({ err }, 'leaving the game failed'))));
    if (!(await settledWithin(left, SHUTDOWN_LEAVE_WAIT_MS))) this.deps.log.warn({ waitedMs: SHUTDOWN_LEAVE_WAIT_MS }, 'some avatars had not left the game; stopping anyway');
    // TASK.md rewrites started by the last turns and directions (not awaited where they began) end before the stop does.
    await Promise.all(this.all().map((a) => this.runtimes.taskFile(a.name).idle()));
  }
}
