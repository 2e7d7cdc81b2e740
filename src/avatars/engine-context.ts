/**
 * What an avatar's engine is built from (`EngineContext`): its game, its
 * skills bound to that game (with its places: `go_to` a place, `remember_place`),
 * its TASK.md, the skills it wrote and the places it remembers, under its
 * name at the time (a renamed avatar's engine is built again with a new one).
 */
import type { Logger } from 'pino';
import type { EngineContext } from '../engines/engine.ts';
import { withPlaces } from '../engines/place-skills.ts';
import type { AvatarGame } from '../game/game.ts';
import type { SkillRegistryFactory } from '../game/skill.ts';
import type { AvatarFiles } from '../store/avatar-files.ts';
import { learnedSkills } from '../learned/learned-skills.ts';
import type { SkillLibrary } from '../learned/library.ts';
import type { TaskFile } from '../task/task-file.ts';
import type { Places } from './places.ts';

/** What every avatar's engine context is made from. */
export interface EngineContextParts {
  skills: SkillRegistryFactory;
  /** The skills avatars wrote and kept; absent, engines get none. */
  learned?: SkillLibrary | undefined;
  /** The places avatars remember; absent, engines get none. */
  places?: Places | undefined;
  /** The store, whose avatars' files hold each engine's saved session. */
  store: { readonly avatarFiles: AvatarFiles };
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
  const places = parts.places?.bookOf(name);
  const skills = places ? withPlaces(parts.skills(game), places, game) : parts.skills(game);
  const learned = parts.learned ? { learned: learnedSkills(parts.learned, { avatar: name, game, skills, now: parts.now }) } : {};
  return { avatar: name, game, log, skills, task, files: parts.store.avatarFiles.of(name), ...learned, ...(places ? { places } : {}) };
}
