/** How usage reads in `/usage`, `/status` and the dashboard (src/engines/llm/usage.ts). */
import { describe, expect, it } from 'vitest';
import { formatUsage } from '../../src/engines/llm/usage.ts';

describe('formatUsage', () => {
  it('GIVEN tokens, and for a hybrid avatar its turns THEN one line says both; a hybrid goal that asked no model says so', () => {
    const prices = { inPerMillion: 0.15, outPerMillion: 0.6 };
    expect(formatUsage({ promptTokens: 5000, completionTokens: 200, requests: 2 }, prices)).toBe('5,000 in + 200 out tokens (2 requests) ≈ $0.0009');
    expect(formatUsage({ promptTokens: 5000, completionTokens: 200, requests: 2, turns: { scripted: 40, model: 3 } }, {})).toBe('5,000 in + 200 out tokens (2 requests) · turns: 40 scripted, 3 model');
    expect(formatUsage({ promptTokens: 0, completionTokens: 0, requests: 0, turns: { scripted: 4, model: 0 } }, prices)).toBe('no model tokens · turns: 4 scripted, 0 model');
  });
});
