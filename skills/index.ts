/**
 * The skill registry: the one list the scripted engine, the LLM engine's
 * tools and the reflexes use. A new skill is one file plus one line here.
 */
import type { Skill } from './skill.ts';

export type { Skill, SkillResult, SkillCode } from './skill.ts';
export { runSkill } from './run.ts';

/** Every skill, by id. */
export const skills: Record<string, Skill> = {};

/** Look a skill up by id. */
export function getSkill(id: string): Skill | undefined {
  return skills[id];
}
