/**
 * A kept skill's manifest (docs/skills.md): what the avatar's learned skill
 * is called, what it does and takes, the goal it was written for, the check
 * it must pass, and how its runs went. Stored beside its code as
 * `DATA_DIR/avatars/<name>/skills/<skill>.json`, validated when read.
 */
import { z } from 'zod';

/** A learned skill's name: snake_case, 3–40 characters, starting with a letter. */
export const SKILL_NAME = /^[a-z][a-z0-9_]{2,39}$/;

/** The most params a learned skill takes. */
export const MAX_PARAMS = 8;

/** One param of a learned skill, as a JSON schema of a plain value. */
export const ParamSchema = z
  .object({
    type: z.enum(['string', 'number', 'integer', 'boolean']),
    description: z.string().max(200).optional(),
  })
  .strict();

/** A learned skill's params: a JSON schema of an object of plain values (what an engine offers a model as the tool's parameters). */
export const ParamsSchema = z
  .object({
    type: z.literal('object'),
    properties: z
      .record(z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]{0,31}$/, 'a param name is a word of letters, digits and _'), ParamSchema)
      .refine((p) => Object.keys(p).length <= MAX_PARAMS, `at most ${MAX_PARAMS} params`)
      .default({}),
    required: z.array(z.string()).default([]),
  })
  .strict()
  .refine((s) => s.required.every((r) => Object.hasOwn(s.properties, r)), 'every required param is one of its properties');

/** A learned skill's params schema. */
export type SkillParams = z.output<typeof ParamsSchema>;

/** How the last failed run of a skill failed. */
export const RunErrorSchema = z.object({
  message: z.string().max(1000),
  /** The script's line it failed on, when it is known. */
  line: z.number().int().min(1).nullable(),
  at: z.string(),
});

/** The manifest file. */
export const ManifestSchema = z.object({
  version: z.literal(1),
  name: z.string().regex(SKILL_NAME),
  description: z.string().min(1).max(300),
  params: ParamsSchema,
  /** The goal it was written for. */
  goal: z.string().max(300),
  /** A goal-language check it must pass after each run (`collect {count} oak logs`), or null. */
  postcondition: z.string().max(200).nullable(),
  createdAt: z.string(),
  runs: z.number().int().min(0),
  successes: z.number().int().min(0),
  lastRunAt: z.string().nullable(),
  lastError: RunErrorSchema.nullable(),
});

/** A kept skill as its manifest says (read only). */
export type KeptSkill = Readonly<z.output<typeof ManifestSchema>>;
