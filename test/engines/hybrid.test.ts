/**
 * The hybrid engine (src/engines/hybrid.ts) over the real scripted engine on the game double, with a scripted
 * model engine beside it (test/fakes/test-engine.ts): who plays each turn, what the model is handed, what a
 * refusal does. The real llm engine against the fake endpoint on the embedded world: hybrid-e2e.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bot } from 'mineflayer';
import pino from 'pino';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSkillRegistry, skills, type Skill, type SkillResult } from '../../skills/index.ts';
import type { Engine, GoalView, TurnKind, TurnReply, TurnRequest } from '../../src/engines/engine.ts';
import { createHybridEngine, MODEL_PAUSE_MS } from '../../src/engines/hybrid.ts';
import { PROTOCOL_HELP } from '../../src/engines/protocol-help.ts';
import { createScriptedEngine } from '../../src/engines/scripted.ts';
import { ProviderRefusedError } from '../../src/errors.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import type { FakeGame } from '../fakes/fake-game.ts';
import { TestEngine } from '../fakes/test-engine.ts';
import { completionOn, demoGame, makeSnapshot, VANILLA } from './avatar-game-stub.ts';

const log = pino({ level: 'silent' });
const taskRoot = mkdtempSync(join(tmpdir(), 'mindlink-hybrid-'));
afterAll(() => rmSync(taskRoot, { recursive: true, force: true }));
let made = 0;

const live = (): AbortSignal => new AbortController().signal;

function goal(text: string, baseline: Record<string, number> | null = {}): GoalView {
  return { text, setBy: 'owner', baseline };
}

describe('hybrid engine', () => {
  let game: FakeGame;
  let list: Map<string, Skill>;
  let calls: string[];
  let model: TestEngine;
  let clock: number;
  let engine: Engine;

  /** A request as the loop builds it: a prompt ending in the protocol reminder, the completion check on the game. */
  function request(kind: TurnKind, over: Partial<TurnRequest> = {}): TurnRequest {
    const g = over.goal ?? null;
    return { kind, avatar: 'demo', goal: g, directionSummary: '', directions: [], task: '', nudges: [], prompt: `prompt for ${kind}\n\n${PROTOCOL_HELP}`, completion: completionOn(game, g), ...over };
  }

  function useSkill(id: string, run: (params: Record<string, unknown>) => SkillResult): void {
    list.set(id, {
      id,
      description: `test ${id}`,
      params: z.record(z.string(), z.unknown()),
      timeoutMs: 5000,
      async run(_g, params) {
        calls.push(id);
        return run(params as Record<string, unknown>);
      },
    });
  }

  function build(): Engine {
    made += 1;
    const ctx = { avatar: 'demo', game, log, skills: createSkillRegistry(game, [...list.values()]), task: new TaskFile(join(taskRoot, String(made)), 'demo') };
    return createHybridEngine(ctx, { scripted: createScriptedEngine(ctx), model, now: () => clock });
  }

  beforeEach(() => {
    game = demoGame({ state: 'connected', snap: makeSnapshot({ position: { x: 3, y: 64, z: 4 } }), capabilities: VANILLA });
    game.bot = {} as Bot;
    list = new Map(skills.map((s) => [s.id, s]));
    calls = [];
    clock = 1_000_000;
    model = new TestEngine(() => 'I will handle it.\nSTATUS: working');
    engine = build();
  });

  it('GIVEN a goal in the goal language that the scripted engine gets on with THEN every turn is scripted and the model is never asked', async () => {
    useSkill('collect', (p) => {
      game.give('oak_log', Number(p.count));
      return { ok: true, code: 'done', detail: `collected ${String(p.count)} oak logs` };
    });
    engine = build();
    const g = goal('collect 3 oak logs', {});
    const reply = await engine.turn(request('continue', { goal: g }), live());
    expect(reply.report.status).toBe('done');
    expect(reply.playedBy).toEqual({ engine: 'scripted', model: false });
    const wrap = await engine.turn(request('wrapup'), live());
    expect(wrap.playedBy).toEqual({ engine: 'scripted', model: false });
    expect((await engine.turn(request('choose'), live())).playedBy?.model).toBe(false);
    expect(model.requests).toEqual([]);
  });

  it('GIVEN a goal outside the goal language THEN the model plays it, handed why in its request and its prompt (before the protocol reminder), and writes its wrap-up', async () => {
    const g = goal('build a pillar of 3 dirt');
    const reply = await engine.turn(request('continue', { goal: g }), live());
    expect(reply.playedBy).toEqual({ engine: 'test', model: true });
    const asked = model.requests[0];
    expect(asked?.handover?.why).toMatch(/^the goal is outside the scripted engine's language/);
    expect(asked?.prompt).toMatch(/^prompt for continue\n\nThis turn is yours: the goal is outside the scripted engine's language .*write_skill can make one that does\.\n\n/);
    expect(asked?.prompt.endsWith(PROTOCOL_HELP)).toBe(true);
    // Done: the wrap-up comes without a goal, and the model, which worked on it, writes the lesson.
    const wrap = await engine.turn(request('wrapup'), live());
    expect(wrap.playedBy?.model).toBe(true);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.kind).toBe('wrapup');
  });

  it('GIVEN the scripted engine blocked twice on a goal THEN the next turn goes to the model with the reasons and what was tried; a model turn that picks a goal in the language gives the next turn back', async () => {
    useSkill('collect', () => ({ ok: false, code: 'no_target', detail: 'no sand within 64 blocks' }));
    useSkill('explore', () => ({ ok: true, code: 'done', detail: 'explored' }));
    engine = build();
    const g = goal('collect 5 sand');
    const played: (boolean | undefined)[] = [];
    const statuses: string[] = [];
    for (const kind of ['continue', 'continue', 'blocked', 'continue'] as const) {
      const r = await engine.turn(request(kind, { goal: g }), live());
      played.push(r.playedBy?.model);
      statuses.push(r.report.status);
    }
    expect(statuses).toEqual(['working', 'blocked', 'working', 'blocked']);
    expect(played).toEqual([false, false, false, false]);
    expect(model.requests).toEqual([]);

    model.script = () => 'Sand is far; logs first.\nGOAL: collect 2 oak logs\nSTATUS: working';
    const handed = await engine.turn(request('blocked', { goal: g }), live());
    expect(handed.playedBy?.model).toBe(true);
    expect(handed.report.goal).toBe('collect 2 oak logs');
    const asked = model.requests[0];
    expect(asked?.handover?.why).toBe('the scripted engine reported blocked 2 times on this goal: no sand within 64 blocks (no_target, 2 times in a row); no sand within 64 blocks (no_target, 2 times in a row)');
    expect(asked?.handover?.tried).toEqual(['collect ×4 (4 failed: no_target)', 'explore ×3']);
    expect(asked?.prompt).toContain('It tried: collect ×4 (4 failed: no_target); explore ×3.');

    // The same stuck goal stays with the model; the goal it chose is the scripted engine's again.
    expect((await engine.turn(request('continue', { goal: g }), live())).playedBy?.model).toBe(true);
    const next = await engine.turn(request('continue', { goal: goal('collect 2 oak logs') }), live());
    expect(next.playedBy).toEqual({ engine: 'scripted', model: false });
    expect(model.requests).toHaveLength(2);
  });

  it('GIVEN a question the snapshot answers THEN the scripted engine answers it; one it cannot THEN the model does', async () => {
    const where = await engine.turn(request('question', { message: 'where are you?' }), live());
    expect(where.report.text).toBe("I'm at 3 64 4 in the overworld.");
    expect(where.playedBy?.model).toBe(false);
    expect(model.requests).toEqual([]);
    model.script = () => 'Because trees are near and I need planks.\nSTATUS: working';
    const why = await engine.turn(request('question', { message: 'why did you pick that goal?' }), live());
    expect(why.report).toMatchObject({ status: 'working', text: 'Because trees are near and I need planks.' });
    expect(why.playedBy?.model).toBe(true);
    expect(model.requests[0]?.handover).toBeUndefined();
  });

  it('GIVEN the model refuses THEN the scripted engine plays that turn with one line saying so, the model is not asked for an hour, then asked again; a second refusal pauses it twice as long', async () => {
    model.script = () => new ProviderRefusedError('insufficient_quota: You exceeded your current quota.');
    const g = goal('build a pillar of 3 dirt');
    const first = await engine.turn(request('continue', { goal: g }), live());
    expect(first.playedBy).toEqual({ engine: 'scripted', model: false });
    expect(first.report.status).toBe('blocked');
    expect(first.notice).toBe("The model provider refused (insufficient_quota: You exceeded your current quota.), so the scripted engine plays on; I'll ask the model again in 1 hour.");
    expect(model.requests).toHaveLength(1);

    clock += MODEL_PAUSE_MS - 1;
    const paused = await engine.turn(request('continue', { goal: g }), live());
    expect(paused.notice).toBeUndefined();
    const question = await engine.turn(request('question', { message: 'why did you stop?' }), live());
    expect(question.report.text).toMatch(/^I can't tell that from here/);
    expect(model.requests).toHaveLength(1);

    clock += 1;
    const again = await engine.turn(request('continue', { goal: g }), live());
    expect(model.requests).toHaveLength(2);
    expect(again.notice).toMatch(/I'll ask the model again in 2 hours\.$/);
    model.script = () => 'On it.\nSTATUS: working';
    clock += 2 * MODEL_PAUSE_MS;
    expect((await engine.turn(request('continue', { goal: g }), live())).playedBy?.model).toBe(true);
  });

  it('GIVEN an owner direction THEN it goes to whoever plays the goal', async () => {
    const scripted = await engine.turn(request('direction', { goal: goal('collect 3 oak logs'), message: 'stay near spawn' }), live());
    expect(scripted.playedBy?.model).toBe(false);
    const modelled = await engine.turn(request('direction', { goal: goal('build a pillar of 3 dirt'), message: 'use dirt from the hill' }), live());
    expect(modelled.playedBy?.model).toBe(true);
    expect(calls).toEqual([]);
  });
});
