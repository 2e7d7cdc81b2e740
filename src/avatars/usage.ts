/**
 * What each avatar used (`goal-record.json` `usage`), written here only:
 * model tokens (prompt, completion, requests, cost) and, for a hybrid avatar,
 * its turns by who played them. {@link avatarUsage} reads it with the current
 * goal's and the ended goals' share: `/usage`, `/status` and the dashboard
 * show it.
 */
import type { PlayedBy, TurnUsage } from '../engines/engine.ts';
import type { DeepReadonly } from '../store/readonly.ts';
import type { GoalRecordEntry, Usage } from '../store/schema.ts';
import type { Store } from '../store/store.ts';
import { usageWriter } from '../store/writers/usage.ts';

/** The model tokens of one avatar, and a hybrid avatar's turns by who played them. */
export interface AvatarUsage {
  total: DeepReadonly<Usage> | undefined;
  current: DeepReadonly<Usage> | undefined;
  ended: readonly { text: string; outcome: GoalRecordEntry['outcome']; usage: DeepReadonly<Usage> }[];
}

/** Nothing used yet. */
export function noUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, requests: 0 };
}

/**
 * Add one metered turn's tokens to a usage (a draft).
 *
 * @example
 * addTokens(u, { promptTokens: 1200, completionTokens: 30, requests: 1 });
 */
export function addTokens(u: Usage, usage: TurnUsage): void {
  u.promptTokens += usage.promptTokens;
  u.completionTokens += usage.completionTokens;
  u.requests += usage.requests ?? 1;
  if (usage.costUsd !== undefined) u.costUsd = (u.costUsd ?? 0) + usage.costUsd;
}

/**
 * Count one turn of an engine made of others (the hybrid engine) in a usage (a draft), by who played it.
 *
 * @example
 * addTurn(u, { engine: 'llm', model: true }); // u.turns.model + 1
 */
export function addTurn(u: Usage, by: PlayedBy): void {
  const turns = (u.turns ??= { scripted: 0, model: 0 });
  if (by.model) turns.model += 1;
  else turns.scripted += 1;
}

/**
 * @example
 * const usage = new UsageBook(store);
 * usage.addTokens('steve', { promptTokens: 1200, completionTokens: 30, requests: 1 });
 */
export class UsageBook {
  private readonly file;

  constructor(store: Store) {
    this.file = usageWriter(store);
  }

  /** One avatar's usage in all, if it used anything. */
  of(avatar: string): DeepReadonly<Usage> | undefined {
    return this.file.value.usage[avatar];
  }

  /** Every avatar's usage in all. */
  all(): DeepReadonly<Record<string, Usage>> {
    return this.file.value.usage;
  }

  /** Add one metered turn's tokens. */
  addTokens(avatar: string, usage: TurnUsage): void {
    this.file.update((d) => addTokens((d.usage[avatar] ??= noUsage()), usage));
  }

  /** Count one hybrid turn by who played it. */
  addTurn(avatar: string, by: PlayedBy): void {
    this.file.update((d) => addTurn((d.usage[avatar] ??= noUsage()), by));
  }

  /** A removed avatar: its usage leaves the record; returned to be kept beside its files. */
  take(avatar: string): Usage | undefined {
    if (this.of(avatar) === undefined) return undefined;
    return this.file.update((d) => {
      const taken = d.usage[avatar];
      delete d.usage[avatar];
      return taken;
    });
  }

  /** A renamed avatar: its usage follows it. */
  rename(from: string, to: string): void {
    if (this.of(from) === undefined) return;
    this.file.update((d) => {
      const u = d.usage[from];
      if (!u) return;
      d.usage[to] = u;
      delete d.usage[from];
    });
  }
}

/**
 * The usage of the avatar called `name` (as stored: its record's name), read from the store.
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
