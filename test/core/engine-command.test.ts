/**
 * /engine, /usage and /avatar create … engine:llm through the real core and console bridge,
 * with the real llm engine and `openai` client against the fake endpoint (the game is the FakeGame).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleBridge } from '../../bridges/console.ts';
import type { ChatContext } from '../../src/chat.ts';
import { engine } from '../../commands/engine.ts';
import { createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { createServerDesk } from '../../src/servers/desk.ts';
import { createCommandHost } from '../../src/host.ts';
import { createScheduleDesk } from '../../src/schedule/desk.ts';
import { Sharing } from '../../src/sharing.ts';
import { parseConfig, type Config } from '../../src/config.ts';
import { Mindlink } from '../../src/core.ts';
import { createEngineProvider } from '../../src/engines/index.ts';
import { UserError } from '../../src/errors.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { FakeOpenAI, lastMessage, lastUserText, textOf } from '../fakes/openai-api.ts';
import { standInAgentsDir } from '../engines/agents/agent-helpers.ts';
import { collectLines, waitFor } from '../game/helpers.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'mindlink-engine-cmd-'));
  cleanups.push(() => rm(d, { recursive: true, force: true }));
  return d;
}

async function fake(): Promise<FakeOpenAI> {
  const llm = await FakeOpenAI.start(() => ({ content: 'Carrying on.\nSTATUS: working' }));
  cleanups.push(() => llm.close());
  return llm;
}

async function startCore(dataDir: string, env: Record<string, string> = {}): Promise<{ core: Mindlink; config: Config; lines: string[]; send(l: string): void; line(re: RegExp): Promise<string> }> {
  const config = parseConfig({ DATA_DIR: dataDir, LOOP_PACE_MS: '50', LOOP_MAX_PACE_MS: '400', ...env });
  const core = await Mindlink.start({
    config,
    log: silentLogger(),
    games: { create: (a) => new FakeGame(a.name), close: async () => {} },
    engines: createEngineProvider(config),
    skills: createSkillRegistry,
    commands: createDispatcher(),
  });
  cleanups.push(() => core.stop());
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  collectLines(stdout, lines);
  await core.addBridge(new ConsoleBridge(stdin, stdout, silentLogger()));
  return {
    core,
    config,
    lines,
    send: (l) => stdin.write(`${l}\n`),
    line: async (re) => {
      await waitFor(() => lines.some((l) => re.test(l)), 20_000, `a line like ${re}\n${lines.join('\n')}`);
      return lines.find((l) => re.test(l)) ?? '';
    },
  };
}

describe('/engine and /usage', () => {
  it('GIVEN the llm engine is configured WHEN the owner sends /engine llm THEN demo switches, the model gets its turns, and the choice survives a restart', async () => {
    const llm = await fake();
    const dir = await tempDir();
    const env = { LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model' };
    const first = await startCore(dir, env);
    first.send('Goal: collect 3 oak logs');
    await first.line(/^\[demo\] New goal from console: collect 3 oak logs\.$/);
    first.send('/engine llm');
    await first.line(/^\[demo\] Switched to the llm engine \(fake-model\)\. Carrying on with my goal\.$/);
    await waitFor(() => llm.requests.length > 0, 20_000, 'a request to the model');
    expect(lastUserText(llm.requests[0]!)).toContain('Goal (set by your owner): collect 3 oak logs');
    expect(first.core.avatars.get('demo')?.engine).toBe('llm');
    first.send('/engine llm');
    await first.line(/^\[demo\] Already on the llm engine \(fake-model\)\.$/);
    await first.core.stop();

    const seen = llm.requests.length;
    const second = await startCore(dir, env);
    expect(second.core.avatars.get('demo')?.engine).toBe('llm');
    await waitFor(() => llm.requests.length > seen, 20_000, 'a request after the restart');
    expect(lastUserText(llm.requests[seen]!)).toContain('back in the game after a restart');
    second.send('/engine scripted');
    await second.line(/^\[demo\] Switched to the scripted engine\. Carrying on with my goal\.$/);
    expect(second.core.avatars.get('demo')?.engine).toBe('scripted');
  });

  it('GIVEN no LLM_MODEL WHEN /engine llm or /avatar create … engine:llm THEN each is refused naming the key, and nothing changes', async () => {
    const r = await startCore(await tempDir());
    r.send('/engine llm');
    await r.line(/^\[demo\] The llm engine is not set up: it needs LLM_MODEL \(the model name at LLM_BASE_URL/);
    expect(r.core.avatars.get('demo')?.engine).toBe('scripted');
    r.send('/avatar create bob engine:llm');
    await r.line(/^\[bob\] The llm engine is not set up: it needs LLM_MODEL/);
    expect(r.core.avatars.get('bob')).toBeUndefined();
    r.send('/engine hybrid');
    await r.line(/^\[demo\] The hybrid engine is not set up: it needs LLM_MODEL \(the model name at LLM_BASE_URL/);
    expect(r.core.avatars.get('demo')?.engine).toBe('scripted');
    r.send('/engine turbo');
    await r.line(/^\[mindlink\] engine: the engine is one of: scripted, llm, hybrid, opencode, claude-code, pi\. Usage: \/engine <scripted\|llm\|hybrid\|opencode\|claude-code\|pi> \[avatar\]$/);
  });

  it('GIVEN a model is configured and no ENGINE THEN demo is a hybrid avatar whose scripted turns ask no model and are counted; /engine scripted and /engine hybrid switch it; bob can be created hybrid', async () => {
    const llm = await fake();
    const r = await startCore(await tempDir(), { LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model' });
    expect(r.config.ENGINE).toBe('hybrid');
    expect(r.core.avatars.get('demo')?.engine).toBe('hybrid');
    r.send('Goal: explore');
    await waitFor(() => (r.core.store.record.data.usage.demo?.turns?.scripted ?? 0) >= 2, 20_000, 'scripted turns counted');
    expect(llm.requests).toEqual([]);
    r.send('/usage');
    await r.line(/^\[demo\] demo \(hybrid engine, fake-model\) has used no model tokens yet \(turns: \d+ scripted, 0 model\)\.$/);
    r.send('/engine scripted');
    await r.line(/^\[demo\] Switched to the scripted engine\. Carrying on with my goal\.$/);
    r.send('/engine hybrid');
    await r.line(/^\[demo\] Switched to the hybrid engine \(fake-model\)\. Carrying on with my goal\.$/);
    expect(r.core.avatars.get('demo')?.engine).toBe('hybrid');
    r.send('/avatar create bob engine:hybrid');
    await r.line(/^\[bob\] Created bob on embedded \(hybrid engine\), linked to this chat\. \/play bob starts it\.$/);
  });

  it('GIVEN the llm engine is configured WHEN an admin creates bob with engine:llm THEN bob is an llm avatar and plays through the model', async () => {
    const llm = await fake();
    const r = await startCore(await tempDir(), { LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model' });
    r.send('/avatar create bob engine:llm');
    await r.line(/^\[bob\] Created bob on embedded \(llm engine\), linked to this chat\. \/play bob starts it\.$/);
    r.send('/play bob');
    await waitFor(() => llm.requests.some((q) => textOf(q.body.messages[0]?.content).startsWith('You are bob,')), 20_000, 'a request for bob');
    r.send('/usage bob');
    await r.line(/^\[bob\] (Usage of bob \(llm engine, fake-model\):|bob \(llm engine, fake-model\) has used no model tokens yet\.)$/);
  });

  it('GIVEN a watcher of demo WHEN they send /engine llm THEN they are refused; GIVEN no tokens yet THEN /usage says so', async () => {
    const llm = await fake();
    const r = await startCore(await tempDir(), { ENGINE: 'scripted', LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model' });
    r.core.people.ensurePerson('telegram:42', 'alex');
    r.core.links.link('demo', 'telegram:42', 'watch');
    const chat: ChatContext = { platform: 'telegram', from: 'telegram:42', fromName: 'alex', dest: 'telegram:42', chatKind: 'private', messageId: null };
    const { avatars, people, links, pairing, store } = r.core;
    const schedules = createScheduleDesk({ scheduler: r.core.schedules, people, store });
    const sharing = new Sharing(store, people, r.config.ADMINS, () => new Date());
    const openThread = async (): Promise<never> => {
      throw new Error('no threads in this test');
    };
    const servers = createServerDesk({ registry: r.core.servers, people, avatars, shares: sharing });
    const host = createCommandHost({ avatars, people, links, pairing, schedules, servers, defaultServer: () => r.core.servers.defaultId(), config: r.config, sharing, thoughts: r.core.thoughts, openThread, web: r.core.web, learned: r.core.learned, mcp: r.core.mcpTokens, gameChat: r.core.gameChat, places: r.core.places });
    const err = await engine.run({ host, chat, commands: [engine] }, { engine: 'llm', avatar: 'demo' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toBe("You can't control demo: ask its owner.");
    expect(r.core.avatars.get('demo')?.engine).toBe('scripted');
    r.send('/usage');
    await r.line(/^\[demo\] demo \(scripted engine\) has used no model tokens yet\.$/);
  });

  it('GIVEN an llm avatar WHEN the provider refuses a question with 401 THEN the avatar stops with its line and the question gets a short answer', async () => {
    const llm = await fake();
    llm.script = (req) =>
      lastUserText(req).includes('Your owner asks')
        ? { error: { status: 401, code: 'invalid_api_key', type: 'invalid_request_error', message: 'Incorrect API key provided.' } }
        : { content: 'Carrying on.\nSTATUS: working' };
    const r = await startCore(await tempDir(), { ENGINE: 'llm', LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model' });
    await waitFor(() => llm.requests.length > 0, 20_000, 'a first turn');
    r.send('where are you?');
    await r.line(/^\[demo\] Stopped: the model provider refused: invalid_api_key: Incorrect API key provided\.$/);
    await r.line(/^\[demo\] I can't answer: the model provider refused, so I stopped\.$/);
    expect(r.core.avatars.displayState('demo')).toBe('stopped');
    expect(r.core.avatars.get('demo')?.playing).toBe(false);
  });

  it('GIVEN an llm turn stopped by the owner after a finished request THEN the tokens of that request are still counted', async () => {
    const llm = await fake();
    llm.script = (req) =>
      lastUserText(req).includes('Goal (set by your owner): collect 5 dirt')
        ? lastMessage(req)?.role === 'tool'
          ? { hang: true }
          : { toolCalls: [{ name: 'look', arguments: {} }], usage: { prompt: 1234, completion: 5 } }
        : { content: 'Waiting.\nSTATUS: working', usage: { prompt: 10, completion: 1 } };
    const r = await startCore(await tempDir(), { ENGINE: 'llm', LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model' });
    r.send('Goal: collect 5 dirt');
    await waitFor(() => llm.requests.some((q) => lastMessage(q)?.role === 'tool'), 20_000, 'the hanging tool step');
    const before = r.core.store.record.data.usage.demo?.promptTokens ?? 0;
    r.send('/stop');
    await r.line(/^\[demo\] Stopped\. /);
    await waitFor(() => (r.core.store.record.data.usage.demo?.promptTokens ?? 0) >= before + 1234, 20_000, 'the finished request counted');
  });

  it('GIVEN /help THEN /engine and /usage are listed only when the llm engine is configured or an agent CLI is installed', async () => {
    const plain = await startCore(await tempDir(), { AGENTS_DIR: await tempDir() });
    plain.send('/help');
    await plain.line(/^\[mindlink\] \/help \[command\] — /);
    expect(plain.lines.some((l) => l.includes('/engine'))).toBe(false);
    const llm = await fake();
    const configured = await startCore(await tempDir(), { LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model', AGENTS_DIR: await tempDir() });
    configured.send('/help');
    await configured.line(/^\[mindlink\] \/engine <scripted\|llm\|hybrid\|opencode\|claude-code\|pi> \[avatar\] — /);
    await configured.line(/^\[mindlink\] \/usage \[avatar\] — /);
    const agents = await startCore(await tempDir(), { AGENTS_DIR: standInAgentsDir(await tempDir()) });
    agents.send('/help');
    await agents.line(/^\[mindlink\] \/engine <scripted\|llm\|hybrid\|opencode\|claude-code\|pi> \[avatar\] — /);
  });

  it('GIVEN no opencode CLI WHEN /engine opencode or /avatar create … engine:opencode THEN each is refused naming the npm package to install, and nothing changes', async () => {
    const r = await startCore(await tempDir(), { AGENTS_DIR: await tempDir() });
    r.send('/engine opencode');
    await r.line(/^\[demo\] The opencode engine needs its CLI \(npm package opencode-ai@1\.18\.33\), which is not installed: run `npm run agents:install -- opencode` where mindlink is installed, or put it on PATH \(docs\/agents\.md\)\.$/);
    expect(r.core.avatars.get('demo')?.engine).toBe('scripted');
    r.send('/avatar create bob engine:opencode');
    await r.line(/^\[bob\] The opencode engine needs its CLI \(npm package opencode-ai@1\.18\.33\), which is not installed/);
    expect(r.core.avatars.get('bob')).toBeUndefined();
  });

  it('GIVEN HYBRID_MODEL=pi and no LLM_MODEL THEN /engine hybrid is refused naming pi\'s npm package while pi is missing; with pi there, demo switches to hybrid over pi, /usage names pi and /avatar create offers hybrid', async () => {
    const missing = await startCore(await tempDir(), { HYBRID_MODEL: 'pi', AGENTS_DIR: await tempDir() });
    missing.send('/engine hybrid');
    await missing.line(/^\[demo\] The pi engine needs its CLI \(npm package @mariozechner\/pi-coding-agent@[\d.]+\), which is not installed/);
    expect(missing.core.avatars.get('demo')?.engine).toBe('scripted');
    missing.send('/avatar create bob engine:bogus');
    await missing.line(/^\[mindlink\] There is no "bogus" engine here; engines: scripted\.$/);

    const r = await startCore(await tempDir(), { HYBRID_MODEL: 'pi', AGENTS_DIR: standInAgentsDir(await tempDir()) });
    r.send('/engine hybrid');
    await r.line(/^\[demo\] Switched to the hybrid engine \(pi\)\. Carrying on with my goal\.$/);
    expect(r.core.avatars.get('demo')?.engine).toBe('hybrid');
    r.send('/usage');
    await r.line(/^\[demo\] demo \(hybrid engine, pi\) has used no model tokens yet/);
    r.send('/avatar create bob engine:bogus');
    await r.line(/^\[mindlink\] There is no "bogus" engine here; engines: scripted, hybrid, pi\.$/);
  });
});
