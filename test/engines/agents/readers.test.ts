/**
 * How each adapter reads its CLI's endings, from real output recorded on this
 * machine (`samples/`: the CLIs against a fake model answering 401, 429, 529,
 * a credit balance that is too low; a session that is gone; an MCP server that
 * did not start): which is a refusal (the avatar stops), which only "not now",
 * and which the reader ends at once rather than let the CLI retry it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeProviderError, type AgentCli, type RunResult } from '../../../src/engines/agents/agent-cli.ts';
import { claudeCode } from '../../../src/engines/agents/claude-code.ts';
import { opencode } from '../../../src/engines/agents/opencode.ts';
import { pi } from '../../../src/engines/agents/pi.ts';
import type { CliExit } from '../../../src/engines/agents/run-cli.ts';
import { silentLogger } from '../../../src/logger.ts';

const log = silentLogger();
const sample = (name: string): string[] => readFileSync(join(import.meta.dirname, 'samples', name), 'utf8').split('\n').filter((l) => l !== '');

/** Feed a recorded run to a fresh reader; where it asked to end the run early, and what it made of it. */
function read(cli: AgentCli, out: string[], err: string[] = [], code = 1): { endedAt: number | null; result: RunResult } {
  const reader = cli.reader(log);
  let endedAt: number | null = null;
  out.forEach((line, i) => {
    if (reader.stdout(line) && endedAt === null) endedAt = i;
  });
  for (const line of err) reader.stderr(line);
  const exit: CliExit = { code, signal: null, killed: endedAt === null ? null : 'enough', stderrTail: err, pid: 1 };
  return { endedAt, result: reader.result(exit) };
}

describe('reading how an agent CLI run ended', () => {
  it('GIVEN provider errors THEN codes, 401/402/403 and refusal words are refusals; 429, 408 and 5xx only unavailable; the rest failures', () => {
    expect(judgeProviderError(429, 'insufficient_quota', 'x')).toBe('refused');
    expect(judgeProviderError(402, undefined, 'Insufficient credits')).toBe('refused');
    expect(judgeProviderError(400, undefined, 'Your credit balance is too low to access the Anthropic API.')).toBe('refused');
    expect(judgeProviderError(undefined, undefined, 'Invalid API key · Please run /login')).toBe('refused');
    expect(judgeProviderError(429, undefined, 'Rate limit reached for requests')).toBe('unavailable');
    expect(judgeProviderError(529, undefined, 'Overloaded')).toBe('unavailable');
    expect(judgeProviderError(400, undefined, 'model not found')).toBe('failed');
  });

  it("GIVEN Claude Code retrying a 401 THEN the reader ends the run at the first retry as a refusal", () => {
    const { endedAt, result } = read(claudeCode, sample('claude-401.jsonl'));
    expect(endedAt).not.toBeNull();
    expect(result.failure).toMatchObject({ kind: 'refused' });
    expect(result.failure?.message).toMatch(/401 authentication failed/);
  });

  it('GIVEN Claude Code answered that the credit balance is too low THEN it is a refusal in its own words', () => {
    const { result } = read(claudeCode, sample('claude-credit.jsonl'));
    expect(result.failure).toEqual({ kind: 'refused', message: 'Credit balance is too low' });
  });

  it('GIVEN Claude Code rate limited or overloaded past its retries THEN the provider is only unavailable, and the run is left to end by itself', () => {
    for (const name of ['claude-429.jsonl', 'claude-529.jsonl']) {
      const { endedAt, result } = read(claudeCode, sample(name));
      expect(endedAt).toBeNull();
      expect(result.failure?.kind).toBe('unavailable');
    }
  });

  it("GIVEN Claude Code could not start mindlink's MCP server, or the session is gone THEN the run fails saying so, or starts over", () => {
    const mcp = read(claudeCode, sample('claude-mcp-failed.jsonl'));
    expect(mcp.endedAt).toBe(0);
    expect(mcp.result.failure).toEqual({ kind: 'failed', message: "Claude Code could not reach mindlink's MCP server (failed)" });
    const gone = read(claudeCode, sample('claude-unknown-session.jsonl'), ['No conversation found with session ID: 99999999-0000-4000-8000-000000000000']);
    expect(gone.result.failure?.kind).toBe('no_session');
  });

  it("GIVEN opencode's error events THEN a 401 and a 429 insufficient_quota (its code is in the body) are refusals", () => {
    expect(read(opencode, sample('opencode-401.jsonl')).result.failure).toMatchObject({ kind: 'refused', message: expect.stringMatching(/^401: /) });
    expect(read(opencode, sample('opencode-429-quota.jsonl')).result.failure).toMatchObject({ kind: 'refused', message: expect.stringMatching(/^429: You exceeded your current quota/) });
  });

  it('GIVEN opencode logging a failed try of an out-of-credit request (before it waits to retry) THEN the reader ends the run at once as a refusal', () => {
    const reader = opencode.reader(log);
    expect(reader.stderr(sample('opencode-429-quota.stderr.txt')[0] ?? '')).toBe(true);
    expect(reader.result({ code: null, signal: 'SIGKILL', killed: 'enough', stderrTail: [], pid: 1 }).failure).toMatchObject({ kind: 'refused', message: expect.stringMatching(/^You exceeded your current quota/) });
    expect(read(opencode, [], sample('opencode-unknown-session.stderr.txt')).result.failure?.kind).toBe('no_session');
  });

  it('GIVEN pi answering exit code 0 after a failed request THEN its last assistant message tells: a 401 is a refusal; a 429 quota ends the run at its first retry', () => {
    expect(read(pi, sample('pi-401.jsonl'), [], 0).result.failure).toMatchObject({ kind: 'refused', message: expect.stringMatching(/^401 Incorrect API key/) });
    const quota = read(pi, sample('pi-429-quota.jsonl'), [], 0);
    expect(quota.endedAt).not.toBeNull();
    expect(quota.result.failure).toMatchObject({ kind: 'refused', message: expect.stringMatching(/^429 You exceeded your current quota/) });
  });
});
