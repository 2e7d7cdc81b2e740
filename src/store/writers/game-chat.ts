/**
 * The one writer of `state.json` `relays` and `sayCommands` (the game's chat: chat relays, and the avatars whose
 * `/say` takes server commands): only its owner, `src/game-chat/game-chat.ts`, imports it (`.dependency-cruiser.cjs`).
 */
import { recordWriter, type RecordWriter } from '../record-writer.ts';
import type { StateFile } from '../schema.ts';
import type { Store } from '../store.ts';

/**
 * @example
 * const writer = gameChatWriter(store);
 */
export function gameChatWriter(store: Store): RecordWriter<Pick<StateFile, 'relays' | 'sayCommands'>> {
  return recordWriter(store, 'state', ['relays', 'sayCommands']);
}
