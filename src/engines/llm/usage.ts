/**
 * Token usage: sums, and what it costs at the configured prices
 * (`LLM_PRICE_IN` / `LLM_PRICE_OUT`, per million tokens).
 */

/** Tokens counted over some requests. */
export interface UsageTotals {
  promptTokens: number;
  completionTokens: number;
  requests: number;
}

/** Tokens counted, and the USD the engines reported themselves (an agent CLI's own figure) when any did. */
export type CountedUsage = UsageTotals & { costUsd?: number | undefined };

/** Prices per million tokens; either may be unknown. */
export interface Prices {
  inPerMillion?: number | undefined;
  outPerMillion?: number | undefined;
}

/** No tokens yet. */
export function noUsage(): UsageTotals {
  return { promptTokens: 0, completionTokens: 0, requests: 0 };
}

/**
 * Add `b` into `a` (in place) and return `a`.
 *
 * @example
 * addUsage(total, { promptTokens: 1200, completionTokens: 80, requests: 1 });
 */
export function addUsage(a: UsageTotals, b: { promptTokens: number; completionTokens: number; requests?: number }): UsageTotals {
  a.promptTokens += b.promptTokens;
  a.completionTokens += b.completionTokens;
  a.requests += b.requests ?? 1;
  return a;
}

/** The cost the engines reported (agent CLIs), else the cost at the prices' rates; null when neither is known. */
export function costOf(u: CountedUsage, prices: Prices): number | null {
  if (u.costUsd !== undefined) return u.costUsd;
  if (prices.inPerMillion === undefined && prices.outPerMillion === undefined) return null;
  return (u.promptTokens * (prices.inPerMillion ?? 0) + u.completionTokens * (prices.outPerMillion ?? 0)) / 1_000_000;
}

/** `12,345` */
export function formatTokens(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A hybrid avatar's turns by who played them. */
export interface TurnTotals {
  scripted: number;
  model: number;
}

/**
 * `turns: 40 scripted, 3 model`
 *
 * @example
 * formatTurns({ scripted: 40, model: 3 }) // → 'turns: 40 scripted, 3 model'
 */
export function formatTurns(t: TurnTotals): string {
  return `turns: ${formatTokens(t.scripted)} scripted, ${formatTokens(t.model)} model`;
}

/**
 * `12,345 in + 678 out tokens (9 requests) ≈ $0.0023` — the cost part only when it is known (reported, or prices set); a hybrid
 * avatar's turns after it (` · turns: 40 scripted, 3 model`), and `no model tokens` before them when it sent no request.
 *
 * @example
 * formatUsage({ promptTokens: 5000, completionTokens: 200, requests: 2 }, { inPerMillion: 0.15, outPerMillion: 0.6 });
 */
export function formatUsage(u: CountedUsage & { turns?: TurnTotals | undefined }, prices: Prices): string {
  if (u.turns && u.requests === 0 && u.costUsd === undefined) return `no model tokens · ${formatTurns(u.turns)}`;
  const cost = costOf(u, prices);
  const base = `${formatTokens(u.promptTokens)} in + ${formatTokens(u.completionTokens)} out tokens (${formatTokens(u.requests)} request${u.requests === 1 ? '' : 's'})`;
  const priced = cost === null ? base : `${base} ≈ $${cost < 0.01 ? cost.toFixed(4) : cost.toFixed(2)}`;
  return u.turns ? `${priced} · ${formatTurns(u.turns)}` : priced;
}
