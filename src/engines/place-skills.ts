/**
 * The places an avatar remembers, as skills of its registry: `go_to` takes a
 * remembered `place` instead of x y z, and `remember_place` remembers where the
 * avatar stands under a name. Every engine that offers the registry's skills
 * as tools has them: the llm engine, the hybrid's model, and the agent engines
 * through their MCP server (`agents/avatar-mcp.ts`); the llm engine offers
 * `remember_place` on the turns that ask to remember ({@link asksToRemember}),
 * so that the others' requests stay small. The skills themselves run where the
 * avatar's game is (one process, or an avatar host); the places are looked up
 * and kept here, beside the store.
 */
import { z } from 'zod';
import type { AvatarGame } from '../game/game.ts';
import type { Skill, SkillRegistry, SkillResult } from '../game/skill.ts';
import { dimensionWords, noSuchPlace, PLACE_NAME_MAX, type PlaceBook } from '../goals/places.ts';
import type { TurnRequest } from './engine.ts';

/** The tool that remembers where the avatar stands. */
export const REMEMBER_PLACE = 'remember_place';

const goToParams = z
  .object({
    x: z.number().optional(),
    y: z.number().optional(),
    z: z.number().optional(),
    place: z.string().min(1).max(64).optional(),
    range: z.number().min(0).max(64).default(1),
  })
  .refine((p) => p.place !== undefined || (p.x !== undefined && p.y !== undefined && p.z !== undefined), { message: 'give x, y and z, or a place' });

const rememberParams = z.object({
  name: z.string().min(1).max(PLACE_NAME_MAX),
});

/** Words that ask an avatar to remember where something is ("remember this spot as camp", "mark the village"). */
const REMEMBER_WORDS = /\b(?:remember\w*|mark|bookmark|memori[sz]e)\b/i;

/**
 * Whether a turn asks the avatar to remember a place: its goal, the owner's message or an open direction says so.
 *
 * @example
 * asksToRemember({ ...req, goal: { text: 'remember this spot as camp', … } }) // → true
 */
export function asksToRemember(req: Pick<TurnRequest, 'goal'> & Partial<Pick<TurnRequest, 'message' | 'directions'>>): boolean {
  return [req.goal?.text ?? '', req.message ?? '', ...(req.directions ?? []).map((d) => d.text)].some((t) => REMEMBER_WORDS.test(t));
}

function fail(code: string, detail: string): SkillResult {
  return { ok: false, code, detail };
}

/** Parse a skill's params as the skill runner would: the data, or a `bad_params` result. */
function parsed<S extends z.ZodType>(id: string, schema: S, raw: unknown): { data: z.infer<S> } | { refused: SkillResult } {
  const r = schema.safeParse(raw ?? {});
  if (r.success) return { data: r.data };
  const issue = r.error.issues[0];
  return { refused: fail('bad_params', `${id}: ${issue?.path.join('.') || 'params'} ${issue?.message ?? 'invalid'}`) };
}

/**
 * The registry of `inner` with the avatar's places: `go_to` reads a `place`, and `remember_place` is added. The rest
 * (and `run_script`) is `inner`'s as it was.
 *
 * @example
 * const skills = withPlaces(createSkillRegistry(game), places.bookOf('demo'), game);
 * await skills.run('go_to', { place: 'base' }, signal); // walks to base, or fails naming the places it knows
 */
export function withPlaces(inner: SkillRegistry, places: PlaceBook, game: AvatarGame): SkillRegistry {
  const walk = inner.get('go_to');

  const goTo = async (raw: unknown, signal: AbortSignal): Promise<SkillResult> => {
    const p = parsed('go_to', goToParams, raw);
    if ('refused' in p) return p.refused;
    const { place, range } = p.data;
    if (place === undefined) return inner.run('go_to', { x: p.data.x, y: p.data.y, z: p.data.z, range }, signal);
    const spot = places.get(place);
    if (!spot) return fail('bad_params', noSuchPlace(place.trim().toLowerCase(), places.names()));
    const here = game.snapshot()?.dimension;
    if (here && here !== spot.dimension) return fail('unreachable', `${spot.name} is in ${dimensionWords(spot.dimension)} and I am in ${dimensionWords(here)}`);
    const r = await inner.run('go_to', { x: spot.x, y: spot.y, z: spot.z, range }, signal);
    const where = `${spot.name} (${spot.x} ${spot.y} ${spot.z})`;
    return { ...r, detail: r.ok ? `arrived at ${where}` : `${r.detail}, on the way to ${where}` };
  };

  const remember = async (raw: unknown): Promise<SkillResult> => {
    const p = parsed(REMEMBER_PLACE, rememberParams, raw);
    if ('refused' in p) return p.refused;
    const snap = game.snapshot();
    if (!snap || game.state !== 'connected') return fail('not_connected', 'not in the game right now');
    const r = places.remember(p.data.name, { ...snap.position, dimension: snap.dimension });
    if (!r.ok) return fail('bad_params', r.why);
    const spot = places.get(p.data.name);
    const where = spot ? `${spot.name} at ${spot.x} ${spot.y} ${spot.z}` : p.data.name;
    return { ok: true, code: 'done', detail: r.moved ? `moved ${where}` : `remembered ${where}` };
  };

  const goToSkill: Skill | undefined = walk && {
    id: 'go_to',
    description: 'Walk to x y z or a remembered place (within range blocks, default 1).',
    params: goToParams,
    timeoutMs: walk.timeoutMs,
    run: (_game, params, signal) => goTo(params, signal),
  };
  const rememberSkill: Skill = {
    id: REMEMBER_PLACE,
    description: 'Name the spot you stand on (base, iron-mine), to go back with go_to place.',
    params: rememberParams,
    timeoutMs: 5_000,
    run: (_game, params) => remember(params),
  };
  const list: readonly Skill[] = [...inner.list().map((s) => (s.id === 'go_to' && goToSkill ? goToSkill : s)), rememberSkill];
  return {
    list: () => list,
    get: (id) => list.find((s) => s.id === id),
    run(id, params, signal) {
      if (id === 'go_to' && walk) return goTo(params, signal);
      if (id === REMEMBER_PLACE) return remember(params);
      return inner.run(id, params, signal);
    },
  };
}
