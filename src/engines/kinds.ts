/**
 * The engine kinds an avatar can have (docs/engines.md), in one list that the
 * config, the store's schema, the commands and the engine provider all read:
 * a leaf with no imports.
 */

/** The in-process engines, then the agent CLIs (`agents/`), in the order `/engine` offers them. */
export const ENGINE_KINDS = ['scripted', 'llm', 'hybrid', 'opencode', 'claude-code', 'pi'] as const;

/** One of {@link ENGINE_KINDS}. */
export type EngineKind = (typeof ENGINE_KINDS)[number];

/**
 * Whether an engine kind asks the llm engine's model (and so needs `LLM_MODEL`, and a key for a remote
 * endpoint). The agent engines bring their own model through their CLI.
 *
 * @example
 * needsModel('hybrid') // → true
 * needsModel('claude-code') // → false
 */
export function needsModel(kind: EngineKind): boolean {
  return kind === 'llm' || kind === 'hybrid';
}
