/**
 * The people's MCP server on the real core, driven by the MCP SDK's own client over Streamable HTTP: a
 * token from `/mcp new` in a direct message acts as its person there (their avatars, their rights, the
 * chat's words), and a missing, wrong or revoked token gets 401.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatContext } from '../../src/chat.ts';
import type { EngineProvider } from '../../src/engines/engine.ts';
import { silentLogger } from '../../src/logger.ts';
import { PeopleMcp } from '../../src/mcp/people-server.ts';
import { STRANGER_REFUSAL } from '../../src/people/people.ts';
import { TestEngine } from '../fakes/test-engine.ts';
import { startWebCore, type WebCore } from './web-helpers.ts';

const alice: ChatContext = { platform: 'telegram', from: 'telegram:42', fromName: 'Alice', dest: 'telegram:42', chatKind: 'private', messageId: null };
const aliceGroup: ChatContext = { platform: 'telegram', from: 'telegram:42', fromName: 'Alice', dest: 'telegram:-700', chatKind: 'group', messageId: null };
const wes: ChatContext = { platform: 'telegram', from: 'telegram:43', fromName: 'Wes', dest: 'telegram:43', chatKind: 'private', messageId: null };
const sam: ChatContext = { platform: 'telegram', from: 'telegram:44', fromName: 'Sam', dest: 'telegram:44', chatKind: 'private', messageId: null };

const TOKEN = /mindlink_[A-Za-z0-9_-]{43}/;

/** Explores when choosing; answers a question about where it is; a question with "slow" waits until released. */
function engineWithAnswers(slow: Promise<void>): EngineProvider {
  return () =>
    new TestEngine(async (req) => {
      if (req.kind === 'choose') return 'GOAL: explore\nSTATUS: working';
      if (req.kind === 'question' && /slow/.test(req.message ?? '')) {
        await slow;
        return 'Late.\nSTATUS: working';
      }
      if (req.kind === 'question') return "I'm at 0 64 0, next to a birch.\nSTATUS: working";
      return 'STATUS: working';
    });
}

/** The text of a tool's result. */
function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('the people\'s MCP server', () => {
  let dir = '';
  let w: WebCore;
  let releaseSlow: () => void = () => undefined;
  const clients: Client[] = [];
  // The core's clock: moved on a minute before each token, so the tests stay under /mcp new's rate limit.
  let clock = Date.now();

  /** Run a command as the chat would, as typed (`mcp new laptop`); its answer. */
  const chat = (from: ChatContext, line: string) => {
    const [name = '', ...rest] = line.split(' ');
    return w.core.router.answerCommand({ ...from, name, argsText: rest.join(' ') });
  };
  /** A token from `/mcp new` in `from`'s chat. */
  const tokenFor = async (from: ChatContext, label: string): Promise<string> => {
    clock += 61_000;
    const answer = await chat(from, `mcp new ${label}`);
    const token = TOKEN.exec(answer.text)?.[0];
    if (!token) throw new Error(`no token in: ${answer.text}`);
    return token;
  };
  /** The SDK's client, connected with `token` (none: no Authorization header). */
  const connect = async (token: string | null): Promise<Client> => {
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${w.origin}/mcp`), {
      requestInit: { headers: token ? { Authorization: `Bearer ${token}` } : {} },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-mcp-'));
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    w = await startWebCore(dir, { MCP: 'on' }, () => new Date(clock), { engines: engineWithAnswers(slow) });
    await w.line(/^\[demo\] New goal \(my choice\): explore/);
    // Alice owns ally; Wes owns nothing, but demo is linked to his DM to watch; Sam is a stranger.
    w.send('/avatar create ally');
    await w.line(/^\[ally\] Created ally/);
    w.send('/owner ally telegram:42');
    await w.line(/^\[ally\] Owner is now/);
    w.core.people.ensurePerson('telegram:43', 'Wes');
    w.core.links.link('demo', 'telegram:43', 'watch');
  }, 60_000);

  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    // Each test makes its own tokens: no person reaches the cap of five.
    for (const from of [alice, wes]) await chat(from, 'mcp revoke all');
  });

  afterAll(async () => {
    releaseSlow();
    await w?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN /mcp new in a direct message THEN the token is shown once, to the sender alone, with where to use it', async () => {
    const answer = await chat(alice, 'mcp new desk');
    expect(answer.refused).toBe(false);
    expect(answer.private).toBe(true);
    expect(answer.text).toMatch(TOKEN);
    expect(answer.text).toContain(`Server: ${w.origin}/mcp`);
    expect(answer.text).toContain('/mcp revoke desk');
    // Only its hash is kept.
    const token = TOKEN.exec(answer.text)?.[0] ?? '';
    await w.core.store.flush();
    const onDisk = await readFile(join(dir, 'state.json'), 'utf8');
    expect(onDisk).not.toContain(token);
    expect(onDisk).not.toContain(token.slice('mindlink_'.length));
    expect(w.core.store.state.data.mcpTokens.find((t) => t.label === 'desk')).toMatchObject({ identity: 'telegram:42', dest: 'telegram:42' });
    const listed = await chat(alice, 'mcp list');
    expect(listed.text).toMatch(/^Your MCP tokens .*\ndesk: made \d{4}-\d\d-\d\d, never used$/);
    expect(listed.text).not.toMatch(TOKEN);
    expect((await chat(alice, 'mcp revoke desk')).text).toBe('Revoked desk: it no longer works.');
    // With MCP on, /help offers the token commands (with it off they are left out, as core.test.ts shows).
    expect((await chat(alice, 'help')).text).toMatch(/^\/mcp new \[label\] — A token for your MCP client/m);
  });

  it('GIVEN /mcp new in a group, or from a stranger THEN no token is made', async () => {
    const inGroup = await chat(aliceGroup, 'mcp new');
    expect(inGroup.refused).toBe(true);
    expect(inGroup.text).toContain('send /mcp new to me in a direct message');
    expect(inGroup.text).not.toMatch(TOKEN);
    const stranger = await chat(sam, 'mcp new');
    expect(stranger).toMatchObject({ refused: true, text: STRANGER_REFUSAL });
    expect(w.core.store.state.data.mcpTokens.filter((t) => t.identity !== 'telegram:42')).toEqual([]);
  });

  it('GIVEN a person\'s token THEN the SDK client lists the tools, and sees only that person\'s avatars', async () => {
    const client = await connect(await tokenFor(alice, 'tools'));
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(['add_direction', 'ask', 'list_avatars', 'play', 'set_goal', 'status', 'stop']);
    const list = textOf(await client.callTool({ name: 'list_avatars', arguments: {} }));
    expect(list).toMatch(/^ally: stopped \(owner Alice, scripted\)$/);
    expect(list).not.toContain('demo');
    // The chat's own /avatars, word for word.
    expect(list).toBe((await chat(alice, 'avatars')).text);
    const status = await client.callTool({ name: 'status', arguments: { avatar: 'ally' } });
    expect(status.isError).toBeFalsy();
    expect(textOf(status)).toBe(`[ally] ${(await chat(alice, 'status ally')).text}`);
  });

  it('GIVEN a person\'s token WHEN it sets the goal of an avatar that is not theirs THEN it is refused in the chat\'s words and nothing changes', async () => {
    const client = await connect(await tokenFor(alice, 'goals'));
    const before = w.core.avatars.get('demo')?.goal?.text;
    const refused = await client.callTool({ name: 'set_goal', arguments: { avatar: 'demo', goal: 'collect 5 dirt' } });
    expect(refused.isError).toBe(true);
    // The chat's /goal with the avatar named (as Discord's slash command sends it).
    const inChat = await w.core.router.answerCommand({ ...alice, name: 'goal', options: { text: 'collect 5 dirt', avatar: 'demo' } });
    expect(inChat.refused).toBe(true);
    expect(textOf(refused)).toBe(inChat.text);
    expect(textOf(refused)).toBe('You have no avatar called "demo" here. /avatars lists yours.');
    expect(w.core.avatars.get('demo')?.goal?.text).toBe(before);
  });

  it('GIVEN a person\'s token THEN set_goal, play, ask, add_direction and stop act on their avatar as chat does', async () => {
    const client = await connect(await tokenFor(alice, 'acts'));
    const goal = await client.callTool({ name: 'set_goal', arguments: { goal: 'collect 5 dirt' } });
    expect(textOf(goal)).toBe("[ally] New goal from Alice: collect 5 dirt. I'm stopped: /play ally starts me.");
    expect(w.core.avatars.get('ally')?.goal).toMatchObject({ text: 'collect 5 dirt', setIn: 'telegram:42' });
    const stoppedAsk = await client.callTool({ name: 'ask', arguments: { avatar: 'ally', question: 'where are you?' } });
    expect(textOf(stoppedAsk)).toBe("[ally] I'm stopped, so I can't look around. /play ally starts me.");

    expect(textOf(await client.callTool({ name: 'play', arguments: { avatar: 'ally' } }))).toBe('[ally] Playing. Resuming my goal: collect 5 dirt');
    expect(w.core.avatars.isPlaying('ally')).toBe(true);
    const answer = await client.callTool({ name: 'ask', arguments: { avatar: 'ally', question: 'where are you?' } });
    expect(answer.isError).toBeFalsy();
    expect(textOf(answer)).toBe("[ally] I'm at 0 64 0, next to a birch.");
    // A direction that reads like a question or a goal is still a direction: the tool says which it is.
    const direction = await client.callTool({ name: 'add_direction', arguments: { avatar: 'ally', direction: 'Goal: stay near the village?' } });
    expect(textOf(direction)).toMatch(/^\[ally\] Noted as direction #\d+\.$/);
    expect(w.core.avatars.get('ally')?.directions.open.map((d) => d.text)).toContain('Goal: stay near the village?');
    expect(w.core.avatars.get('ally')?.goal?.text).toBe('collect 5 dirt');

    expect(textOf(await client.callTool({ name: 'stop', arguments: { avatar: 'ally' } }))).toMatch(/^\[ally\] Stopped/);
    expect(w.core.avatars.isPlaying('ally')).toBe(false);
    // A token's last use is kept (for /mcp list), never the token.
    expect(w.core.store.state.data.mcpTokens.find((t) => t.label === 'acts')?.lastUsedAt).toMatch(/^\d{4}-/);
  });

  it('GIVEN a question the avatar takes long over THEN ask answers within its bound, saying so', async () => {
    const token = await tokenFor(alice, 'slow');
    const client = await connect(token);
    await client.callTool({ name: 'play', arguments: { avatar: 'ally' } });
    // The same server with a bound of 1 ms (the engine never answers this one while the test runs), asked as a client asks.
    const bounded = new PeopleMcp({ tokens: w.core.mcpTokens, host: w.core.router, log: silentLogger(), askWaitMs: 1 });
    const res = await bounded.handle(
      new Request(`${w.origin}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'ask', arguments: { avatar: 'ally', question: 'a slow one?' } } }),
      }),
    );
    expect(res.status).toBe(200);
    const late = ((await res.json()) as { result: CallToolResult }).result;
    expect(late.isError).toBe(true);
    expect(textOf(late)).toBe("[ally] No answer came within 1 s: I'm still thinking it over. Ask again in a while.");
    await client.callTool({ name: 'stop', arguments: { avatar: 'ally' } });
  });

  it('GIVEN a watcher (an avatar linked to their DM to watch) THEN they see it and may ask, but not steer it, as in chat', async () => {
    const client = await connect(await tokenFor(wes, 'watch'));
    expect(textOf(await client.callTool({ name: 'list_avatars', arguments: {} }))).toMatch(/^demo: /);
    expect(textOf(await client.callTool({ name: 'status', arguments: {} }))).toMatch(/^\[demo\] (choosing|working)/);
    const refused = await client.callTool({ name: 'set_goal', arguments: { goal: 'collect 5 dirt' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe("[demo] You can't control demo: ask its owner.");
    expect(textOf(refused)).toBe(`[demo] ${(await chat(wes, 'goal collect 5 dirt')).text}`);
    const stop = await client.callTool({ name: 'stop', arguments: { avatar: 'demo' } });
    expect(stop.isError).toBe(true);
    expect(w.core.avatars.isPlaying('demo')).toBe(true);
  });

  it('GIVEN no token, a wrong one or a revoked one THEN every request gets 401 with WWW-Authenticate: Bearer', async () => {
    const revoked = await tokenFor(alice, 'gone');
    const live = await connect(revoked);
    expect((await chat(alice, 'mcp revoke gone')).text).toBe('Revoked gone: it no longer works.');
    // A client connected before the revocation is refused from its next request on.
    await expect(live.callTool({ name: 'list_avatars', arguments: {} })).rejects.toMatchObject({ code: 401, message: expect.stringContaining('/mcp new') });
    const wrong = `mindlink_${'A'.repeat(43)}`;
    for (const token of [null, wrong, 'not-even-a-token', revoked]) {
      await expect(connect(token), String(token)).rejects.toMatchObject({ code: 401 });
      const res = await fetch(`${w.origin}/mcp`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="mindlink"/);
      const body = await res.text();
      expect(body).not.toContain('ally');
      expect(body).toContain('/mcp new');
    }
  });

  it('GIVEN a token THEN GET and DELETE get 405 (no sessions, nothing to stream), and the dashboard\'s cookie is no way in', async () => {
    const token = await tokenFor(alice, 'methods');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${w.origin}/mcp`, { method, headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    const session = await w.signIn(alice);
    const res = await fetch(`${w.origin}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Cookie: session.cookie, Origin: w.origin },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
  });
});

describe('the people\'s MCP tokens across a restart', () => {
  let dir = '';
  const running: WebCore[] = [];

  afterAll(async () => {
    for (const r of running.splice(0)) await r.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN a token WHEN mindlink restarts THEN it still works (only its hash was kept), and a revoke made before the restart still holds', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-web-mcp-restart-'));
    const first = await startWebCore(dir, { MCP: 'on' });
    running.push(first);
    await first.line(/^\[demo\] New goal \(my choice\): explore/);
    const ask = (r: WebCore, line: string) => r.core.router.answerCommand({ ...alice, name: 'mcp', argsText: line });
    first.send('/owner demo telegram:42');
    await first.line(/^\[demo\] Owner is now/);
    const kept = TOKEN.exec((await ask(first, 'new kept')).text)?.[0] ?? '';
    const ended = TOKEN.exec((await ask(first, 'new ended')).text)?.[0] ?? '';
    await ask(first, 'revoke ended');
    await first.stop();
    running.splice(0);

    const second = await startWebCore(dir, { MCP: 'on' });
    running.push(second);
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${second.origin}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${kept}` } } }));
    try {
      expect(textOf(await client.callTool({ name: 'list_avatars', arguments: {} }))).toMatch(/^demo: .*\(owner Alice, scripted\)/);
    } finally {
      await client.close();
    }
    const refused = await fetch(`${second.origin}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${ended}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(refused.status).toBe(401);
    expect((await ask(second, 'list')).text).toMatch(/\nkept: made \d{4}-\d\d-\d\d, last used \d{4}-\d\d-\d\d$/);
  });
});
