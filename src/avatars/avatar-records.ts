/**
 * The avatars' records (`state.json` `avatars`), written here only: created,
 * removed, renamed, moved to another server, given another engine or owner,
 * directions added, parked goals dropped; and, through the port each goal
 * loop gets ({@link AvatarRecords.portOf}), the goal, parked goals,
 * directions and loop state as the loop decides them (`src/loop/goal-moves.ts`).
 * A goal that ends goes to the goal record ({@link GoalHistory}), tokens to the
 * usage ({@link UsageBook}). Everyone else reads the records read-only.
 */
import type { EngineKind } from '../engines/engine.ts';
import { UserError } from '../errors.ts';
import type { GoalPort } from '../loop/goal-port.ts';
import { changed, directionsRetired, measured, ownerGoalSet, parkedAside, toMeasure } from '../loop/goal-moves.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Avatar, Direction, ParkedGoal } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { avatarsWriter } from '../store/writers/avatars.ts';
import { addDirection } from '../task/directions.ts';
import type { GoalHistory } from './goal-history.ts';
import { addTokens, addTurn, noUsage, type UsageBook } from './usage.ts';

/**
 * @example
 * const records = new AvatarRecords(store, history, usage, () => new Date());
 * records.add(newAvatarRecord('steve', ownerId, 'embedded', 'scripted', false, new Date()));
 * records.setOwner('steve', otherId);
 */
export class AvatarRecords {
  private readonly file;

  constructor(
    store: Store,
    private readonly history: GoalHistory,
    private readonly usage: UsageBook,
    private readonly now: () => Date,
  ) {
    this.file = avatarsWriter(store);
  }

  /** Every avatar's record, read-only. */
  all(): readonly DeepReadonly<Avatar>[] {
    return this.file.value.avatars;
  }

  /** One avatar by name (case-insensitive). */
  get(name: string): DeepReadonly<Avatar> | undefined {
    const n = name.toLowerCase();
    return this.all().find((a) => a.name.toLowerCase() === n);
  }

  /** Store a new avatar. */
  add(record: Avatar): void {
    this.file.update((d) => d.avatars.push(record));
  }

  /** Remove an avatar's record; the record it was. */
  remove(name: string): DeepReadonly<Avatar> | undefined {
    const gone = this.all().find((a) => a.name === name);
    if (!gone) return undefined;
    this.file.update((d) => {
      d.avatars = d.avatars.filter((a) => a.name !== name);
    });
    return gone;
  }

  /** Give an avatar a new name. */
  rename(from: string, to: string): void {
    this.change(from, (a) => {
      a.name = to;
    });
  }

  /** Give an avatar another engine. */
  setEngine(name: string, kind: EngineKind): void {
    this.change(name, (a) => {
      a.engine = kind;
    });
  }

  /** Give an avatar to another person. */
  setOwner(name: string, personId: string): void {
    this.change(name, (a) => {
      a.owner = personId;
    });
  }

  /** Put an avatar on another server. */
  setServer(name: string, server: string): void {
    this.change(name, (a) => {
      a.server = server;
    });
  }

  /** Store an avatar as stopped when it has no loop to ask (its parts could not be built at start). */
  setStopped(name: string): void {
    this.change(name, (a) => {
      a.playing = false;
      a.state = 'stopped';
    });
  }

  /** Store a new owner direction; it and the older ones that no longer fit. */
  addDirection(name: string, text: string, by: string | null): { added: Direction; dropped: Direction[] } {
    return this.change(name, (a) => addDirection(a.directions, text, by, this.now()));
  }

  /**
   * Drop parked goals: `which` holds their positions in the list (1 is the oldest), or is `all`.
   * Throws UserError, dropping nothing, when a position is not in the list. Returns the goals dropped.
   */
  dropParked(name: string, which: readonly number[] | 'all'): ParkedGoal[] {
    const count = this.record(name).parked.length;
    const missing = which === 'all' ? [] : which.filter((n) => !Number.isInteger(n) || n < 1 || n > count);
    if (missing.length > 0) {
      const have = count === 0 ? 'I have no parked goal' : `I have ${count} (1–${count}; /parked lists them)`;
      throw new UserError('no_such_parked', `There is no parked goal ${missing.join(', ')}: ${have}. Nothing was dropped.`, name);
    }
    return this.change(name, (a) => {
      const drop = which === 'all' ? a.parked.map((_, i) => i) : [...new Set(which)].map((n) => n - 1);
      const dropped = a.parked.filter((_, i) => drop.includes(i));
      a.parked = a.parked.filter((_, i) => !drop.includes(i));
      return dropped;
    });
  }

  /** The port of one avatar's goal loop: its record, the moves the loop makes, its own flush. */
  portOf(name: string): GoalPort {
    const now = this.now;
    return {
      record: () => this.record(name),
      history: () => this.history.all(),
      setOwnerGoal: (text, setById, snap, origin) => {
        const { ended, parked } = this.change(name, (a) => ownerGoalSet(a, text, setById, snap, origin, now()));
        this.history.append(ended);
        return parked;
      },
      parkAside: (text, setById, reason, setIn) => this.history.append(this.change(name, (a) => parkedAside(a, text, setById, reason, setIn, now()))),
      apply: (change, snap) => {
        if (change.kind === 'keep') return;
        this.history.append(this.change(name, (a) => changed(a, change, snap, now())));
      },
      measureBaseline: (snap) => (toMeasure(this.record(name).goal, snap) ? this.change(name, (a) => measured(a, snap)) : undefined),
      retireDirections: (numbers) => {
        const open = this.record(name).directions.open;
        return numbers.some((n) => open.some((d) => d.n === n)) ? this.change(name, (a) => directionsRetired(a, numbers, now())) : [];
      },
      recordUsage: (used) => {
        this.usage.addTokens(name, used);
        if (this.record(name).goal) this.change(name, (a) => a.goal && addTokens((a.goal.usage ??= noUsage()), used));
      },
      recordTurn: (by) => {
        this.usage.addTurn(name, by);
        if (this.record(name).goal) this.change(name, (a) => a.goal && addTurn((a.goal.usage ??= noUsage()), by));
      },
      setLoop: (playing, phase) =>
        this.change(name, (a) => {
          a.playing = playing;
          a.state = phase;
        }),
      saved: () => this.file.flush(),
    };
  }

  /** One avatar's record by its exact name; throws when it is not stored. */
  private record(name: string): DeepReadonly<Avatar> {
    const a = this.all().find((x) => x.name === name);
    if (!a) throw new Error(`avatar ${name} is not in the store`);
    return a;
  }

  /** Change one avatar's record (its draft); `fn`'s result. Throws when it is not stored. */
  private change<R>(name: string, fn: (a: Avatar) => R): R {
    this.record(name);
    return this.file.update((d) => fn(d.avatars.find((x) => x.name === name) as Avatar));
  }
}
