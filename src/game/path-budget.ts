/**
 * One thinking budget for every avatar's pathfinder in this process.
 *
 * mineflayer-pathfinder thinks on each physics tick of each bot, up to a
 * fixed `tickTimeout` per bot, and a late event loop makes mineflayer run up
 * to four ticks at once to catch up, each thinking again. All bots of a
 * process share one event loop: with 50 avatars on a host searching at once
 * (at even 1 ms each) the loop was held for most of every 50 ms tick, and the
 * catch-up ticks made it worse (measured: the hosts' event-loop p99 near
 * 500 ms, a game tick ten ticks late).
 *
 * Here the searches of the whole process share {@link PATH_BUDGET_MS} of
 * thinking per 50-ms tick: each search asking in a tick gets an equal share
 * (at least {@link MIN_THINK_MS}); when more are searching than the budget
 * has shares, they take turns, tick by tick. A path then takes more ticks to
 * find, never more of the loop. (A search that is not given time in a tick
 * answers what it has so far, as the library's own does when its time is
 * up; its first think, right when it starts, is never put off. The path it
 * answers is a copy, so what the pathfinder does to it does not change the
 * search.)
 */
import { createRequire } from 'node:module';

/** Milliseconds of path search per tick for all the bots of the process together. */
export const PATH_BUDGET_MS = 15;
/** A game tick. */
export const TICK_MS = 50;
/** The least a search thinks in a tick when it thinks at all (a few dozen nodes). */
export const MIN_THINK_MS = 1;

/**
 * Who may think how long in the current tick. Pure bookkeeping (the clock is given), so it can be tested alone.
 *
 * @example
 * const budget = new PathBudget(15, () => performance.now());
 * const ms = budget.grant(search); // 0: not this tick
 * budget.spent(tookMs);
 */
export class PathBudget {
  #tick = Number.NaN;
  #spent = 0;
  /** Searches that asked in this tick, and how many asked in the one before. */
  #asking = new Set<object>();
  #active = 0;
  #ids = new WeakMap<object, number>();
  #next = 0;

  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number,
  ) {}

  /** Milliseconds `search` may think now: its share of what is left of this tick's budget, or 0 when it is not its turn. */
  grant(search: object): number {
    const tick = Math.floor(this.now() / TICK_MS);
    if (tick !== this.#tick) {
      // Searches asking in the last tick are the ones that share this one (none asked: the first to ask has it all).
      this.#active = tick === this.#tick + 1 ? this.#asking.size : 0;
      this.#asking = new Set();
      this.#tick = tick;
      this.#spent = 0;
    }
    this.#asking.add(search);
    let id = this.#ids.get(search);
    const first = id === undefined;
    if (id === undefined) {
      id = this.#next++;
      this.#ids.set(search, id);
    }
    const active = Math.max(1, this.#active);
    const left = this.budgetMs - this.#spent;
    // A search's first think is never put off: mineflayer-pathfinder takes a first answer with no path for "arrived".
    if (first) return Math.max(MIN_THINK_MS, Math.min(this.budgetMs / active, left));
    // More searches than shares: they take turns, one group per tick.
    const groups = Math.max(1, Math.ceil((active * MIN_THINK_MS) / this.budgetMs));
    if (id % groups !== tick % groups) return 0;
    const share = (this.budgetMs * groups) / active;
    return Math.max(0, Math.min(share, left));
  }

  /** Count thinking done in this tick. */
  spent(ms: number): void {
    this.#spent += ms;
  }
}

/** mineflayer-pathfinder's `Move`: a node of a search, and a step of a path. */
interface MoveLike {
  x: number;
  y: number;
  z: number;
  remainingBlocks: number;
  cost: number;
  toBreak: unknown[];
  toPlace: unknown[];
  parkour: boolean;
}

interface Result {
  status: string;
  path: MoveLike[];
}

interface AStarLike {
  tickTimeout: number;
  bestNode: unknown;
  compute(): Result;
  makeResult(status: string, node: unknown): Result;
}

let installed = false;

/**
 * Make every path search of the process think within one budget (once per process, before the first search).
 *
 * @example
 * sharePathBudget();
 * bot.loadPlugin(pathfinder);
 */
export function sharePathBudget(budget = new PathBudget(PATH_BUDGET_MS, () => performance.now())): void {
  if (installed) return;
  installed = true;
  const fromPathfinder = createRequire(createRequire(import.meta.url).resolve('mineflayer-pathfinder'));
  const AStar = fromPathfinder('./lib/astar') as { prototype: AStarLike };
  const Move = fromPathfinder('./lib/move') as new (x: number, y: number, z: number, remaining: number, cost: number, toBreak: unknown[], toPlace: unknown[], parkour: boolean) => MoveLike;
  // A partial path's steps are the search's own nodes, and the pathfinder moves them in place as it smooths the
  // path and crosses off what it breaks as it walks: the search, going on from those nodes, would then search from
  // where they were moved to. It gets copies (a path is a few dozen steps).
  const copies = (result: Result): Result => {
    if (result.status === 'partial') result.path = result.path.map((m) => new Move(m.x, m.y, m.z, m.remainingBlocks, m.cost, [...m.toBreak], [...m.toPlace], m.parkour));
    return result;
  };
  const compute = AStar.prototype.compute;
  AStar.prototype.compute = function shared(this: AStarLike): Result {
    const ms = budget.grant(this);
    // Not its turn: what it has so far, to go on with next tick (the library's own answer when its time is up).
    if (ms <= 0) return copies(this.makeResult('partial', this.bestNode));
    this.tickTimeout = ms;
    const started = performance.now();
    try {
      return copies(compute.call(this));
    } finally {
      budget.spent(performance.now() - started);
    }
  };
}
