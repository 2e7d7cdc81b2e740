/**
 * What an avatar used, read from the store: model tokens (and, for a hybrid
 * avatar, its turns by who played them) in all, on its current goal and on
 * its ended goals. `/usage`, `/status` and the dashboard show it.
 */
import type { GoalRecordEntry, Store, Usage } from '../store/store.ts';

/** The model tokens of one avatar, and a hybrid avatar's turns by who played them. */
export interface AvatarUsage {
  total: Usage | undefined;
  current: Usage | undefined;
  ended: readonly { text: string; outcome: GoalRecordEntry['outcome']; usage: Usage }[];
}

/**
 * The usage of the avatar called `name` (as stored: its record's name).
 *
 * @example
 * avatarUsage(store, 'demo').total // → { promptTokens: 2603, completionTokens: 46, requests: 2, turns: { scripted: 12, model: 2 } }
 */
export function avatarUsage(store: Store, name: string): AvatarUsage {
  const avatar = store.state.data.avatars.find((a) => a.name === name);
  return {
    total: store.record.data.usage[name],
    current: avatar?.goal?.usage,
    ended: store.record.data.goals.flatMap((g) => (g.avatar === name && g.usage ? [{ text: g.text, outcome: g.outcome, usage: g.usage }] : [])),
  };
}
