/**
 * The engine kinds an avatar can have, in one list that the config, the
 * store's schema, the commands and the engine provider all read.
 */

/** The in-process engines, then the agent CLIs (`agents/`). */
export const ENGINE_KINDS = ['scripted', 'llm', 'opencode', 'claude-code', 'pi'] as const;

/** One of {@link ENGINE_KINDS}. */
export type EngineKind = (typeof ENGINE_KINDS)[number];
