/**
 * The engine kinds an avatar can have (docs/engines.md), in one list that the
 * config, the store's schema, the commands and the engine provider all read:
 * a leaf with no imports.
 */

/** The in-process engines, then the agent CLIs (`agents/`), in the order `/engine` offers them. */
export const ENGINE_KINDS = ['scripted', 'llm', 'hybrid', 'opencode', 'claude-code', 'pi'] as const;

/** One of {@link ENGINE_KINDS}. */
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** The engines a hybrid avatar's model turns can go to (`HYBRID_MODEL`): every one that asks a model. */
export const HYBRID_MODEL_KINDS = ['llm', 'opencode', 'claude-code', 'pi'] as const satisfies readonly EngineKind[];

/** One of {@link HYBRID_MODEL_KINDS}. */
export type HybridModelKind = (typeof HYBRID_MODEL_KINDS)[number];

/**
 * Whether an engine kind asks the llm engine's model (and so needs `LLM_MODEL`, and a key for a remote
 * endpoint): the llm engine, and the hybrid engine while its model turns go to it. The agent engines bring
 * their own model through their CLI.
 *
 * @example
 * needsModel('hybrid', 'llm') // → true
 * needsModel('hybrid', 'pi') // → false
 */
export function needsModel(kind: EngineKind, hybridModel: HybridModelKind): boolean {
  return kind === 'llm' || (kind === 'hybrid' && hybridModel === 'llm');
}

/**
 * What an engine asks, as `/engine` and `/usage` show it beside its name: the llm engine's model for the llm
 * engine and a hybrid one over it, the agent engine a hybrid avatar's model turns go to; undefined for the
 * scripted engine and the agent engines (a CLI names its own model).
 *
 * @example
 * modelShown('hybrid', 'gpt-4o-mini', 'llm') // → 'gpt-4o-mini'
 * modelShown('hybrid', 'gpt-4o-mini', 'claude-code') // → 'claude-code'
 */
export function modelShown(kind: EngineKind, llmModel: string | undefined, hybridModel: HybridModelKind): string | undefined {
  if (needsModel(kind, hybridModel)) return llmModel ?? 'no model set';
  return kind === 'hybrid' ? hybridModel : undefined;
}
