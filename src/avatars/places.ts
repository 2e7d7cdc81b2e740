/**
 * The places avatars remember (`state.json` `places`, docs/commands.md
 * "Places"), written here only: set by a person (`/place set`) or by the
 * avatar itself (the `remember_place` tool, the scripted engine's crafting
 * table and furnace), removed, and forgotten with their avatar or server.
 * Each avatar has its own places on each server: the ones it sees are those
 * of the server it is on now. Everyone else reads them through here.
 */
import { UserError } from '../errors.ts';
import { MAX_PLACES, noSuchPlace, placeNameProblem, type KnownPlaces, type PlaceBook, type PlaceSpot, type Remembered } from '../goals/places.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { Place } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { placesWriter } from '../store/writers/places.ts';
import type { AvatarRecords } from './avatar-records.ts';

/** Where a place is: a position in the world, as a snapshot gives it (the block it stands on is kept). */
export interface PlacePosition {
  x: number;
  y: number;
  z: number;
  dimension: string;
}

/** A place set: the place now, and where it was before when the name was in use already. */
export interface PlaceSet {
  place: DeepReadonly<Place>;
  was: DeepReadonly<Place> | undefined;
}

/** The block a position stands in: x and z floored, y rounded (feet on a block read 64.0, or 63.9999 on farmland). */
function blockOf(at: PlacePosition): Pick<Place, 'x' | 'y' | 'z' | 'dimension'> {
  return { x: Math.floor(at.x), y: Math.round(at.y), z: Math.floor(at.z), dimension: at.dimension };
}

function spotOf(p: DeepReadonly<Place>): PlaceSpot {
  return { name: p.name, x: p.x, y: p.y, z: p.z, dimension: p.dimension };
}

/**
 * @example
 * const places = new Places(store, records, () => new Date());
 * places.set('demo', 'base', snapshot.position && { ...snapshot.position, dimension: snapshot.dimension }, personId);
 * parseGoal('go to base', places.known('demo'));
 */
export class Places {
  /** `state.json` `places`: written here only. */
  private readonly file;

  constructor(
    store: Store,
    private readonly records: AvatarRecords,
    private readonly now: () => Date,
  ) {
    this.file = placesWriter(store);
  }

  /** The places of an avatar (any case) on the server it is on now, in the order they were first remembered. */
  of(avatar: string): readonly DeepReadonly<Place>[] {
    const record = this.records.get(avatar);
    if (!record) return [];
    return this.file.value.places.filter((p) => p.avatar === record.name && p.server === record.server);
  }

  /** An avatar's places as the goal language and the completion check read them, looked up anew on each call. */
  known(avatar: string): KnownPlaces {
    return {
      get: (name) => {
        const found = this.of(avatar).find((p) => p.name === name.toLowerCase());
        return found ? spotOf(found) : undefined;
      },
      names: () => this.of(avatar).map((p) => p.name),
    };
  }

  /** An avatar's places as its engine uses them: looked up, and remembered by the avatar itself. */
  bookOf(avatar: string): PlaceBook {
    return {
      ...this.known(avatar),
      remember: (name, spot): Remembered => {
        try {
          const { was } = this.set(avatar, name, spot, null);
          return { ok: true, moved: was !== undefined };
        } catch (err) {
          if (err instanceof UserError) return { ok: false, why: err.message };
          throw err;
        }
      },
    };
  }

  /**
   * Remember `name` (any case) at `at` for the avatar on its server, set by person `by` (null: the avatar itself);
   * a name in use moves to `at`. Throws UserError for a bad name, or a new one past {@link MAX_PLACES}.
   */
  set(avatar: string, name: string, at: PlacePosition, by: string | null): PlaceSet {
    const record = this.records.get(avatar);
    if (!record) throw new UserError('unknown_avatar', `There is no avatar called "${avatar}".`);
    const key = name.trim().toLowerCase();
    const problem = placeNameProblem(key);
    if (problem) throw new UserError('bad_place_name', `${problem[0]?.toUpperCase()}${problem.slice(1)}.`, record.name);
    const mine = this.of(record.name);
    const was = mine.find((p) => p.name === key);
    if (!was && mine.length >= MAX_PLACES) {
      throw new UserError('too_many_places', `${record.name} remembers ${MAX_PLACES} places on ${record.server} already, the most it keeps: /place remove <name> forgets one.`, record.name);
    }
    const place: Place = { avatar: record.name, server: record.server, name: key, ...blockOf(at), setAt: this.now().toISOString(), by };
    this.file.update((d) => {
      const i = d.places.findIndex((p) => p.avatar === place.avatar && p.server === place.server && p.name === key);
      if (i >= 0) d.places[i] = place;
      else d.places.push(place);
    });
    return { place, was };
  }

  /** Forget one of the avatar's places on its server; the place it was. Throws UserError when it knows none of that name. */
  remove(avatar: string, name: string): DeepReadonly<Place> {
    const record = this.records.get(avatar);
    if (!record) throw new UserError('unknown_avatar', `There is no avatar called "${avatar}".`);
    const key = name.trim().toLowerCase();
    const gone = this.of(record.name).find((p) => p.name === key);
    if (!gone) {
      const why = noSuchPlace(key, this.of(record.name).map((p) => p.name));
      throw new UserError('unknown_place', `${why[0]?.toUpperCase()}${why.slice(1)}.`, record.name);
    }
    this.forget((p) => p.avatar === gone.avatar && p.server === gone.server && p.name === gone.name);
    return gone;
  }

  /** A removed avatar: its places on every server go. Returns how many. */
  removeAllFor(avatar: string): number {
    return this.forget((p) => p.avatar.toLowerCase() === avatar.toLowerCase());
  }

  /** A renamed avatar: its places follow it. */
  renameAvatar(from: string, to: string): void {
    const mine = (p: DeepReadonly<Place>): boolean => p.avatar.toLowerCase() === from.toLowerCase();
    if (!this.file.value.places.some(mine)) return;
    this.file.update((d) => {
      for (const p of d.places) if (mine(p)) p.avatar = to;
    });
  }

  /** A removed server: every avatar's places on it go. Returns how many. */
  serverRemoved(server: string): number {
    return this.forget((p) => p.server === server);
  }

  /** Drop the places that match; how many went. */
  private forget(match: (p: DeepReadonly<Place>) => boolean): number {
    const gone = this.file.value.places.filter(match).length;
    if (gone === 0) return 0;
    this.file.update((d) => {
      d.places = d.places.filter((p) => !match(p));
    });
    return gone;
  }
}
