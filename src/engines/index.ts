/**
 * The engines mindlink offers, by name.
 */
import type { EngineProvider } from '../core.ts';
import { UserError } from '../errors.ts';
import { createScriptedEngine } from './scripted.ts';

/**
 * The production engine provider.
 *
 * @example
 * const core = await Mindlink.start({ config, log, games, engines: engineProvider });
 */
export const engineProvider: EngineProvider = (kind, ctx) => {
  if (kind === 'scripted') return createScriptedEngine(ctx);
  throw new UserError('engine_unavailable', 'The llm engine is not part of this build yet; use the scripted engine.');
};
