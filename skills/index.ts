/**
 * The skill registry: the one list the scripted engine, the LLM engine's
 * tools and the reflexes use. A new skill is one file plus one line here.
 */
import type { Skill } from './skill.ts';
import { collect } from './collect.ts';
import { comeTo } from './come-to.ts';
import { craft } from './craft.ts';
import { eat } from './eat.ts';
import { explore } from './explore.ts';
import { fight } from './fight.ts';
import { flee } from './flee.ts';
import { follow } from './follow.ts';
import { goTo } from './go-to.ts';
import { place } from './place.ts';
import { say } from './say.ts';

export type { Skill, SkillResult, SkillCode } from './skill.ts';
export { runSkill } from './run.ts';

/** Every skill, by id. */
export const skills: Record<string, Skill> = {
  [collect.id]: collect,
  [goTo.id]: goTo,
  [follow.id]: follow,
  [comeTo.id]: comeTo,
  [craft.id]: craft,
  [eat.id]: eat,
  [flee.id]: flee,
  [fight.id]: fight,
  [place.id]: place,
  [say.id]: say,
  [explore.id]: explore,
};

/** Look a skill up by id. */
export function getSkill(id: string): Skill | undefined {
  return skills[id];
}
