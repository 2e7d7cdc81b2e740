/**
 * The agent engine suite shared by `<cli>-engine.test.ts` (one file per CLI, so they run side by side): the agent engines with the real CLIs (opencode, Claude Code, pi, as
 * `npm run agents:install` puts them in `agents/`) against our fake model
 * APIs (OpenAI-compatible for opencode and pi, Anthropic's Messages API for
 * Claude Code), the game being the loop tests' FakeGame with a `collect`
 * skill that gives the items. What each run sends and how each ending of a
 * run is read; the whole avatar on the embedded world is `*-e2e.test.ts`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { childEnvironment } from '../../../src/config.ts';
import { AGENT_CLIS } from '../../../src/engines/agents/agents.ts';
import type { AgentKind, AgentSetup } from '../../../src/engines/agents/agent-cli.ts';
import { AgentEngine } from '../../../src/engines/agents/agent-engine.ts';
import { TurnInterruptedError, type TurnRequest } from '../../../src/engines/engine.ts';
import { ProviderRefusedError } from '../../../src/errors.ts';
import type { Skill, SkillRegistry } from '../../../src/game/skill.ts';
import { silentLogger } from '../../../src/logger.ts';
import { renderPrompt } from '../../../src/loop/prompts.ts';
import { TaskFile } from '../../../src/task/task-file.ts';
import { FakeGame, snapshotOf } from '../../fakes/fake-game.ts';
import { AGENTS_DIR, defaultPlaces, fakeModel, processesIn, suite, type FakeModel } from './agent-helpers.ts';

const log = silentLogger();

/** A registry of one `collect` skill that gives the items to the fake game. */
export function givingRegistry(game: FakeGame): SkillRegistry {
  const params = z.object({ item: z.string().min(1).describe('block or item name'), count: z.number().int().min(1).max(64).default(1) });
  const collect: Skill<typeof params> = {
    id: 'collect',
    description: 'Gather N more of a block drop',
    params,
    timeoutMs: 5000,
    async run(_game, p) {
      game.give(p.item, p.count);
      return { ok: true, code: 'done', detail: `collected ${p.count} ${p.item}` };
    },
  };
  return {
    list: () => [collect as Skill],
    get: (id) => (id === 'collect' ? (collect as Skill) : undefined),
    async run(id, raw, signal) {
      const parsed = params.safeParse(raw);
      if (id !== 'collect' || !parsed.success) return { ok: false, code: 'bad_params', detail: 'no such call' };
      return collect.run(game, parsed.data, signal);
    },
  };
}

/** A request of the loop's kind `kind` on an owner goal, its prompt rendered as the loop does. */
export function request(kind: TurnRequest['kind'], goal: string | null, message?: string): TurnRequest {
  const base = { kind, avatar: 'steve', goal: goal ? { text: goal, setBy: 'owner' as const, baseline: {} } : null, directionSummary: '', directions: [], task: '', nudges: [], ...(message ? { message } : {}) };
  return { ...base, prompt: renderPrompt(base), completion: () => ({ checkable: false }) };
}

/**
 * The engine suite of one CLI.
 *
 * @example
 * agentEngineSuite('pi');
 */
export function agentEngineSuite(kind: AgentKind): void {
  const s = suite(kind);
  // A native CLI starting under a loaded machine takes tens of seconds a run, and a test makes up to three runs.
  describe.skipIf(s.skip)(`the ${s.title} engine against a fake model`, { timeout: 180_000 }, () => {
    let m: FakeModel;
    let data: string;
    let game: FakeGame;
    let before: Record<string, number | null>;
    const engines: AgentEngine[] = [];
    const avatarDir = (): string => join(data, 'avatars', 'steve');

    let timeoutMs = 120_000;
    const setup = (): AgentSetup => ({ agentsDir: AGENTS_DIR, dataDir: data, timeoutMs, ...m.setup, baseEnv: childEnvironment() });
    const engine = (): AgentEngine => {
      const cli = AGENT_CLIS[kind];
      const location = cli.locate(setup());
      if (!location) throw new Error(`${kind} is not installed`);
      const e = new AgentEngine({ avatar: 'steve', game, log, skills: givingRegistry(game), task: new TaskFile(avatarDir(), 'steve') }, cli, location, { setup: setup(), avatarDir: avatarDir() });
      engines.push(e);
      return e;
    };
    const sessionId = (): string | null => (JSON.parse(readFileSync(join(avatarDir(), `${kind}-session.json`), 'utf8')) as { id: string | null }).id;

    beforeAll(() => {
      before = defaultPlaces();
    });

    beforeEach(async () => {
      m = await fakeModel(kind);
      timeoutMs = 120_000;
      data = mkdtempSync(join(tmpdir(), `mindlink-${kind}-`));
      game = new FakeGame('steve', { snap: snapshotOf() });
    });

    afterEach(async () => {
      for (const e of engines.splice(0)) e.close();
      await m.close();
      rmSync(data, { recursive: true, force: true });
    });

    afterAll(() => {
      // Every run kept to DATA_DIR: the CLI's home folders and temp files outside it are as they were.
      expect(defaultPlaces()).toEqual(before);
    });

    it('GIVEN "collect 2 oak logs" THEN the CLI calls mindlink\'s collect over MCP (its only tools), reads the result, says done; usage, cost and its commentary come back; the next turn and a restarted engine resume the same session', async () => {
      const e = engine();
      const reply = await e.turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      expect(reply.report).toMatchObject({ status: 'done', text: 'I have the 2 logs now.' });
      expect(reply.actions).toEqual([{ skill: 'collect', ok: true, code: 'done' }]);
      expect(reply.thoughts).toEqual(['Going for the logs.']);
      expect(game.snap.inventory.oak_log).toBe(2);
      expect(reply.usage?.requests).toBe(2);
      expect(reply.usage?.promptTokens).toBeGreaterThan(0);
      expect(reply.usage?.costUsd).toBeGreaterThan(0);
      const first = m.count();
      expect(first).toBe(2);
      const prefix = kind === 'claude-code' ? 'mcp__mindlink__' : 'mindlink_';
      expect(m.toolNames(1).sort()).toEqual(['collect', 'lab_log', 'look', 'rewrite_task'].map((t) => `${prefix}${t}`));
      expect(m.system(1)).toContain("You are steve, a Minecraft survival player acting for your owner. You act only through mindlink's tools");
      expect(m.texts(1).some((t) => t.includes('Goal (set by your owner): collect 2 oak logs'))).toBe(true);
      const id = sessionId();
      expect(id).toEqual(expect.any(String));

      await e.turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      expect(sessionId()).toBe(id);
      expect(m.texts(first + 1).some((t) => t.includes('I have the 2 logs now.'))).toBe(true);

      // A restart: a new engine on the same folders continues the same conversation.
      const second = m.count();
      await engine().turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      expect(sessionId()).toBe(id);
      expect(m.texts(second + 1).filter((t) => t.includes('I have the 2 logs now.')).length).toBe(2);
      expect(processesIn(avatarDir())).toEqual([]);
    });

    it('GIVEN a question THEN its run may only look, it sees the session so far, and the session is left as it was', async () => {
      const e = engine();
      await e.turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      const id = sessionId();
      const n = m.count();
      const prefix = kind === 'claude-code' ? 'mcp__mindlink__' : 'mindlink_';
      const reply = await e.turn(request('question', 'collect 2 oak logs', 'where are you?'), new AbortController().signal);
      expect(reply.report.text).toBe('Waiting for a goal.');
      expect(m.toolNames(n + 1)).toEqual([`${prefix}look`]);
      expect(m.texts(n + 1).some((t) => t.includes('I have the 2 logs now.'))).toBe(true);
      expect(m.texts(n + 1).some((t) => t.includes('where are you?'))).toBe(true);
      expect(sessionId()).toBe(id);
      const after = m.count();
      await e.turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      expect(m.texts(after + 1).some((t) => t.includes('where are you?'))).toBe(false);
    });

    it('GIVEN a rotated session, or a saved one the CLI no longer has THEN the next turn starts a new session and goes on', async () => {
      const e = engine();
      await e.turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      const id = sessionId();
      e.resetSession();
      expect(e.session().size).toBe(0);
      let n = m.count();
      await e.turn(request('fresh', 'collect 2 oak logs'), new AbortController().signal);
      expect(sessionId()).not.toBe(id);
      expect(m.texts(n + 1).some((t) => t.includes('I have the 2 logs now.'))).toBe(false);
      expect(e.session().size).toBeGreaterThan(0);

      const file = join(avatarDir(), `${kind}-session.json`);
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const gone = kind === 'opencode' ? 'ses_0000000000000000000000000' : '00000000-0000-4000-8000-000000000000';
      writeFileSync(file, JSON.stringify({ ...saved, id: gone }));
      n = m.count();
      const reply = await engine().turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      expect(reply.report.status).toBe('done');
      expect(sessionId()).not.toBe(gone);
      expect(m.count()).toBeGreaterThan(n);
    });

    it('GIVEN the model provider out of credit THEN the turn throws the refusal at once and no further request is sent', async () => {
      m.answer('refuse');
      const turn = engine().turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      await expect(turn).rejects.toBeInstanceOf(ProviderRefusedError);
      await expect(turn).rejects.toThrow(/credit|quota/i);
      // The CLI retries nothing it was not allowed to: it is gone, so nothing more can come.
      expect(processesIn(avatarDir())).toEqual([]);
      const n = m.count();
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThanOrEqual(kind === 'pi' ? 2 : 1);
    });

    it('GIVEN the model provider down past the CLI\'s retries THEN the turn ends as working, saying why', async () => {
      m.answer('unavailable');
      const reply = await engine().turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      expect(reply.report.status).toBe('working');
      expect(reply.report.text).toMatch(/^\(the model provider did not answer: .*(overloaded|503|529)/i);
      expect(processesIn(avatarDir())).toEqual([]);
    });

    it('GIVEN a stop while the model is thinking THEN the turn is interrupted, the CLI and all it started are gone, and no further request comes', async () => {
      m.answer('hang');
      const stop = new AbortController();
      const turn = engine().turn(request('continue', 'collect 2 oak logs'), stop.signal);
      await m.nth(1);
      expect(processesIn(avatarDir()).length).toBeGreaterThan(0);
      const t0 = performance.now();
      stop.abort(new Error('owner stop'));
      await expect(turn).rejects.toBeInstanceOf(TurnInterruptedError);
      log.info({ kind, ms: Math.round(performance.now() - t0) }, 'stopped');
      expect(processesIn(avatarDir())).toEqual([]);
      expect(m.count()).toBe(1);
      // Nothing is left in its temp folders either (a socket, an extracted library).
      expect(readdirSync(join(data, 'agents', kind, 'tmp'))).toEqual([]);
    });

    it('GIVEN a CLI still running at the turn\'s time limit THEN it is killed with all it started, and the turn ends as working, saying so', async () => {
      m.answer('hang');
      timeoutMs = 5000;
      const reply = await engine().turn(request('continue', 'collect 2 oak logs'), new AbortController().signal);
      expect(reply.report).toMatchObject({ status: 'working', text: `(${kind} did not finish its turn within 5 s, so it was stopped)` });
      expect(processesIn(avatarDir())).toEqual([]);
    });
  });
}
