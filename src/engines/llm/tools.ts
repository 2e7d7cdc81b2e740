/**
 * The llm engine's tools: every skill of the registry (zod params → JSON
 * schema, a one-line description), plus `look` (the game snapshot, and the
 * places the avatar remembers),
 * `rewrite_task` (the avatar's own part of TASK.md) and `lab_log` (append a
 * lesson). A tool call never throws: bad JSON, an unknown tool or bad params
 * come back to the model as a one-line error result.
 */
import { z } from 'zod';
import type { AvatarGame, Snapshot } from '../../game/game.ts';
import type { SkillRegistry } from '../../game/skill.ts';
import { distanceTo, type KnownPlaces } from '../../goals/places.ts';
import type { LearnedSkills } from '../../learned/learned-skills.ts';
import type { TaskFile } from '../../task/task-file.ts';
import type { CompletionCheck, EngineContext, TurnRequest } from '../engine.ts';
import type { ToolSchema } from './messages.ts';
import { keptSkillTool, learnedTools, NO_LEARNED_TOOLS, WRITE_SKILL, writeSkillTool, type LearnedToolResult, type LearnedTools } from './skill-tools.ts';
import type { RawToolCall } from './transport.ts';

/** Most characters of one tool result kept in the conversation. */
export const TOOL_RESULT_MAX = 600;
/** Longest own part of TASK.md `rewrite_task` accepts (the avatar is asked to stay under 6 KB). */
const TASK_MAX = 12_000;

/** What the tools act on. */
export interface ToolHost {
  skills: SkillRegistry;
  game: AvatarGame;
  task: TaskFile;
  /** The skills the avatar wrote (`write_skill` and kept skills run through it), when it keeps any. */
  learned?: LearnedSkills;
  /** The places the avatar remembers (`look` names them; `go_to` takes one). */
  places?: KnownPlaces;
  now(): Date;
}

/**
 * The tool host of an engine's avatar: its skills, game, TASK.md, and the kept skills and places it has.
 *
 * @example
 * this.host = toolHostOf(ctx, () => this.now());
 */
export function toolHostOf(ctx: EngineContext, now: () => Date): ToolHost {
  return {
    skills: ctx.skills,
    game: ctx.game,
    task: ctx.task,
    ...(ctx.learned ? { learned: ctx.learned } : {}),
    ...(ctx.places ? { places: ctx.places } : {}),
    now,
  };
}

/** The learned-skill tools of the turn a call belongs to, and what `write_skill` needs to know of the turn. */
export interface LearnedTurn {
  tools: LearnedTools;
  /** The goal a skill written now is for. */
  goal: string;
  /** The loop's completion check of the turn (judges a trial without a postcondition). */
  completion?: () => CompletionCheck;
  /** Names a new skill may not take: the engine's own tools. */
  reserved: readonly string[];
}

const lookParams = z.object({});
const rewriteParams = z.object({
  text: z.string().min(1).max(TASK_MAX),
});
const labParams = z.object({ entry: z.string().min(1).max(2000).describe('what worked, what did not') });

interface Builtin {
  name: string;
  description: string;
  params: z.ZodType;
  run(host: ToolHost, params: never): Promise<string>;
}

const BUILTINS: Builtin[] = [
  {
    name: 'look',
    description: 'See your state, inventory and what is near',
    params: lookParams,
    run: async (host) => {
      const snap = host.game.snapshot();
      return snap ? [describeSnapshot(snap), ...placesLine(host.places, snap)].join('\n') : 'not in the game right now';
    },
  },
  {
    name: 'rewrite_task',
    description: 'Replace your part of TASK.md',
    params: rewriteParams,
    run: async (host, { text }: z.infer<typeof rewriteParams>) => {
      await host.task.rewriteOwn(text);
      return `ok: TASK.md rewritten (${Buffer.byteLength(text, 'utf8')} bytes)`;
    },
  },
  {
    name: 'lab_log',
    description: 'Append a lesson to your lab log',
    params: labParams,
    run: async (host, { entry }: z.infer<typeof labParams>) => {
      await host.task.appendLab(entry, host.now());
      return 'ok: noted in the lab log';
    },
  },
];

/** The names of the engine's own tools (not skills): a skill the avatar writes may not take one. */
export const OWN_TOOL_NAMES: readonly string[] = [...BUILTINS.map((b) => b.name), WRITE_SKILL];

/**
 * The learned-skill tools of one turn beside `builtIn` (the tools the engine offers of its own: a kept skill may not
 * shadow one), and what `write_skill` needs of the turn: {@link learnedTools} over the host's learned skills and
 * places. The llm engine and an agent engine's MCP server both choose with it, so a turn offers the same either way.
 *
 * @example
 * const turn = await learnedTurn(host, request, toolSchemas(host.skills));
 * const offered = [...toolSchemas(host.skills), ...turn.tools.schemas];
 */
export async function learnedTurn(host: ToolHost, req: TurnRequest, builtIn: readonly ToolSchema[]): Promise<LearnedTurn> {
  const names = builtIn.map((t) => t.function.name);
  return {
    tools: await learnedTools(host.learned, req, new Set(names), host.places),
    goal: req.goal?.text ?? '',
    completion: () => req.completion(),
    reserved: [...OWN_TOOL_NAMES, ...names],
  };
}

/**
 * Schema keys left out: they cost characters on every request and the skill applies them anyway
 * (a value out of range comes back as a `bad_params` result the model can read; a parameter left
 * out takes its default, and `required` already says which may be left out).
 */
const DROPPED_KEYS = new Set(['$schema', 'additionalProperties', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'default']);
/** Most characters of a parameter's description. */
const PARAM_DESCRIPTION_MAX = 30;

/** A JSON schema without what costs characters and tells a model little. */
function compactSchema(node: unknown, key = ''): unknown {
  if (Array.isArray(node)) return node.map((n) => compactSchema(n));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    // Inside `properties` the keys are parameter names, never schema keywords.
    if (DROPPED_KEYS.has(k) && key !== 'properties') continue;
    if (k === 'description' && typeof v === 'string' && key !== 'properties') {
      out[k] = oneLineDescription(v, PARAM_DESCRIPTION_MAX);
      continue;
    }
    out[k] = compactSchema(v, k);
  }
  return out;
}

/**
 * A description as one short line: its first clause ("e.g." does not end it); when that is too long,
 * without its parentheses, then cut at the last comma or word that fits.
 */
export function oneLineDescription(text: string, max = 50): string {
  let line = (text.split(/(?<=[A-Za-z]{3}[.;:])\s|\n/)[0] ?? text).replace(/[.;:]$/, '').trim();
  if (line.length > max) line = line.replace(/\s*\([^)]*\)/g, '').trim();
  if (line.length <= max) return line;
  const head = line.slice(0, max + 1);
  const comma = head.lastIndexOf(',');
  const space = head.lastIndexOf(' ');
  return (comma > max / 2 ? head.slice(0, comma) : head.slice(0, space > 0 ? space : max)).trim();
}

/** The JSON schema of a zod object, compacted; an object schema with no properties when zod cannot represent it. */
function parameters(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  const compact = compactSchema(json) as Record<string, unknown>;
  return compact.type === 'object' ? compact : { type: 'object', properties: {} };
}

/**
 * The tools offered to the model: the skills, then the built-ins.
 *
 * @example
 * const tools = toolSchemas(ctx.skills); // [{ type: 'function', function: { name: 'collect', … } }, …]
 */
export function toolSchemas(skills: SkillRegistry): ToolSchema[] {
  const taken = new Set<string>();
  const out: ToolSchema[] = [];
  for (const s of skills.list()) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(s.id) || taken.has(s.id)) continue;
    taken.add(s.id);
    out.push({ type: 'function', function: { name: s.id, description: oneLineDescription(s.description), parameters: parameters(s.params) } });
  }
  for (const b of BUILTINS) {
    if (taken.has(b.name)) continue;
    out.push({ type: 'function', function: { name: b.name, description: b.description, parameters: parameters(b.params) } });
  }
  return out;
}

/** The tools a question turn may use: looking only (a question never acts in the game). */
export function questionTools(all: readonly ToolSchema[]): ToolSchema[] {
  return all.filter((t) => t.function.name === 'look');
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function inventoryText(inv: Record<string, number>, max: number): string {
  const items = Object.entries(inv)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  if (items.length === 0) return 'empty';
  const shown = items.slice(0, max).map(([k, n]) => `${k}×${n}`);
  return `${shown.join(', ')}${items.length > max ? ` (+${items.length - max} more)` : ''}`;
}

/** One short line of where the avatar stands, after each skill result. */
export function briefSnapshot(s: Snapshot): string {
  const p = s.position;
  return `pos ${Math.round(p.x)} ${Math.round(p.y)} ${Math.round(p.z)} · health ${Math.round(s.health)} · food ${Math.round(s.food)} · inventory: ${inventoryText(s.inventory, 8)}`;
}

/** The `look` result: the snapshot in a few lines. */
export function describeSnapshot(s: Snapshot): string {
  const blocks = Object.entries(s.nearbyBlocks)
    .sort((a, b) => a[1] - b[1])
    .slice(0, 8)
    .map(([k, d]) => `${k} ${Math.round(d)}m`);
  const entities = s.nearbyEntities.slice(0, 6).map((e) => `${e.name} (${e.kind}) ${Math.round(e.distance)}m`);
  const day = s.timeOfDay < 12_500 || s.timeOfDay > 23_500 ? 'day' : 'night';
  return [
    `${briefSnapshot(s)} · xp level ${s.xp.level} · ${day} · ${s.dimension}`,
    `near: ${blocks.length ? blocks.join(', ') : 'nothing notable'}`,
    `around: ${entities.length ? entities.join(', ') : 'nobody'}`,
  ].join('\n');
}

/** Most places `look` names (the nearest first). */
const LOOK_PLACES = 8;

/** The places the avatar remembers, nearest first, as one line for `look` (none: no line). */
function placesLine(places: KnownPlaces | undefined, s: Snapshot): string[] {
  const spots = (places?.names() ?? []).flatMap((n) => places?.get(n) ?? []);
  if (spots.length === 0) return [];
  const shown = spots
    .map((p) => ({ p, d: p.dimension === s.dimension ? distanceTo(p, s.position) : Infinity }))
    .sort((a, b) => a.d - b.d)
    .slice(0, LOOK_PLACES)
    .map(({ p, d }) => `${p.name} ${Number.isFinite(d) ? `${Math.round(d)}m` : p.dimension}`);
  return [`places (go_to place): ${shown.join(', ')}${spots.length > LOOK_PLACES ? ` (+${spots.length - LOOK_PLACES} more)` : ''}`];
}

/** What one tool call did: the result for the model and a short line for the session summary. */
export interface ToolOutcome {
  content: string;
  /** e.g. `collect {"item":"oak_log"} → ok done` */
  summary: string;
  /** The skill run, when the tool was a skill (the thought stream shows it). */
  action?: { skill: string; ok: boolean; code: string };
}

function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: {} };
  try {
    const value: unknown = JSON.parse(raw);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'the arguments must be a JSON object' };
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: `the arguments are not valid JSON (${cut((err as Error).message, 80)})` };
  }
}

/**
 * Run one tool call; never throws (the caller's abort ends a running skill with code `aborted`).
 *
 * @example
 * const { content } = await runTool(host, { id: 'c1', name: 'collect', arguments: '{"item":"oak_log"}' }, signal);
 */
export async function runTool(host: ToolHost, call: RawToolCall, signal: AbortSignal, allowed?: ReadonlySet<string>, turn?: LearnedTurn): Promise<ToolOutcome> {
  const name = call.name.trim();
  const argsShown = cut(call.arguments.replace(/\s+/g, ''), 60);
  const outcome = (content: string, short: string): ToolOutcome => ({
    content: cut(content, TOOL_RESULT_MAX),
    summary: cut(`${name || '?'} ${argsShown} → ${short}`, 140),
  });
  const learned = turn?.tools ?? NO_LEARNED_TOOLS;
  const builtin = BUILTINS.find((b) => b.name === name);
  const own = !builtin && host.learned && ((learned.write && name === WRITE_SKILL) || learned.kept.has(name)) ? host.learned : undefined;
  const skill = builtin || own ? undefined : host.skills.get(name);
  if ((!builtin && !skill && !own) || (allowed && !allowed.has(name))) {
    const names = allowed ? [...allowed] : [...host.skills.list().map((s) => s.id), ...BUILTINS.map((b) => b.name), ...(learned.write ? [WRITE_SKILL] : []), ...learned.kept];
    return outcome(`error: there is no tool called "${cut(name, 64)}" here; use one of: ${names.join(', ')}`, 'unknown tool');
  }
  const args = parseArguments(call.arguments);
  if (!args.ok) return outcome(`error: ${args.error}; call ${name} again with a JSON object`, 'bad arguments');
  if (own && turn) {
    const r: LearnedToolResult =
      name === WRITE_SKILL
        ? await writeSkillTool(own, args.value, { goal: turn.goal, ...(turn.completion ? { completion: turn.completion } : {}), reserved: turn.reserved }, signal)
        : await keptSkillTool(own, name, args.value, signal);
    const snap = host.game.snapshot();
    const now = snap ? `\nnow: ${briefSnapshot(snap)}` : '';
    return { ...outcome(`${r.content}${now}`, `${r.ok ? 'ok' : 'failed'} ${r.code}`), action: { skill: name, ok: r.ok, code: r.code } };
  }
  if (skill) {
    const r = await host.skills.run(name, args.value, signal);
    const snap = host.game.snapshot();
    const now = snap ? `\nnow: ${briefSnapshot(snap)}` : '';
    return { ...outcome(`${r.ok ? 'ok' : 'failed'} ${r.code}: ${r.detail}${now}`, `${r.ok ? 'ok' : 'failed'} ${r.code}`), action: { skill: name, ok: r.ok, code: r.code } };
  }
  const b = builtin as Builtin;
  const parsed = b.params.safeParse(args.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return outcome(`error: ${name}: ${issue?.path.join('.') || 'arguments'} ${issue?.message ?? 'invalid'}`, 'bad arguments');
  }
  try {
    const text = await b.run(host, parsed.data as never);
    return outcome(text, 'ok');
  } catch (err) {
    // A refused rewrite or a full disk: the model hears why and the turn goes on.
    return outcome(`error: ${name} failed: ${(err as Error).message}`, 'failed');
  }
}
