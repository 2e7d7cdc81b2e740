/**
 * The tools over the skills the avatar wrote (docs/skills.md), offered by the
 * llm engine and by an agent engine's MCP server alike:
 * `write_skill` (a script over its skills, tried once and kept if it works)
 * and the few kept skills that fit the turn's goal, each offered as a tool of
 * its own beside the built-in ones. Which of them a turn carries is decided
 * per turn ({@link learnedTools}), so a request stays small: `write_skill`
 * only where the built-in skills are not enough (a goal outside the goal
 * language, a blocked route, a handed-over turn), kept skills only when
 * their words fit the goal, and neither on a wrap-up (it writes a lesson, it does not act).
 */
import { z } from 'zod';
import { parseGoal } from '../../goals/goal-language.ts';
import type { KnownPlaces } from '../../goals/places.ts';
import type { LearnedSkills } from '../../learned/learned-skills.ts';
import type { KeptSkill } from '../../learned/manifest.ts';
import type { CompletionCheck, TurnRequest } from '../engine.ts';
import type { ToolSchema } from './messages.ts';

/** The tool that writes a skill. */
export const WRITE_SKILL = 'write_skill';

/** How many kept skills a turn offers at most (the most relevant to its goal). */
export const KEPT_OFFERED = 3;

/** Most characters of a kept skill's description in its tool schema. */
const KEPT_DESCRIPTION_MAX = 120;

/** What `write_skill` takes (checked again, in full, by the library: `learned-skills.ts`). */
const writeParams = z.object({
  name: z.string().min(1).max(64),
  description: z.string().min(1).max(400),
  code: z.string().min(1).max(20_000),
  params: z.record(z.string(), z.unknown()).optional(),
  trial_params: z.record(z.string(), z.unknown()).optional(),
  postcondition: z.string().max(400).optional(),
});

/** `write_skill`'s schema, written by hand: each word of it is sent with every request that offers it. */
const WRITE_SKILL_SCHEMA: ToolSchema = {
  type: 'function',
  function: {
    name: WRITE_SKILL,
    description:
      'Write a reusable skill: JS body of an async function of `params`. Await your skills as camelCase functions (collect, goTo, place, craft…; same params; a failure throws) and inventory(), position(), blocksNear(). Tried once now; kept, and offered as a tool, if it works.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'snake_case' },
        description: { type: 'string', description: 'one line: what it does' },
        code: { type: 'string' },
        params: { type: 'object', description: 'JSON schema of params' },
        trial_params: { type: 'object' },
        postcondition: { type: 'string', description: 'a goal that must hold after, {param} filled' },
      },
      required: ['name', 'description', 'code'],
    },
  },
};

/** The learned-skill tools of one turn. */
export interface LearnedTools {
  /** Their schemas, to send beside the built-in tools. */
  schemas: ToolSchema[];
  /** The kept skills offered, by tool name. */
  kept: ReadonlySet<string>;
  /** Whether `write_skill` is offered. */
  write: boolean;
}

/** A turn with no learned-skill tools. */
export const NO_LEARNED_TOOLS: LearnedTools = { schemas: [], kept: new Set(), write: false };

/**
 * Whether a turn offers `write_skill`: an acting turn on which the built-in skills fall short, or may have (the goal is
 * outside the goal language, the route is blocked, another engine hands the turn over). A wrap-up does not: a skill
 * that worked was kept when it was written, and the wrap-up's lesson is words.
 */
function offersWrite(req: TurnRequest, places: KnownPlaces | undefined): boolean {
  if (req.kind === 'question' || req.kind === 'wrapup') return false;
  if (req.kind === 'blocked' || req.handover) return true;
  return req.goal !== null && parseGoal(req.goal.text, places).kind === 'unknown';
}

/**
 * The learned-skill tools of one turn: `write_skill` where {@link offersWrite} says so, and the {@link KEPT_OFFERED}
 * kept skills most relevant to the goal whose names no built-in tool has (`taken`).
 *
 * @example
 * const learned = await learnedTools(ctx.learned, request, new Set(tools.map((t) => t.function.name)), ctx.places);
 * const offered = [...tools, ...learned.schemas];
 */
export async function learnedTools(learned: LearnedSkills | undefined, req: TurnRequest, taken: ReadonlySet<string>, places?: KnownPlaces): Promise<LearnedTools> {
  // A question only looks, and a wrap-up only writes its lesson: neither acts.
  if (!learned || req.kind === 'question' || req.kind === 'wrapup') return NO_LEARNED_TOOLS;
  const relevant = req.goal ? (await learned.relevant(req.goal.text, KEPT_OFFERED + taken.size)).filter((s) => !taken.has(s.name) && s.name !== WRITE_SKILL).slice(0, KEPT_OFFERED) : [];
  const write = offersWrite(req, places) && !taken.has(WRITE_SKILL);
  return {
    schemas: [...(write ? [WRITE_SKILL_SCHEMA] : []), ...relevant.map(keptSchema)],
    kept: new Set(relevant.map((s) => s.name)),
    write,
  };
}

/** A kept skill as a tool: its description (with its record of runs) and its params. */
function keptSchema(s: KeptSkill): ToolSchema {
  const record = s.runs > 0 ? ` (${s.successes}/${s.runs} runs ok)` : '';
  const description = s.description.length > KEPT_DESCRIPTION_MAX ? `${s.description.slice(0, KEPT_DESCRIPTION_MAX - 1)}…` : s.description;
  const properties: Record<string, unknown> = {};
  for (const [key, p] of Object.entries(s.params.properties)) properties[key] = p.description ? { type: p.type, description: p.description.slice(0, 60) } : { type: p.type };
  return {
    type: 'function',
    function: {
      name: s.name,
      description: `Your own skill: ${description}${record}`,
      parameters: { type: 'object', properties, ...(s.params.required.length > 0 ? { required: s.params.required } : {}) },
    },
  };
}

/** What a learned-skill tool call did: the result for the model and whether it succeeded, with its code. */
export interface LearnedToolResult {
  content: string;
  ok: boolean;
  code: string;
}

/**
 * Run `write_skill`: the request checked and handed to the library, which tries it once and keeps it if it works.
 *
 * @example
 * const r = await writeSkillTool(learned, args, { goal: 'build a pillar of 3 dirt', completion, reserved }, signal);
 */
export async function writeSkillTool(
  learned: LearnedSkills,
  args: unknown,
  turn: { goal: string; completion?: () => CompletionCheck; reserved: readonly string[] },
  signal: AbortSignal,
): Promise<LearnedToolResult> {
  const parsed = writeParams.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, code: 'bad_params', content: `error: ${WRITE_SKILL}: ${issue?.path.join('.') || 'arguments'} ${issue?.message ?? 'invalid'}` };
  }
  const a = parsed.data;
  const r = await learned.writeSkill(
    {
      name: a.name,
      description: a.description,
      code: a.code,
      ...(a.params !== undefined ? { params: a.params } : {}),
      ...(a.trial_params !== undefined ? { trialParams: a.trial_params } : {}),
      goal: turn.goal,
      postcondition: a.postcondition ?? null,
      ...(turn.completion ? { completion: turn.completion } : {}),
      reserved: turn.reserved,
    },
    signal,
  );
  if (!r.ok) return { ok: false, code: r.code, content: `error: ${r.code}: ${r.message}${r.line && !r.message.startsWith(`line ${r.line}`) ? ` (line ${r.line})` : ''}` };
  return { ok: true, code: 'kept', content: `ok: kept ${r.skill.name} (its trial: ${r.detail}); it is offered as a tool when a goal fits` };
}

/**
 * Run a kept skill offered as a tool (its params checked against its schema by the library; the run counted).
 *
 * @example
 * const r = await keptSkillTool(learned, 'build_pillar', { height: 3 }, signal);
 */
export async function keptSkillTool(learned: LearnedSkills, name: string, args: unknown, signal: AbortSignal): Promise<LearnedToolResult> {
  const r = await learned.runKept(name, args, signal);
  const where = r.line ? ` (line ${r.line})` : '';
  return { ok: r.ok, code: r.code, content: `${r.ok ? 'ok' : 'failed'} ${r.code}: ${r.detail}${r.ok ? '' : where}` };
}
