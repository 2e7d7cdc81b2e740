/**
 * What an avatar's engine is built from (`EngineContext`): its game, its
 * skills bound to that game, its TASK.md, and the skills it wrote, under its
 * name at the time (a renamed avatar's engine is built again with a new one).
 */
import type { Logger } from 'pino';
import type { EngineContext } from '../engines/engine.ts';
import type { AvatarGame } from '../game/game.ts';
import type { SkillRegistryFactory } from '../game/skill.ts';
import { learnedSkills } from '../learned/learned-skills.ts';
import type { SkillLibrary } from '../learned/library.ts';
import type { TaskFile } from '../task/task-file.ts';

/** What every avatar's engine context is made from. */
export interface EngineContextParts {
  skills: SkillRegistryFactory;
  /** The skills avatars wrote and kept; absent, engines get none. */
  learned?: SkillLibrary | undefined;
  now(): Date;
}

/**
 * The engine context of avatar `name` on `game`: one skill registry bound to the game serves both the engine's
 * tools and the scripts its learned skills run.
 *
 * @example
 * const engine = engines(avatar.engine, engineContext(parts, 'demo', game, log, task));
 */
export function engineContext(parts: EngineContextParts, name: string, game: AvatarGame, log: Logger, task: TaskFile): EngineContext {
  const skills = parts.skills(game);
  const learned = parts.learned ? { learned: learnedSkills(parts.learned, { avatar: name, game, skills, now: parts.now }) } : {};
  return { avatar: name, game, log, skills, task, ...learned };
}
