/**
 * Places an avatar remembers (docs/commands.md "Places"), as the goal language,
 * the completion check and the engines read them: what a place name may be,
 * how many an avatar keeps, and the lookup of one avatar's places on the
 * server it plays on. The places themselves are stored by their owner
 * (`src/avatars/places.ts`).
 */

/** A remembered place: its name and the block position the avatar stood on, in its dimension. */
export interface PlaceSpot {
  name: string;
  x: number;
  y: number;
  z: number;
  /** `overworld`, `the_nether`, `the_end` (as the snapshot names it). */
  dimension: string;
}

/** The places one avatar remembers on the server it plays on now. */
export interface KnownPlaces {
  /** A place by name (any case), or undefined. */
  get(name: string): PlaceSpot | undefined;
  /** Every name, in the order they were first remembered. */
  names(): string[];
}

/** The longest place name. */
export const PLACE_NAME_MAX = 24;

/** The most places one avatar keeps on one server. */
export const MAX_PLACES = 30;

/** Words the goal language reads as something else ("go to the …", "come to me"): never place names. */
const RESERVED = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'this', 'that', 'here', 'there', 'me', 'you', 'it', 'us', 'them']);

/** A place name: lowercase words of letters and digits joined by single dashes, with a letter somewhere. */
const PLACE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * What is wrong with a place name (already lowercased), or null when it is a good one.
 *
 * @example
 * placeNameProblem('iron-mine') // null
 * placeNameProblem('my base')   // 'a place name is one word: lowercase letters, digits and dashes (my-base, not "my base")'
 */
export function placeNameProblem(name: string): string | null {
  if (name === '') return 'name the place, e.g. base';
  if (name.length > PLACE_NAME_MAX) return `a place name is at most ${PLACE_NAME_MAX} characters`;
  if (/\s/.test(name)) return `a place name is one word: lowercase letters, digits and dashes (${name.trim().split(/\s+/).join('-')}, not "${name}")`;
  if (!PLACE_NAME.test(name)) return 'a place name is lowercase letters, digits and dashes, e.g. base or iron-mine';
  if (!/[a-z]/.test(name)) return 'a place name needs a letter (a number alone reads as a coordinate)';
  if (RESERVED.has(name)) return `"${name}" cannot be a place name: goals read it as something else`;
  return null;
}

/**
 * The refusal for a place the avatar does not know, naming those it does.
 *
 * @example
 * noSuchPlace('bse', ['base', 'village']) // "I know no place called 'bse'; my places: base, village"
 */
export function noSuchPlace(name: string, known: readonly string[]): string {
  const shown = name.length > PLACE_NAME_MAX ? `${name.slice(0, PLACE_NAME_MAX)}…` : name;
  if (known.length === 0) return `I know no place called '${shown}'; I remember no places yet (/place set <name> remembers where I stand)`;
  return `I know no place called '${shown}'; my places: ${known.join(', ')}`;
}

/**
 * A lookup over a list of places (the owner's, or a test's).
 *
 * @example
 * const known = placeList([{ name: 'base', x: 10, y: 64, z: -3, dimension: 'overworld' }]);
 * known.get('Base') // → the base
 */
export function placeList(spots: readonly PlaceSpot[]): KnownPlaces {
  return {
    get: (name) => spots.find((p) => p.name === name.toLowerCase()),
    names: () => spots.map((p) => p.name),
  };
}

/** How far a position is from a place, in blocks (straight line). */
export function distanceTo(place: PlaceSpot, at: { x: number; y: number; z: number }): number {
  return Math.hypot(at.x - place.x, at.y - place.y, at.z - place.z);
}

/** A dimension as a person says it: `the nether`, `the end`, `the overworld`. */
export function dimensionWords(dimension: string): string {
  const bare = dimension.replace(/^minecraft:/, '').replace(/^the_/, '');
  return `the ${bare.replace(/_/g, ' ')}`;
}

/** What remembering a place came to: done (`moved` when the name was in use and now points here), or why not. */
export type Remembered = { ok: true; moved: boolean } | { ok: false; why: string };

/** One avatar's places as its engine uses them: looked up, and remembered where it stands (`remember_place`, the scripted engine's table). */
export interface PlaceBook extends KnownPlaces {
  /** Remember `name` (any case) at `spot` on the avatar's server, moving it if the name is in use. */
  remember(name: string, spot: Omit<PlaceSpot, 'name'>): Remembered;
}
