/**
 * One avatar's learned skills as an engine uses them (docs/skills.md): write
 * one (checked, tried once on the avatar's game, kept only if the trial
 * succeeds), run a kept one (each run counted), list them, and pick the few
 * that fit a goal. Scripts run through the avatar's skill registry as the
 * `run_script` skill, so they run wherever its game is (on its avatar host
 * when there are hosts) with the same abort and time-out as any skill.
 *
 * @example
 * const learned = learnedSkills(library, { avatar: ctx.avatar, game: ctx.game, skills: ctx.skills });
 * const offered = await learned.relevant(request.goal?.text ?? '', 3); // tools beside the built-in skills
 * const r = await learned.writeSkill({ name: 'chop_oak', description: 'Chop oak logs', code, goal: 'collect 3 oak logs', postcondition: 'collect 1 oak log' }, signal);
 * if (!r.ok) return `error: ${r.message}${r.line ? ` (line ${r.line})` : ''}`;
 * const run = await learned.runKept('chop_oak', {}, signal);
 */
import { z } from 'zod';
import { emptySnapshot, type AvatarGame, type Snapshot } from '../game/game.ts';
import { RUN_SCRIPT, SCRIPT_DEFAULT_TIMEOUT_MS, SCRIPT_MAX_TIMEOUT_MS } from '../game/sandbox/script-api.ts';
import type { SkillRegistry, SkillResult } from '../game/skill.ts';
import { checkGoal, type GoalCheck } from '../goals/check.ts';
import { plainIssues } from '../validation.ts';
import { checkCode } from './code-check.ts';
import { MAX_KEPT_SKILLS, type SkillLibrary } from './library.ts';
import { ManifestSchema, ParamsSchema, SKILL_NAME, type KeptSkill, type SkillParams } from './manifest.ts';
import { rankSkills } from './relevance.ts';

/** What a new skill is made of. */
export interface WriteSkillRequest {
  /** snake_case, 3–40 characters, not a built-in skill's id. */
  name: string;
  /** What it does, in one line (≤ 300 characters): what {@link LearnedSkills.relevant} matches goals against. */
  description: string;
  /** The script: the body of an async function with the argument `params` (docs/skills.md). */
  code: string;
  /** A JSON schema of its params (`{ type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] }`); none when absent. */
  params?: unknown;
  /** The params of its trial run. */
  trialParams?: Record<string, unknown>;
  /** The goal it was written for. */
  goal: string;
  /**
   * What must hold after each run, in the goal language the loop checks (`collect {count} oak logs`, `have 4
   * oak planks`, `go to 10 64 -5`; `{name}` stands for that param). With none, a run succeeds when the script
   * finishes without an error, and the trial also asks `completion` when given.
   */
  postcondition?: string | null;
  /** The goal loop's completion check (`TurnRequest.completion`), asked after a trial without a postcondition. */
  completion?: () => GoalCheck;
  /** More names it may not take (the engine's own tools). */
  reserved?: readonly string[];
  /** How long the trial may run; 2 minutes when absent, at most 10. */
  timeoutMs?: number;
}

/** Why writing a skill failed: one of the codes below, a message for whoever wrote it, and the script's line when known. */
export interface WriteSkillFailure {
  ok: false;
  /**
   * `bad_name`, `bad_description`, `bad_params`, `bad_code`, `bad_postcondition`, `too_many_skills`, or how the
   * trial ended: `not_connected`, `script_error`, `timeout`, `out_of_memory`, `aborted`, `check_failed`.
   */
  code: string;
  message: string;
  line?: number;
}

/** A skill written and kept. */
export interface WriteSkillSuccess {
  ok: true;
  skill: KeptSkill;
  /** How its trial went ("the script finished in 4.1 s after 2 calls"). */
  detail: string;
}

/** What {@link LearnedSkills.writeSkill} answers. */
export type WriteSkillResult = WriteSkillSuccess | WriteSkillFailure;

/** What {@link learnedSkills} is bound to. */
export interface LearnedSkillsContext {
  avatar: string;
  game: AvatarGame;
  /** The avatar's skill registry (its `run` takes `run_script`). */
  skills: SkillRegistry;
  now?: () => Date;
}

/** One avatar's learned skills. */
export interface LearnedSkills {
  /** Every kept skill, by name. */
  list(): Promise<KeptSkill[]>;
  /** The `k` kept skills that fit `goal` best (by name, description and the goal each was written for), best first. */
  relevant(goal: string, k: number): Promise<KeptSkill[]>;
  /** Check a new skill, run it once on the game, and keep it if the run succeeds; never throws. */
  writeSkill(request: WriteSkillRequest, signal: AbortSignal): Promise<WriteSkillResult>;
  /**
   * Run a kept skill with `params` (checked against its schema: `bad_params`); never throws. Ends as a skill
   * does (`done`, or `script_error` with the `line`, `timeout`, `out_of_memory`, `aborted`, `check_failed`,
   * `unknown_skill`), and the run is counted in its manifest.
   */
  runKept(name: string, params: unknown, signal: AbortSignal): Promise<SkillResult>;
}

/** A postcondition with its `{param}` places filled from the run's params. */
function filled(postcondition: string, params: Record<string, unknown>): string {
  return postcondition.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(params, key) ? String(params[key]) : whole));
}

/** The zod schema of a learned skill's params. */
function paramsValidator(schema: SkillParams): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, p] of Object.entries(schema.properties)) {
    const base = p.type === 'string' ? z.string() : p.type === 'boolean' ? z.boolean() : p.type === 'integer' ? z.number().int() : z.number();
    shape[key] = schema.required.includes(key) ? base : base.optional();
  }
  return z.object(shape).strict();
}

/** The first issue of a failed parse, as `path message`. */
function firstIssue(error: z.ZodError, what: string): string {
  const issue = error.issues[0];
  return `${issue?.path.join('.') || what} ${issue?.message ?? 'is not valid'}`;
}

/**
 * The learned skills of one avatar, over the library's files.
 *
 * @example
 * const learned = learnedSkills(core.learned, { avatar: 'steve', game, skills: registry });
 */
export function learnedSkills(library: SkillLibrary, ctx: LearnedSkillsContext): LearnedSkills {
  const now = ctx.now ?? (() => new Date());
  const { avatar, game, skills } = ctx;

  /** Run a script and judge it by its postcondition (or `completion`): the skill-shaped result. */
  const trial = async (code: string, params: Record<string, unknown>, postcondition: string | null, timeoutMs: number, signal: AbortSignal, completion?: () => GoalCheck): Promise<SkillResult> => {
    const before: Snapshot | undefined = game.snapshot();
    if (!before) return { ok: false, code: 'not_connected', detail: 'not in the game right now' };
    const baseline = { ...before.inventory };
    const r = await skills.run(RUN_SCRIPT, { code, params, timeoutMs }, signal);
    if (!r.ok) return r;
    const after = game.snapshot();
    const check = postcondition ? (after ? checkGoal(filled(postcondition, params), baseline, after) : null) : (completion?.() ?? { checkable: false as const });
    if (check === null) return { ok: false, code: 'not_connected', detail: 'the script finished, but the avatar is no longer in the game to check it' };
    if (check.checkable && !check.met) {
      const what = postcondition ? `its postcondition "${filled(postcondition, params)}" is not met` : 'the goal is not met';
      return { ok: false, code: 'check_failed', detail: `the script finished, but ${what}: ${check.says}` };
    }
    return r;
  };

  const list = (): Promise<KeptSkill[]> => library.list(avatar);

  return {
    list,
    async relevant(goal, k) {
      return rankSkills(goal, await list(), k);
    },

    async writeSkill(req, signal) {
      const fail = (code: string, message: string, line?: number | null): WriteSkillFailure => ({ ok: false, code, message, ...(line ? { line } : {}) });
      const name = String(req.name ?? '').trim();
      if (!SKILL_NAME.test(name)) return fail('bad_name', `"${name.slice(0, 40)}" is not a skill name: snake_case, 3–40 letters, digits and _, starting with a letter`);
      const taken = new Set([...skills.list().map((s) => s.id), RUN_SCRIPT, ...(req.reserved ?? [])]);
      if (taken.has(name)) return fail('bad_name', `${name} is a built-in skill or tool: give the new skill a name of its own`);
      const description = String(req.description ?? '').replace(/\s+/g, ' ').trim();
      if (description === '' || description.length > 300) return fail('bad_description', 'describe the skill in one line of at most 300 characters');
      const params = ParamsSchema.safeParse(req.params ?? { type: 'object', properties: {} }, { error: plainIssues });
      if (!params.success) return fail('bad_params', `its params schema: ${firstIssue(params.error, 'params')}`);
      const trialParams = paramsValidator(params.data).safeParse(req.trialParams ?? {}, { error: plainIssues });
      if (!trialParams.success) return fail('bad_params', `the trial's params: ${firstIssue(trialParams.error, 'params')}`);
      const code = String(req.code ?? '');
      const looked = checkCode(code);
      if (!looked.ok) return fail('bad_code', looked.message, looked.line);
      const postcondition = req.postcondition?.trim() || null;
      if (postcondition !== null) {
        const probe = checkGoal(filled(postcondition, trialParams.data), {}, game.snapshot() ?? emptySnapshot());
        if (postcondition.length > 200 || !probe.checkable) {
          return fail('bad_postcondition', `"${postcondition.slice(0, 80)}" is not a check that can be made: write it as a goal such as "collect {count} oak logs", "have 4 oak planks" or "go to 10 64 -5"`);
        }
      }
      const kept = await list();
      if (kept.length >= MAX_KEPT_SKILLS && !kept.some((s) => s.name === name)) return fail('too_many_skills', `${avatar} keeps ${MAX_KEPT_SKILLS} skills already: remove one first`);

      const timeoutMs = Math.min(Math.max(req.timeoutMs ?? SCRIPT_DEFAULT_TIMEOUT_MS, 100), SCRIPT_MAX_TIMEOUT_MS);
      const r = await trial(code, trialParams.data, postcondition, timeoutMs, signal, req.completion);
      if (!r.ok) return fail(r.code, r.detail, r.line);
      const at = now().toISOString();
      const skill = ManifestSchema.parse({
        version: 1,
        name,
        description,
        params: params.data,
        goal: String(req.goal ?? '').slice(0, 300),
        postcondition,
        createdAt: at,
        runs: 1,
        successes: 1,
        lastRunAt: at,
        lastError: null,
      });
      await library.keep(avatar, skill, code);
      return { ok: true, skill, detail: r.detail };
    },

    async runKept(name, params, signal) {
      const found = await library.get(avatar, name);
      if (!found) return { ok: false, code: 'unknown_skill', detail: `${avatar} keeps no skill called ${name}` };
      const parsed = paramsValidator(found.skill.params).safeParse(params ?? {}, { error: plainIssues });
      if (!parsed.success) return { ok: false, code: 'bad_params', detail: `${name}: ${firstIssue(parsed.error, 'params')}` };
      const r = await trial(found.code, parsed.data, found.skill.postcondition, SCRIPT_DEFAULT_TIMEOUT_MS, signal);
      // A run stopped from outside says nothing about the skill.
      if (r.code !== 'aborted' && r.code !== 'not_connected') {
        await library.recordRun(avatar, name, r.ok ? { ok: true } : { ok: false, message: r.detail, line: r.line ?? null });
      }
      return r;
    },
  };
}

