/**
 * Each avatar's live parts: its game, its engine (built from its context),
 * its goal loop (given its records' port and the loops' news) and its TASK.md,
 * built on first need, rebuilt with another engine, and retired; and TASK.md's
 * mindlink sections written from the store.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Engine, EngineProvider } from '../engines/engine.ts';
import { UserError } from '../errors.ts';
import type { AvatarGame, GameProvider, Snapshot } from '../game/game.ts';
import type { KnownPlaces } from '../goals/places.ts';
import type { SkillRegistryFactory } from '../game/skill.ts';
import type { SkillLibrary } from '../learned/library.ts';
import { GoalLoop, type GoalChecker } from '../loop/goal-loop.ts';
import type { AvatarNews } from '../loop/news.ts';
import type { Store } from '../store/store.ts';
import { TaskFile } from '../task/task-file.ts';
import { mindlinkParts } from '../task/task-md.ts';
import type { AvatarRecords } from './avatar-records.ts';
import { engineContext } from './engine-context.ts';
import type { GoalHistory } from './goal-history.ts';
import type { Places } from './places.ts';
import type { UsageBook } from './usage.ts';

/** What the avatars' live parts and the avatar manager are built from. */
export interface AvatarParts {
  config: Config;
  /** Read only here (the servers, an avatar's folder): each kind of record is written by its owner. */
  store: Store;
  /** The avatars' records, and their one writer. */
  records: AvatarRecords;
  /** Every ended goal. */
  history: GoalHistory;
  /** What each avatar used. */
  usage: UsageBook;
  /** Where the loops' lines and turns go, as events. */
  news: AvatarNews;
  log: Logger;
  games: GameProvider;
  engines: EngineProvider;
  skills: SkillRegistryFactory;
  /** The skills avatars wrote and kept: each avatar's engine gets its own through its context. */
  learned?: SkillLibrary;
  /** The places avatars remember: each avatar's engine and completion check get its own. */
  places?: Places;
  /** The completion check; given the avatar's places, "go to base" is checked too. */
  checkGoal: PlaceAwareChecker;
  now(): Date;
}

/** A completion check that reads the avatar's places (`checkGoal` of `src/goals/check.ts`). */
export type PlaceAwareChecker = (goalText: string, baseline: Record<string, number> | null, snap: Snapshot, places?: KnownPlaces) => ReturnType<GoalChecker>;

/** One avatar's live parts. */
export interface Runtime {
  game: AvatarGame;
  engine: Engine;
  loop: GoalLoop;
  task: TaskFile;
}

/**
 * @example
 * const runtimes = new Runtimes(parts);
 * const rt = runtimes.of('steve');   // built on first need
 * await runtimes.retire('steve');
 */
export class Runtimes {
  private readonly built = new Map<string, Runtime>();
  /** The avatars whose games report the public chat they hear (some chat relays them). */
  private readonly hearing = new Set<string>();

  constructor(private readonly deps: AvatarParts) {}

  /** The live parts of an avatar, built on first need; throws UserError when its record or server is unknown. */
  of(name: string): Runtime {
    return this.runtime(name);
  }

  /** The live parts of an avatar if they were built. */
  existing(name: string): Runtime | undefined {
    return this.built.get(name);
  }

  /** Every avatar's live parts built so far. */
  all(): Runtime[] {
    return [...this.built.values()];
  }

  /** Whether the avatar's game reports the public chat it hears (now, and each time it is built). */
  hearChat(name: string, on: boolean): void {
    if (on) this.hearing.add(name);
    else this.hearing.delete(name);
    this.built.get(name)?.game.hearChat?.(on);
  }

  /** An avatar's parts around another engine (its game and TASK.md kept; `/engine`). */
  withEngine(name: string, engine: Engine, log: Logger): Runtime {
    const old = this.runtime(name);
    const rt = this.assemble(name, old.game, engine, old.task, log);
    this.built.set(name, rt);
    return rt;
  }

  private runtime(name: string): Runtime {
    const existing = this.built.get(name);
    if (existing) return existing;
    const avatar = this.deps.records.get(name);
    if (!avatar) throw new UserError('unknown_avatar', `There is no avatar called "${name}".`);
    const server = this.deps.store.state.data.servers.find((s) => s.id === avatar.server);
    if (!server) throw new UserError('unknown_server', `Avatar ${name} is on server "${avatar.server}", which is not configured.`);
    const log = this.deps.log.child({ avatar: name });
    const game = this.deps.games.create(avatar, server, log);
    const task = new TaskFile(this.deps.store.avatarFiles.of(name), name);
    let engine: Engine;
    try {
      engine = this.deps.engines(avatar.engine, engineContext(this.deps, name, game, log, task));
    } catch (err) {
      this.deps.games.release?.(game);
      throw err;
    }
    const { news } = this.deps;
    game.on('signInCode', (code) => news.emit('signInCode', name, server.id, code));
    game.on('playingAs', (player) => news.post(name, 'info', `${name} plays on ${server.id} as ${player}: the Minecraft name of the Microsoft account it signed in with.`));
    game.on('heard', (line) => news.emit('heard', name, line));
    game.hearChat?.(this.hearing.has(name));
    const rt = this.assemble(name, game, engine, task, log);
    this.built.set(name, rt);
    return rt;
  }

  /** An avatar's TASK.md and lab log (writes to one file are serialised however many of these there are). */
  taskFile(name: string): TaskFile {
    return this.built.get(name)?.task ?? new TaskFile(this.deps.store.avatarFiles.of(name), name);
  }

  /** The goal loop and TASK.md of an avatar around its game and engine. */
  private assemble(name: string, game: AvatarGame, engine: Engine, task: TaskFile, log: Logger): Runtime {
    const places = this.deps.places?.known(name);
    const { checkGoal } = this.deps;
    const loop = new GoalLoop({
      avatar: name,
      goals: this.deps.records.portOf(name),
      news: this.deps.news,
      engine,
      game,
      task,
      log,
      checkGoal: places ? (text, baseline, snap) => checkGoal(text, baseline, snap, places) : checkGoal,
      onSelfStop: () => {
        void game.stop().catch((err: unknown) => log.error({ err }, 'leaving the game failed'));
      },
      syncTask: () => this.syncTask(name),
      pacing: { baseMs: this.deps.config.LOOP_PACE_MS, maxMs: this.deps.config.LOOP_MAX_PACE_MS },
      now: this.deps.now,
    });
    return { game, engine, loop, task };
  }

  /** An avatar's live parts are done with: its loop and game stopped, TASK.md written, the engine closed, the game released. */
  async retire(name: string): Promise<void> {
    const rt = this.built.get(name);
    if (!rt) return;
    this.built.delete(name);
    await rt.loop.stop('removed');
    await rt.game.stop().catch((err: unknown) => this.deps.log.warn({ err, avatar: name }, 'leaving the game failed'));
    await rt.task.idle();
    rt.engine.close?.();
    this.deps.games.release?.(rt.game);
    rt.game.removeAllListeners();
  }

  /** Rewrite the mindlink sections of an avatar's TASK.md from the store (no game, engine or loop needed). */
  async syncTask(name: string): Promise<void> {
    const avatar = this.deps.records.get(name);
    if (!avatar) return;
    try {
      await this.taskFile(avatar.name).update(mindlinkParts(avatar, this.deps.history.all()));
    } catch (err) {
      this.deps.log.error({ err, avatar: name }, 'TASK.md update failed');
    }
  }
}
