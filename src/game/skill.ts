/**
 * The skill contract: one game ability, one file.
 *
 * Every skill has an id, a description (also the LLM tool description), zod
 * params, a timeout, optional preconditions, and `run(game, params, signal)`
 * that honours the `AbortSignal` and returns `{ ok, code, detail }` with a
 * stable code. An engine reaches the skills through the {@link SkillRegistry}
 * in its context (`skills/index.ts` builds the production one), so the
 * scripted engine and the LLM engine's tools use the same list.
 */
import type { z } from 'zod';
import type { AvatarGame } from './game.ts';

/** Stable result codes. Skills may add their own, but reuse these where they fit. */
export type SkillCode =
  | 'done'
  | 'no_target'
  | 'missing_tool'
  | 'missing_material'
  | 'unreachable'
  | 'timeout'
  | 'aborted'
  | 'unsupported_by_server'
  | 'not_connected'
  | 'precondition_failed'
  | 'bad_params'
  | 'threw'
  | (string & {});

/** What a skill run ends with. `detail` is one short human sentence. */
export interface SkillResult {
  ok: boolean;
  code: SkillCode;
  detail: string;
  /** For a script that failed (the `run_script` skill, docs/skills.md): the line of the script it failed on, 1 being its first. */
  line?: number;
  /**
   * A block the run set down and left standing (a crafting table the craft skill needed, a furnace for smelting,
   * what `place` placed), also on a run that failed after: the scripted engine remembers its table and furnace as places.
   */
  placed?: PlacedBlock;
}

/** A block set down in the world: its registry name and position. */
export interface PlacedBlock {
  block: string;
  x: number;
  y: number;
  z: number;
}

/**
 * A skill.
 *
 * @example
 * export const goTo: Skill<typeof params> = {
 *   id: 'go_to', description: 'Walk to x y z', params, timeoutMs: 60_000,
 *   async run(game, { x, y, z }, signal) { … return { ok: true, code: 'done', detail: 'arrived' }; },
 * };
 */
export interface Skill<P extends z.ZodType = z.ZodType> {
  id: string;
  description: string;
  params: P;
  timeoutMs: number;
  /** A quick check before running; return a failed result to refuse, or null to go ahead. */
  preconditions?(game: AvatarGame, params: z.infer<P>): SkillResult | null;
  run(game: AvatarGame, params: z.infer<P>, signal: AbortSignal): Promise<SkillResult>;
}

/**
 * The skills one avatar can use, bound to its game. Engines get it in their
 * context (`EngineContext.skills`) and never import `skills/`.
 *
 * @example
 * const r = await ctx.skills.run('collect', { item: 'oak_log', count: 3 }, signal);
 * if (!r.ok) log.info({ code: r.code }, r.detail);
 */
export interface SkillRegistry {
  /** Every skill, in registry order. */
  list(): readonly Skill[];
  /** A skill by id, or undefined. */
  get(id: string): Skill | undefined;
  /**
   * Run a skill to its result; never throws. Validates `params` with the skill's zod schema
   * (`bad_params`), checks its preconditions, applies its timeout (`timeout`), honours `signal`
   * (`aborted`), and goes through the game's skill gate; an unknown id gives `unknown_skill`. It also runs
   * `run_script` (a skill script, `src/game/sandbox/`), which {@link SkillRegistry.list} and
   * {@link SkillRegistry.get} do not offer.
   */
  run(id: string, params: unknown, signal: AbortSignal): Promise<SkillResult>;
}

/** Builds the skill registry of one avatar's game. */
export type SkillRegistryFactory = (game: AvatarGame) => SkillRegistry;
