/**
 * The names of the engines an avatar can have (docs/engines.md): a leaf with
 * no imports, so the configuration, the store's schema and the engine
 * contract read the same list.
 */

/** Every engine kind, in the order `/engine` offers them. */
export const ENGINE_KINDS = ['scripted', 'llm', 'hybrid'] as const;

/** The engine kinds an avatar record names. */
export type EngineKind = (typeof ENGINE_KINDS)[number];

/**
 * Whether an engine kind asks a model (and so needs `LLM_MODEL`, and a key for a remote endpoint).
 *
 * @example
 * needsModel('hybrid') // → true
 */
export function needsModel(kind: EngineKind): boolean {
  return kind !== 'scripted';
}
