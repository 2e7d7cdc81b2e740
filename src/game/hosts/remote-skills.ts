/**
 * The skill registry of a game on an avatar host: the same list (ids,
 * descriptions, params: what the engines and the llm tools read), but `run`
 * goes to the host, which validates, times and runs the skill on its live
 * bot exactly as one process would (`skills/run.ts`), and aborts it there
 * when the signal aborts here.
 */
import type { AvatarGame } from '../game.ts';
import type { Skill, SkillRegistry, SkillRegistryFactory } from '../skill.ts';
import { HostedGame } from './hosted-game.ts';

/**
 * The factory for every avatar: hosted games run their skills on their host, the others through `local`.
 *
 * @example
 * const skills = hostedSkills(skillList, createSkillRegistry);
 * const registry = skills(game); // game from the hosted provider
 */
export function hostedSkills(list: readonly Skill[], local: SkillRegistryFactory): SkillRegistryFactory {
  const byId = new Map(list.map((s) => [s.id, s]));
  return (game: AvatarGame): SkillRegistry => {
    if (!(game instanceof HostedGame)) return local(game);
    return {
      list: () => list,
      get: (id) => byId.get(id),
      run: (id, params, signal) => game.runSkill(id, params, signal),
    };
  };
}
