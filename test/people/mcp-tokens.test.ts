import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/chat.ts';
import { UserError } from '../../src/errors.ts';
import { MCP_LAST_USE_STEP_MS, MCP_TOKENS_PER_PERSON, McpTokens } from '../../src/people/mcp-tokens.ts';
import { People } from '../../src/people/people.ts';
import { Store } from '../../src/store/store.ts';
import { filesOf } from '../../src/store/files.ts';

const dm: ChatContext = { platform: 'telegram', from: 'telegram:42', fromName: 'Alice', dest: 'telegram:42', chatKind: 'private', messageId: null };
const group: ChatContext = { ...dm, dest: 'telegram:-700', chatKind: 'group' };
const consoleChat: ChatContext = { platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null };
const page: ChatContext = { platform: 'web', from: 'telegram:42', fromName: 'Alice', dest: 'web:abc', chatKind: 'private', messageId: null, openedFrom: dm };

/** The code of the UserError `fn` throws. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return `${err.code}: ${err.message}`;
    throw err;
  }
  throw new Error('not refused');
}

describe('MCP tokens', () => {
  let dir: string;
  let store: Store;
  let tokens: McpTokens;
  let clock = 0;
  /** Move the clock a minute on: past the rate limit. */
  const later = (): void => {
    clock += 61_000;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-mcp-tokens-'));
    store = await Store.open(dir);
    clock = Date.parse('2026-12-01T10:00:00Z');
    tokens = new McpTokens(store, new People(store, []), { now: () => clock });
    tokens.listening('http://127.0.0.1:4780/mcp');
  });

  afterEach(async () => {
    await store.flush();
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN the MCP server off, a group or a dashboard page THEN no token is made', () => {
    expect(refusal(() => tokens.issue(group))).toMatch(/^mcp_private_only: .*send \/mcp new to me in a direct message/);
    expect(refusal(() => tokens.issue(page))).toMatch(/^mcp_private_only: /);
    tokens.listening(null);
    expect(refusal(() => tokens.issue(dm))).toMatch(/^mcp_off: The MCP server is off here/);
    expect(store.state.data.mcpTokens).toEqual([]);
    // The console is its own private chat.
    tokens.listening('http://127.0.0.1:4780/mcp');
    const made = tokens.issue(consoleChat);
    expect(tokens.caller(made.token)).toEqual({ platform: 'console', from: 'console:local', fromName: 'console', dest: 'console', chatKind: 'console', messageId: null });
  });

  it('GIVEN labels THEN unnamed tokens take the first free tokenN, and a bad, reserved or taken label is refused', () => {
    expect(tokens.issue(dm).label).toBe('token1');
    expect(tokens.issue(dm, 'Laptop').label).toBe('Laptop');
    expect(tokens.issue(dm).label).toBe('token2');
    later();
    expect(refusal(() => tokens.issue(dm, 'laptop'))).toBe('bad_mcp_label: You have a token called laptop already: /mcp revoke laptop ends it, or give the new one another label.');
    expect(refusal(() => tokens.issue(dm, 'all'))).toMatch(/^bad_mcp_label: /);
    expect(refusal(() => tokens.issue(dm, 'my laptop'))).toMatch(/^bad_mcp_label: /);
    expect(refusal(() => tokens.issue(dm, 'x'.repeat(33)))).toMatch(/^bad_mcp_label: /);
    expect(tokens.revoke(dm, 'token1')).toEqual(['token1']);
    expect(tokens.issue(dm).label).toBe('token1');
    expect(tokens.list(dm).map((t) => t.label)).toEqual(['Laptop', 'token2', 'token1']);
  });

  it('GIVEN three tokens asked for in a minute THEN the fourth waits, and a person holds at most five', () => {
    for (let i = 0; i < 3; i++) tokens.issue(dm);
    expect(refusal(() => tokens.issue(dm))).toBe('mcp_too_many: You asked for 3 tokens in the last minute: ask again in 60 s.');
    later();
    tokens.issue(dm);
    tokens.issue(dm);
    later();
    expect(tokens.list(dm)).toHaveLength(MCP_TOKENS_PER_PERSON);
    expect(refusal(() => tokens.issue(dm))).toMatch(/^mcp_cap: You have 5 MCP tokens, as many as one person may hold/);
    tokens.revoke(dm, 'token3');
    expect(tokens.issue(dm).label).toBe('token3');
  });

  it('GIVEN tokens THEN a revoked one, an unknown one and one of a moved identity act as nobody; revoking needs a label one has', () => {
    const a = tokens.issue(dm, 'a');
    const b = tokens.issue(dm, 'b');
    expect(tokens.caller(a.token)?.from).toBe('telegram:42');
    expect(tokens.caller(`${a.token}x`)).toBeNull();
    expect(tokens.caller(a.token.replace('mindlink_', 'other_'))).toBeNull();
    expect(tokens.revoke(dm, 'A')).toEqual(['a']);
    expect(tokens.caller(a.token)).toBeNull();
    expect(tokens.caller(b.token)?.dest).toBe('telegram:42');
    expect(refusal(() => tokens.revoke(dm, 'nope'))).toBe('unknown_mcp_token: You have no MCP token called nope: /mcp list shows yours.');
    // Someone else's revoke all ends only their own.
    expect(tokens.revoke({ ...dm, from: 'telegram:43', dest: 'telegram:43' })).toEqual([]);
    expect(tokens.caller(b.token)).not.toBeNull();
    // The identity now belongs to another person: the token acted as the first, so it acts as nobody.
    filesOf(store).state.update((s) => {
      for (const p of s.persons) p.identities = [];
      s.persons.push({ id: 'pOther', name: 'Other', identities: ['telegram:42'], admin: false });
    });
    expect(tokens.caller(b.token)).toBeNull();
  });

  it('GIVEN a token in use THEN its last use is kept to the nearest ten minutes, and a revoke all ends every one', () => {
    const made = tokens.issue(dm);
    expect(tokens.list(dm)[0]?.lastUsedAt).toBeUndefined();
    tokens.caller(made.token);
    const first = tokens.list(dm)[0]?.lastUsedAt;
    expect(first).toBe('2026-12-01T10:00:00.000Z');
    const version = store.state.version;
    clock += MCP_LAST_USE_STEP_MS - 1;
    tokens.caller(made.token);
    expect(store.state.version).toBe(version);
    clock += 1;
    tokens.caller(made.token);
    expect(tokens.list(dm)[0]?.lastUsedAt).toBe('2026-12-01T10:10:00.000Z');
    tokens.issue(dm);
    expect(tokens.revoke(dm)).toEqual(['token1', 'token2']);
    expect(store.state.data.mcpTokens).toEqual([]);
  });
});
