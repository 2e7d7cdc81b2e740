/**
 * The llm engine's tools over the skills an avatar wrote (src/engines/llm/skill-tools.ts): which turns offer
 * `write_skill` and which kept skills, writing one through the real library and script sandbox, and running a
 * kept one, with the real `openai` client against the fake endpoint and the game double.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bot } from 'mineflayer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSkillRegistry } from '../../skills/index.ts';
import type { TurnRequest } from '../../src/engines/engine.ts';
import { LlmEngine } from '../../src/engines/llm/llm-engine.ts';
import type { Skill } from '../../src/game/skill.ts';
import { learnedSkills, type LearnedSkills } from '../../src/learned/learned-skills.ts';
import { SkillLibrary } from '../../src/learned/library.ts';
import { silentLogger } from '../../src/logger.ts';
import { renderPrompt } from '../../src/loop/prompts.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import { FakeGame, snapshotOf } from '../fakes/fake-game.ts';
import { FakeOpenAI, lastMessage, type RecordedRequest } from '../fakes/openai-api.ts';

const log = silentLogger();
const live = (): AbortSignal => new AbortController().signal;

/** A skill of this test: adds items to the double's inventory, as a collect would. */
const pickUp: Skill = {
  id: 'pick_up',
  description: 'Pick up items',
  params: z.object({ item: z.string(), count: z.number().int().min(1).max(64) }),
  timeoutMs: 5_000,
  async run(g, p: { item: string; count: number }) {
    const inv = (g as FakeGame).snap.inventory;
    inv[p.item] = (inv[p.item] ?? 0) + p.count;
    return { ok: true, code: 'done', detail: `picked up ${p.count} ${p.item}` };
  },
};

/** A skill of this test: stacks blocks of dirt beside the avatar (the double's columns show it), as a builder would. */
const stack: Skill = {
  id: 'stack',
  description: 'Stack dirt',
  params: z.object({ height: z.number().int().min(1).max(12) }),
  timeoutMs: 5_000,
  async run(g, p: { height: number }) {
    const game = g as FakeGame;
    game.snap = { ...game.snap, columns: [{ block: 'dirt', height: p.height, x: 2, y: 64, z: 0 }] };
    return { ok: true, code: 'done', detail: `stacked ${p.height} dirt` };
  },
};

function request(kind: TurnRequest['kind'], goal: string | null): TurnRequest {
  const base = { kind, avatar: 'eve', goal: goal ? { text: goal, setBy: 'owner' as const, baseline: {} } : null, directionSummary: '', directions: [], task: '', nudges: [] };
  return { ...base, prompt: renderPrompt(base), completion: () => ({ checkable: false }) };
}

const toolNames = (r: RecordedRequest | undefined): string[] => (r?.body.tools ?? []).map((t) => t.function.name);

describe('llm engine: skills the avatar wrote', () => {
  let llm: FakeOpenAI;
  let dir: string;
  let game: FakeGame;
  let learned: LearnedSkills;
  let engine: LlmEngine;

  beforeEach(async () => {
    llm = await FakeOpenAI.start();
    dir = mkdtempSync(join(tmpdir(), 'mindlink-llm-skills-'));
    game = new FakeGame('eve', { snap: snapshotOf({ inventory: { dirt: 1 }, columns: [] }) });
    game.bot = {} as Bot;
    const skills = createSkillRegistry(game, [pickUp, stack]);
    learned = learnedSkills(new SkillLibrary(dir, log), { avatar: 'eve', game, skills });
    engine = new LlmEngine(
      { avatar: 'eve', game, log, skills, task: new TaskFile(dir, 'eve'), learned },
      { transport: { baseURL: llm.baseURL, model: 'fake-model', stream: false, timeoutMs: 5000, maxRetries: 0, retryBaseMs: 5, maxRetryWaitMs: 50 }, maxSteps: 8, budgetChars: 16_000, avatarDir: dir },
    );
  });

  afterEach(async () => {
    engine.close();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Keep a skill through the library, as a model's write_skill would. */
  async function keep(name: string, description: string, goal: string): Promise<void> {
    const r = await learned.writeSkill({ name, description, code: "await pickUp({ item: 'dirt', count: 1 });", goal }, live());
    expect(r.ok).toBe(true);
  }

  it('GIVEN a goal in the goal language and no skill kept THEN the request carries only the built-in tools; a goal outside it, a blocked turn and a handed-over turn offer write_skill; a wrap-up and a question do not', async () => {
    llm.script = () => ({ content: 'Carrying on.\nSTATUS: working' });
    // The notes' tools come on the turns where plans and lessons change (a blocked one).
    const builtIn = ['pick_up', 'stack', 'look'];
    await engine.turn(request('continue', 'collect 3 dirt'), live());
    expect(toolNames(llm.requests[0])).toEqual(builtIn);
    await engine.turn(request('continue', 'build a pillar of 3 dirt'), live());
    await engine.turn(request('blocked', 'collect 3 dirt'), live());
    await engine.turn({ ...request('continue', 'collect 3 dirt'), handover: { why: 'the scripted engine reported blocked 2 times on this goal', tried: [] } }, live());
    expect(toolNames(llm.requests[1])).toEqual([...builtIn, 'write_skill']);
    expect(toolNames(llm.requests[2])).toEqual([...builtIn, 'rewrite_task', 'lab_log', 'write_skill']);
    expect(toolNames(llm.requests[3])).toEqual([...builtIn, 'write_skill']);
    await engine.turn(request('wrapup', null), live());
    expect(toolNames(llm.requests[4])).toEqual(['look', 'rewrite_task']);
    await engine.turn(request('question', 'build a pillar of 3 dirt'), live());
    expect(toolNames(llm.requests[5])).toEqual(['look']);
  });

  it('GIVEN the model writes a skill whose postcondition the world then shows THEN it is kept and offered on the next turn of that goal; one that only claims it is not kept', async () => {
    const code = 'await stack({ height: params.height });\nreturn params.height;';
    const args = { name: 'dirt_pillar', description: 'Stack a pillar of dirt', params: { type: 'object', properties: { height: { type: 'integer' } }, required: ['height'] }, trial_params: { height: 3 }, postcondition: 'build a pillar of {height} dirt' };
    llm.script = (req) => {
      const last = lastMessage(req);
      if (last?.role === 'tool') return { content: `${last.content ?? ''}\nSTATUS: working` };
      if (req.n === 1) return { toolCalls: [{ name: 'write_skill', arguments: { ...args, name: 'fake_pillar', code: 'return 3;' } }] };
      if (req.n === 3) return { toolCalls: [{ name: 'write_skill', arguments: { ...args, code } }] };
      return { toolCalls: [{ name: 'dirt_pillar', arguments: { height: 4 } }] };
    };
    const faked = await engine.turn(request('continue', 'build a pillar of 3 dirt'), live());
    expect(lastMessage(llm.requests[1]!)?.content).toBe(
      'error: check_failed: the script finished, but its postcondition "build a pillar of 3 dirt" is not met: no free-standing column of dirt stands within 6 blocks of you (3 high needed, nothing solid beside it)\nnow: pos 0 64 0 · health 20 · food 20 · inventory: dirt×1',
    );
    expect(faked.actions).toEqual([{ skill: 'write_skill', ok: false, code: 'check_failed' }]);

    const kept = await engine.turn(request('continue', 'build a pillar of 3 dirt'), live());
    expect(lastMessage(llm.requests[3]!)?.content).toMatch(/^ok: kept dirt_pillar \(its trial: .*\); it is offered as a tool when a goal fits\nnow: /);
    expect(kept.actions).toEqual([{ skill: 'write_skill', ok: true, code: 'kept' }]);
    expect((await learned.list()).map((s) => s.name)).toEqual(['dirt_pillar']);

    const used = await engine.turn(request('continue', 'build a pillar of 3 dirt'), live());
    const offered = llm.requests[4]?.body.tools?.find((t) => t.function.name === 'dirt_pillar');
    expect(offered?.function).toEqual({ name: 'dirt_pillar', description: 'Your own skill: Stack a pillar of dirt (1/1 runs ok)', parameters: { type: 'object', properties: { height: { type: 'integer' } }, required: ['height'] } });
    expect(lastMessage(llm.requests[5]!)?.content).toMatch(/^ok done: /);
    expect(used.actions).toEqual([{ skill: 'dirt_pillar', ok: true, code: 'done' }]);
    expect(await learned.list()).toMatchObject([{ name: 'dirt_pillar', runs: 2, successes: 2 }]);
  });

  it('GIVEN more kept skills than a turn offers THEN only the three whose words fit the goal best are offered, and none that shares no word with it', async () => {
    await keep('dig_dirt', 'Dig dirt near me', 'collect 5 dirt');
    await keep('dirt_wall', 'Build a wall of dirt', 'build a dirt wall');
    await keep('dirt_pillar', 'Build a pillar of dirt', 'build a pillar of 3 dirt');
    await keep('dirt_tower', 'Stack a tall tower of dirt', 'build a tower of dirt');
    await keep('chop_oak', 'Chop oak logs', 'collect 3 oak logs');
    llm.script = () => ({ content: 'Carrying on.\nSTATUS: working' });
    await engine.turn(request('continue', 'build a pillar of 3 dirt'), live());
    const offered = toolNames(llm.requests[0]).slice(3);
    expect(offered[0]).toBe('write_skill');
    expect(offered.slice(1)).toHaveLength(3);
    expect(offered[1]).toBe('dirt_pillar');
    expect(offered).not.toContain('chop_oak');
  });
});
