/** The one writer of `state.json` `mcpTokens` (the people's MCP tokens, hashed): only its owner, `src/people/mcp-tokens.ts`, imports it (`.dependency-cruiser.cjs`). */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = mcpTokensWriter(store);
 */
export function mcpTokensWriter(store: Store): RecordWriter<Pick<StateFile, 'mcpTokens'>> {
  return recordWriter(store, 'state', ['mcpTokens']);
}
