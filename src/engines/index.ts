/**
 * The engines mindlink offers, by name.
 */
import { UserError } from '../errors.ts';
import type { EngineProvider } from './engine.ts';
import { createScriptedEngine } from './scripted.ts';

/**
 * The production engine provider.
 *
 * @example
 * const core = await Mindlink.start({ config, log, games, engines: engineProvider, skills, commands });
 */
export const engineProvider: EngineProvider = (kind, ctx) => {
  if (kind === 'scripted') return createScriptedEngine(ctx);
  throw new UserError('engine_unavailable', 'The llm engine is not part of this build yet; use the scripted engine.');
};
