/**
 * The skill registry: the one list the scripted engine, the LLM engine's
 * tools and the reflexes use. A new skill is one file plus one line here.
 * `shelter` is a reflex's own action (skills/reflexes.ts runs it), offered to
 * no engine: hiding at night is a reflex, not a goal.
 */
import type { AvatarGame } from '../src/game/game.ts';
import type { Skill, SkillRegistry } from '../src/game/skill.ts';
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
import { runSkill } from './run.ts';
import { scriptRunner } from './run-script.ts';
import { say } from './say.ts';
import { smelt } from './smelt.ts';

export type { Skill, SkillResult, SkillCode, SkillRegistry } from '../src/game/skill.ts';
export { runSkill } from './run.ts';

/** Every skill, in registry order. */
export const skills: readonly Skill[] = [collect, goTo, follow, comeTo, craft, smelt, eat, flee, fight, place, say, explore];

/** A skill of {@link skills} by id. */
export function getSkill(id: string): Skill | undefined {
  return skills.find((s) => s.id === id);
}

/**
 * The registry of one avatar's game: `list`, `get` and `run` (through {@link runSkill}) over `list`. `run`
 * also takes `run_script` (skills/run-script.ts), whose scripts call the skills of this registry; it is in
 * neither `list` nor `get`, so no engine offers it as a tool.
 *
 * @example
 * const engine = createScriptedEngine({ avatar: 'demo', game, log, skills: createSkillRegistry(game) });
 */
export function createSkillRegistry(game: AvatarGame, list: readonly Skill[] = skills): SkillRegistry {
  const byId = new Map(list.map((s) => [s.id, s]));
  const registry: SkillRegistry = {
    list: () => list,
    get: (id) => byId.get(id),
    async run(id, params, signal) {
      const skill = id === script.id ? script : byId.get(id);
      if (!skill) return { ok: false, code: 'unknown_skill', detail: `I don't have a ${id} skill yet` };
      return runSkill(skill, game, params, signal);
    },
  };
  const script = scriptRunner(registry);
  return registry;
}
