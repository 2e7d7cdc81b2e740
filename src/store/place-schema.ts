/**
 * The shape of a place an avatar remembers, as `state.json` keeps it (its
 * owner is `src/avatars/places.ts`; the file's other records are in `schema.ts`).
 */
import { z } from 'zod';
import { placeNameProblem } from '../goals/places.ts';

/**
 * A place an avatar remembers (`/place set`, or the avatar itself): where it stood, on one server. The
 * same avatar on another server has other places.
 */
export const PlaceSchema = z.object({
  /** The avatar's name. */
  avatar: z.string(),
  /** The server's id. */
  server: z.string(),
  name: z.string().refine((n) => placeNameProblem(n) === null, 'not a place name (lowercase letters, digits and dashes)'),
  x: z.number().int(),
  y: z.number().int(),
  z: z.number().int(),
  /** `overworld`, `the_nether`, `the_end`. */
  dimension: z.string(),
  /** When it was remembered (or last moved), ISO. */
  setAt: z.string(),
  /** Person id of who set it, or null when the avatar remembered it itself. */
  by: z.string().nullable(),
});
export type Place = z.infer<typeof PlaceSchema>;
