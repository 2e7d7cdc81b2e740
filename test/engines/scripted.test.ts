import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import pino from 'pino';
import { z } from 'zod';
import { TurnInterruptedError, type GoalView, type TurnKind, type TurnReply, type TurnRequest } from '../../src/engines/engine.ts';
import { createScriptedEngine } from '../../src/engines/scripted.ts';
import { UNDER_ROOF_FROM_TICK } from '../../src/game/night.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import { initialTask, sectionText } from '../../src/task/task-md.ts';
import type { Engine } from '../../src/engines/engine.ts';
import { createSkillRegistry, skills, type Skill, type SkillResult } from '../../skills/index.ts';
import type { FakeGame } from '../fakes/fake-game.ts';
import { BARE, completionOn, demoGame, makeSnapshot, VANILLA } from './avatar-game-stub.ts';

const log = pino({ level: 'silent' });

/** A request; its completion check is filled in by {@link scripted}'s engine, on that engine's game. */
function request(kind: TurnKind, over: Partial<TurnRequest> = {}): TurnRequest {
  return { kind, avatar: 'demo', goal: null, directionSummary: '', directions: [], task: '', nudges: [], prompt: `prompt for ${kind}`, completion: () => ({ checkable: false }), ...over };
}

function goal(text: string, baseline: Record<string, number> | null = null, setBy: GoalView['setBy'] = 'owner'): GoalView {
  return { text, setBy, baseline };
}

const live = (): AbortSignal => new AbortController().signal;

/**
 * The scripted engine of `demo` on `game`, with the given skills (the production list by default); every
 * request carries the loop's completion check of its goal on `game`, as the goal loop's do.
 */
/** Each engine's TASK.md, in a folder of its own under this one. */
const taskRoot = mkdtempSync(join(tmpdir(), 'mindlink-scripted-'));
afterAll(() => rmSync(taskRoot, { recursive: true, force: true }));
let engines = 0;

/** A TaskFile of its own for the next engine. */
function freshTask(): TaskFile {
  engines += 1;
  return new TaskFile(join(taskRoot, String(engines)), 'demo');
}

function scripted(game: FakeGame, list: readonly Skill[] = skills, task: TaskFile = freshTask()): Engine {
  const engine = createScriptedEngine({ avatar: 'demo', game, log, skills: createSkillRegistry(game, list), task });
  return { ...engine, turn: (req, signal) => engine.turn({ ...req, completion: completionOn(game, req.goal) }, signal) };
}

function statusOf(reply: TurnReply): string {
  return reply.report.status;
}
function goalOf(reply: TurnReply): string | undefined {
  return reply.report.goal ?? undefined;
}

describe('scripted engine, turns that need no game', () => {
  it('GIVEN a choose turn on the embedded world THEN it picks the first curriculum goal and says GOAL and working', async () => {
    const game = demoGame({ snap: makeSnapshot({ nearbyBlocks: { oak_log: 3 } }) });
    const engine = scripted(game);
    const reply = await engine.turn(request('choose'), live());
    expect(engine.name).toBe('scripted');
    expect(goalOf(reply)).toBe('craft a wooden pickaxe');
    expect(statusOf(reply)).toBe('working');
    expect(reply.report.text).not.toMatch(/^(STATUS|GOAL):/m);
  });

  it('GIVEN a choose turn with an open owner direction in the goal language THEN that direction becomes the goal', async () => {
    const engine = scripted(demoGame({ snap: makeSnapshot() }));
    const reply = await engine.turn(request('choose', { directions: [{ n: 3, text: 'collect 10 sand', at: '2025-01-01' }] }), live());
    expect(goalOf(reply)).toBe('collect 10 sand');
    expect(reply.report.text).toMatch(/direction #3/);
  });

  it('GIVEN a choose turn whose direction goal was just finished THEN it does not pick it again', async () => {
    const engine = scripted(demoGame({ snap: makeSnapshot() }));
    const req = request('choose', { directions: [{ n: 3, text: 'collect 10 sand', at: '' }], recentGoals: ['collect 10 sand'] });
    expect(goalOf(await engine.turn(req, live()))).not.toBe('collect 10 sand');
  });

  it('GIVEN a choose turn with no game connection THEN it still chooses a sensible goal', async () => {
    const engine = scripted(demoGame());
    const reply = await engine.turn(request('choose'), live());
    expect(goalOf(reply)).toBe('craft a wooden pickaxe');
  });

  it('GIVEN a question THEN it answers from the snapshot and stays working without a GOAL line', async () => {
    const game = demoGame({ snap: makeSnapshot({ position: { x: 10, y: 64, z: -20 } }) });
    const engine = scripted(game);
    const reply = await engine.turn(request('question', { message: 'where are you?', goal: goal('explore') }), live());
    expect(reply.report).toMatchObject({ status: 'working', goal: null, text: "I'm at 10 64 -20 in the overworld." });
  });

  it('GIVEN a question while not in the game THEN it says so', async () => {
    const engine = scripted(demoGame());
    const reply = await engine.turn(request('question', { message: 'how many logs do you have?' }), live());
    expect(reply.report.text).toMatch(/not in the game right now/);
  });

  it('GIVEN a standing direction THEN it acknowledges it in a sentence and keeps its goal', async () => {
    const engine = scripted(demoGame());
    const reply = await engine.turn(request('direction', { message: 'stay near the village', goal: goal('explore') }), live());
    expect(reply.report).toMatchObject({ status: 'working', goal: null, text: "Understood: I'll stay near the village." });
    const dont = await engine.turn(request('direction', { message: "Don't dig straight down." }), live());
    expect(dont.report.text).toMatch(/^Understood: I won't dig straight down\./);
  });

  it('GIVEN a direction that is a goal-language command THEN it replies with a GOAL line', async () => {
    const engine = scripted(demoGame());
    const reply = await engine.turn(request('direction', { message: 'go to 0 64 0' }), live());
    expect(goalOf(reply)).toBe('go to 0 64 0');
    expect(statusOf(reply)).toBe('working');
  });

  it('GIVEN a crafting direction on a server without crafting THEN it notes it and sets no goal', async () => {
    const engine = scripted(demoGame({ capabilities: BARE }));
    const reply = await engine.turn(request('direction', { message: 'craft a wooden pickaxe' }), live());
    expect(goalOf(reply)).toBeUndefined();
    expect(reply.report.text).toMatch(/no crafting/);
  });

  it('GIVEN a goal the language cannot read THEN continue says blocked with the reason', async () => {
    const engine = scripted(demoGame({ state: 'connected', snap: makeSnapshot() }));
    const reply = await engine.turn(request('continue', { goal: goal('build a castle') }), live());
    expect(statusOf(reply)).toBe('blocked');
    expect(reply.report.text).toMatch(/can't build a castle yet; I know how to collect, mine/);
  });

  it('GIVEN the loop asks for another route on an unreadable goal THEN it picks another goal', async () => {
    const engine = scripted(demoGame({ state: 'connected', snap: makeSnapshot() }));
    const reply = await engine.turn(request('blocked', { goal: goal('build a castle') }), live());
    expect(statusOf(reply)).toBe('working');
    expect(goalOf(reply)).toBe('craft a wooden pickaxe');
  });

  for (const text of ['follow demo', 'come to demo', 'Follow Demo']) {
    it(`GIVEN "${text}" to the avatar demo itself THEN continue says blocked with the reason, never done`, async () => {
      const engine = scripted(demoGame({ state: 'connected', snap: makeSnapshot() }));
      const reply = await engine.turn(request('continue', { goal: goal(text) }), live());
      expect(statusOf(reply)).toBe('blocked');
      expect(reply.report.text).toMatch(/I can't (follow|come to) myself \(demo is me\): name another player/);
    });
  }

  it('GIVEN the follow and come_to skills asked for the avatar itself THEN their preconditions refuse (bad_params), another player passes', () => {
    const game = demoGame({ state: 'connected', snap: makeSnapshot() });
    const skill = (id: string): Skill | undefined => skills.find((k) => k.id === id);
    expect(skill('follow')?.preconditions?.(game, { player: 'DEMO', range: 3, durationMs: 30_000 })).toMatchObject({ ok: false, code: 'bad_params', detail: expect.stringMatching(/can't follow myself/) });
    expect(skill('come_to')?.preconditions?.(game, { player: 'demo' })).toMatchObject({ ok: false, code: 'bad_params', detail: expect.stringMatching(/can't come to myself/) });
    expect(skill('follow')?.preconditions?.(game, { player: 'alex', range: 3, durationMs: 30_000 })).toBeNull();
  });

  it('GIVEN a craft goal on a server without crafting THEN it is blocked because the server cannot craft', async () => {
    const engine = scripted(demoGame({ state: 'connected', snap: makeSnapshot(), capabilities: BARE }));
    const reply = await engine.turn(request('continue', { goal: goal('craft a wooden pickaxe') }), live());
    expect(statusOf(reply)).toBe('blocked');
    expect(reply.report.text).toMatch(/no crafting/);
  });

  it('GIVEN the game is not connected THEN a continue turn stays working and claims nothing', async () => {
    const engine = scripted(demoGame());
    const reply = await engine.turn(request('continue', { goal: goal('collect 3 oak logs') }), live());
    expect(statusOf(reply)).toBe('working');
    expect(reply.report.text).toMatch(/not in the game/);
  });

  it('GIVEN the goal is already met THEN continue says done (and retires the direction it came from)', async () => {
    const game = demoGame({ state: 'connected', snap: makeSnapshot({ inventory: { oak_log: 6 } }) });
    const engine = scripted(game);
    const reply = await engine.turn(
      request('continue', { goal: goal('collect 3 oak logs', { oak_log: 3 }), directions: [{ n: 2, text: 'collect 3 oak logs', at: '' }] }),
      live(),
    );
    expect(statusOf(reply)).toBe('done');
    expect(reply.report.directionsDone).toEqual([2]);
    expect(reply.report.text).toMatch(/^Done: you hold 3 more oak logs/);
  });

  it('GIVEN a continue turn with no goal THEN it chooses one: the first curriculum goal, working', async () => {
    const engine = scripted(demoGame({ snap: makeSnapshot() }));
    const reply = await engine.turn(request('continue'), live());
    expect(goalOf(reply)).toBe('craft a wooden pickaxe');
    expect(statusOf(reply)).toBe('working');
  });

  it('GIVEN an aborted signal THEN the turn rejects at once with TurnInterruptedError (the engine contract: no reply to an aborted turn)', async () => {
    const engine = scripted(demoGame({ state: 'connected', snap: makeSnapshot() }));
    const ac = new AbortController();
    ac.abort(new Error('owner stop'));
    const turn = engine.turn(request('continue', { goal: goal('collect 3 oak logs') }), ac.signal);
    await expect(turn).rejects.toBeInstanceOf(TurnInterruptedError);
    await expect(turn).rejects.toMatchObject({ message: 'turn interrupted: owner stop', usage: { promptTokens: 0, completionTokens: 0, requests: 0 } });
  });

  it('GIVEN a blocked goal THEN the wrap-up lesson says what blocked it', async () => {
    const engine = scripted(demoGame({ state: 'connected', snap: makeSnapshot(), capabilities: BARE }));
    const g = goal('craft a wooden pickaxe');
    await engine.turn(request('continue', { goal: g }), live());
    const reply = await engine.turn(request('wrapup', { goal: g }), live());
    expect(reply.report.text).toMatch(/^Lesson: "craft a wooden pickaxe" blocked after \d+ s/);
    expect(reply.report.text).toMatch(/no crafting/);
    expect(statusOf(reply)).toBe('working');
  });

  it('GIVEN turns were taken THEN the session grows, and a reset empties it', async () => {
    const engine = scripted(demoGame());
    const before = engine.session();
    await engine.turn(request('question', { message: 'where are you?' }), live());
    expect(engine.session().size).toBeGreaterThan(before.size);
    engine.resetSession();
    expect(engine.session().size).toBe(0);
  });
});

describe('scripted engine, skill results (test skills in the registry)', () => {
  /** The registry of this test: the production skills, some replaced or removed. */
  const list = new Map<string, Skill>();
  let game: FakeGame;
  const calls: { id: string; params: unknown }[] = [];

  /** Put a test skill under an id for one test; the real one is restored afterwards. */
  function useSkill(id: string, run: (params: Record<string, unknown>) => SkillResult): void {
    list.set(id, {
      id,
      description: `test ${id}`,
      params: z.record(z.string(), z.unknown()),
      timeoutMs: 5000,
      async run(_g, params) {
        calls.push({ id, params });
        return run(params as Record<string, unknown>);
      },
    });
  }

  beforeEach(() => {
    game = demoGame({ state: 'connected', snap: makeSnapshot({ inventory: { oak_log: 1 } }), capabilities: VANILLA });
    game.bot = {} as Bot;
    calls.length = 0;
  });
  beforeEach(() => {
    list.clear();
    for (const skill of skills) list.set(skill.id, skill);
  });

  it('GIVEN collect 3 more with 1 held THEN it asks the skill for 3 and says done only when the check is met', async () => {
    useSkill('collect', (p) => {
      game.snap = makeSnapshot({ inventory: { oak_log: 1 + Number(p['count']) } });
      return { ok: true, code: 'done', detail: 'collected' };
    });
    const engine = scripted(game, [...list.values()]);
    const reply = await engine.turn(request('continue', { goal: goal('collect 3 oak logs', { oak_log: 1 }) }), live());
    expect(calls).toEqual([{ id: 'collect', params: { item: 'oak_log', count: 3 } }]);
    expect(statusOf(reply)).toBe('done');
  });

  it('GIVEN the skill claims success but the inventory falls short THEN it stays working', async () => {
    useSkill('collect', () => {
      game.snap = makeSnapshot({ inventory: { oak_log: 2 } });
      return { ok: true, code: 'done', detail: 'collected 1 oak_log' };
    });
    const engine = scripted(game, [...list.values()]);
    const reply = await engine.turn(request('continue', { goal: goal('collect 3 oak logs', { oak_log: 1 }) }), live());
    expect(statusOf(reply)).toBe('working');
    expect(reply.report.text).toMatch(/you hold 1 of the 3 more oak logs needed/);
  });

  it('GIVEN the turn is aborted while its skill runs THEN it rejects with TurnInterruptedError instead of replying', async () => {
    const ac = new AbortController();
    useSkill('collect', () => {
      ac.abort(new Error('new owner goal'));
      return { ok: false, code: 'aborted', detail: 'stopped' };
    });
    const engine = scripted(game, [...list.values()]);
    const turn = engine.turn(request('continue', { goal: goal('collect 3 oak logs', { oak_log: 1 }) }), ac.signal);
    await expect(turn).rejects.toBeInstanceOf(TurnInterruptedError);
    expect(calls.map((c) => c.id)).toEqual(['collect']);
  });

  it('GIVEN have 5 dirt with 2 held THEN it asks the skill for the 3 missing', async () => {
    game.snap = makeSnapshot({ inventory: { dirt: 2 } });
    useSkill('collect', () => ({ ok: false, code: 'timeout', detail: 'collect took longer than 180 s' }));
    const engine = scripted(game, [...list.values()]);
    const reply = await engine.turn(request('continue', { goal: goal('have 5 dirt') }), live());
    expect(calls[0]).toEqual({ id: 'collect', params: { item: 'dirt', count: 3 } });
    expect(statusOf(reply)).toBe('working');
  });

  it('GIVEN a skill that times out twice in a row THEN the goal is blocked the second time (a timeout is no reason to go on for ever)', async () => {
    useSkill('collect', () => ({ ok: false, code: 'timeout', detail: 'collect took longer than 180 s' }));
    const engine = scripted(game, [...list.values()]);
    const req = request('continue', { goal: goal('collect 5 sand') });
    expect(statusOf(await engine.turn(req, live()))).toBe('working');
    const second = await engine.turn(req, live());
    expect(statusOf(second)).toBe('blocked');
    expect(second.report.text).toMatch(/collect took longer than 180 s \(timeout, 2 times in a row\)/);
  });

  it('GIVEN a skill that says ok but the goal never moves THEN the goal is blocked after three tries', async () => {
    useSkill('collect', () => ({ ok: true, code: 'done', detail: 'collected 0 sand' }));
    const engine = scripted(game, [...list.values()]);
    const req = request('continue', { goal: goal('collect 5 sand', {}) });
    const statuses: (string | undefined)[] = [];
    let last = '';
    for (let i = 0; i < 3; i++) {
      const reply = await engine.turn(req, live());
      last = reply.report.text;
      statuses.push(statusOf(reply));
    }
    expect(statuses).toEqual(['working', 'working', 'blocked']);
    expect(last).toMatch(/collected 0 sand, but the check still says you hold 0 of the 5 more sand needed .* after 3 tries/);
  });

  it('GIVEN a craft goal from nothing THEN the first turn gathers the logs and crafts the whole chain from them in one go, up to done', async () => {
    // Each test skill changes the stub's inventory as the real one would.
    const inventory: Record<string, number> = {};
    const set = (changes: Record<string, number>): void => {
      for (const [k, n] of Object.entries(changes)) inventory[k] = (inventory[k] ?? 0) + n;
      game.snap = makeSnapshot({ inventory: { ...inventory } });
    };
    game.snap = makeSnapshot({ inventory: {} });
    useSkill('collect', () => (set({ oak_log: 3 }), { ok: true, code: 'done', detail: 'collected 3 log' }));
    useSkill('craft', (p) => {
      const item = String(p['item']);
      if (item === 'oak_planks') set({ oak_log: -3, oak_planks: 12 });
      if (item === 'stick') set({ oak_planks: -2, stick: 4 });
      if (item === 'crafting_table') set({ oak_planks: -4, crafting_table: 1 });
      if (item === 'wooden_pickaxe') set({ oak_planks: -3, stick: -2, crafting_table: -1, wooden_pickaxe: 1 });
      return { ok: true, code: 'done', detail: `crafted ${item}` };
    });
    const engine = scripted(game, [...list.values()]);
    const req = request('continue', { goal: goal('craft a wooden pickaxe', {}) });
    const reply = await engine.turn(req, live());
    expect(statusOf(reply)).toBe('done');
    expect(reply.actions?.map((a) => a.skill)).toEqual(['collect', 'craft', 'craft', 'craft', 'craft']);
    expect(reply.report.text).toMatch(/^Done: collected 3 log; crafted oak_planks; crafted stick; crafted crafting_table; you hold/);
    expect(calls.map((c) => `${c.id} ${String((c.params as Record<string, unknown>)['item'])}`)).toEqual([
      'collect log',
      'craft oak_planks',
      'craft stick',
      'craft crafting_table',
      'craft wooden_pickaxe',
    ]);
  });

  it('GIVEN a plan whose crafts wait on a gather THEN a turn chains the crafts after a step, ends before the gather, and a failing craft ends the chain with its reason', async () => {
    const inventory: Record<string, number> = { oak_planks: 3, stone_pickaxe: 1, cobblestone: 2 };
    const set = (changes: Record<string, number>): void => {
      for (const [k, n] of Object.entries(changes)) inventory[k] = (inventory[k] ?? 0) + n;
      game.snap = makeSnapshot({ inventory: { ...inventory } });
    };
    set({});
    let tableWorks = true;
    useSkill('collect', () => (set({ oak_log: 1 }), { ok: true, code: 'done', detail: 'collected 1 log' }));
    useSkill('craft', (p) => {
      const item = String(p['item']);
      if (item === 'stick') set({ oak_planks: -2, stick: 4 });
      if (item === 'oak_planks') set({ oak_log: -1, oak_planks: 4 });
      if (item === 'crafting_table') {
        if (!tableWorks) return { ok: false, code: 'missing_material', detail: 'I lack the ingredients for crafting_table' };
        set({ oak_planks: -4, crafting_table: 1 });
      }
      if (item === 'stone_sword') set({ cobblestone: -2, stick: -1, crafting_table: -1, stone_sword: 1 });
      return { ok: true, code: 'done', detail: `crafted ${item}` };
    });
    const engine = scripted(game, [...list.values()]);
    const req = request('continue', { goal: goal('craft a stone sword', {}) });
    const first = await engine.turn(req, live());
    expect(statusOf(first)).toBe('working');
    // Sticks first; the log it needs next is gathered on the next turn.
    expect(first.actions?.map((a) => a.skill)).toEqual(['craft']);

    tableWorks = false;
    const failed = await engine.turn(req, live());
    expect(failed.actions?.map((a) => a.skill)).toEqual(['collect', 'craft', 'craft']);
    expect(statusOf(failed)).toBe('blocked');
    expect(failed.report.text).toMatch(/I lack the ingredients for crafting_table \(missing_material\)/);

    tableWorks = true;
    const done = await engine.turn(req, live());
    expect(statusOf(done)).toBe('done');
    expect(done.actions?.map((a) => a.skill)).toEqual(['craft', 'craft']);
    expect(calls.map((c) => `${c.id} ${String((c.params as Record<string, unknown>)['item'])}`)).toEqual([
      'craft stick',
      'collect log',
      'craft oak_planks',
      'craft crafting_table',
      'craft crafting_table',
      'craft stone_sword',
    ]);
  });

  it('GIVEN a craft that fails for want of material while its run moved the inventory (the carried table set down) THEN the goal is not blocked: the next turn plans from what is held and crafts', async () => {
    const inventory: Record<string, number> = { crafting_table: 1, oak_planks: 3, stick: 2 };
    const set = (changes: Record<string, number>): void => {
      for (const [k, n] of Object.entries(changes)) inventory[k] = (inventory[k] ?? 0) + n;
      game.snap = makeSnapshot({ inventory: { ...inventory }, nearbyBlocks: (inventory.crafting_table ?? 0) > 0 ? {} : { crafting_table: 2 } });
    };
    set({});
    let first = true;
    useSkill('craft', (p) => {
      if (first) {
        first = false;
        set({ crafting_table: -1 });
        return { ok: false, code: 'missing_material', detail: 'I lack the ingredients for wooden_pickaxe' };
      }
      set({ oak_planks: -3, stick: -2, [String(p['item'])]: 1 });
      return { ok: true, code: 'done', detail: `crafted ${String(p['item'])}` };
    });
    const engine = scripted(game, [...list.values()]);
    const req = request('continue', { goal: goal('craft a wooden pickaxe', {}) });
    const failed = await engine.turn(req, live());
    expect(statusOf(failed)).toBe('working');
    expect(failed.report.text).toMatch(/I lack the ingredients for wooden_pickaxe.*I'll try again/);
    const done = await engine.turn(req, live());
    expect(statusOf(done)).toBe('done');
    expect(calls.map((c) => `${c.id} ${String((c.params as Record<string, unknown>)['item'])}`)).toEqual(['craft wooden_pickaxe', 'craft wooden_pickaxe']);
  });

  it('GIVEN no_target twice in a row THEN it is blocked the second time', async () => {
    useSkill('collect', () => ({ ok: false, code: 'no_target', detail: 'no sand within 64 blocks' }));
    useSkill('explore', () => ({ ok: true, code: 'done', detail: 'explored' }));
    const engine = scripted(game, [...list.values()]);
    const req = request('continue', { goal: goal('collect 5 sand') });
    const first = await engine.turn(req, live());
    expect(statusOf(first)).toBe('working');
    expect(calls.map((c) => c.id)).toEqual(['collect', 'explore']);
    const second = await engine.turn(req, live());
    expect(statusOf(second)).toBe('blocked');
    expect(second.report.text).toMatch(/no sand within 64 blocks/);
  });

  it('GIVEN a blocked goal THEN the blocked turn explores and retries once, then switches goal', async () => {
    useSkill('collect', () => ({ ok: false, code: 'no_target', detail: 'no sand within 64 blocks' }));
    useSkill('explore', () => ({ ok: true, code: 'done', detail: 'explored' }));
    const engine = scripted(game, [...list.values()]);
    const g = goal('collect 5 sand');
    await engine.turn(request('continue', { goal: g }), live());
    await engine.turn(request('continue', { goal: g }), live());
    calls.length = 0;
    const retry = await engine.turn(request('blocked', { goal: g }), live());
    expect(calls.map((c) => c.id)).toEqual(['explore', 'collect', 'explore']);
    expect(goalOf(retry)).toBeUndefined();
    const again = await engine.turn(request('blocked', { goal: g }), live());
    expect(statusOf(again)).toBe('working');
    expect(goalOf(again)).toBeDefined();
    expect(goalOf(again)).not.toBe('collect 5 sand');
  });

  it('GIVEN the server refuses the skill (unsupported_by_server) THEN it is blocked at once', async () => {
    useSkill('craft', () => ({ ok: false, code: 'unsupported_by_server', detail: 'this server cannot craft' }));
    // With the planks at hand, the next step of the plan is the craft itself.
    game.snap = makeSnapshot({ inventory: { oak_planks: 2 } });
    const engine = scripted(game, [...list.values()]);
    const reply = await engine.turn(request('continue', { goal: goal('craft 4 sticks') }), live());
    expect(statusOf(reply)).toBe('blocked');
    expect(calls[0]).toEqual({ id: 'craft', params: { item: 'stick', count: 4 } });
  });

  it('GIVEN a goal that cannot be checked (say) THEN done follows the skill succeeding', async () => {
    useSkill('say', () => ({ ok: true, code: 'done', detail: 'said it' }));
    const engine = scripted(game, [...list.values()]);
    const reply = await engine.turn(request('continue', { goal: goal('say "hi all"') }), live());
    expect(calls[0]).toEqual({ id: 'say', params: { text: 'hi all' } });
    expect(statusOf(reply)).toBe('done');
  });

  it('GIVEN a go to goal the skill reached THEN done comes from the distance check', async () => {
    useSkill('go_to', (p) => {
      game.snap = makeSnapshot({ position: { x: Number(p['x']), y: Number(p['y']), z: Number(p['z']) } });
      return { ok: true, code: 'done', detail: 'arrived' };
    });
    const engine = scripted(game, [...list.values()]);
    const reply = await engine.turn(request('continue', { goal: goal('go to 10 64 -20') }), live());
    expect(statusOf(reply)).toBe('done');
    expect(reply.report.text).toMatch(/you are at 10 64 -20/);
    // The skill runs of the turn, for the thought stream.
    expect(reply.actions).toEqual([{ skill: 'go_to', ok: true, code: 'done' }]);
  });

  it('GIVEN a registered skill is missing THEN the goal is blocked with a reason', async () => {
    list.delete('eat');
    const engine = scripted(game, [...list.values()]);
    const reply = await engine.turn(request('continue', { goal: goal('eat something') }), live());
    expect(statusOf(reply)).toBe('blocked');
    expect(reply.report.text).toMatch(/don't have a eat skill/);
  });

  it('GIVEN a done goal THEN the wrap-up lesson says it worked and how long it took', async () => {
    useSkill('collect', () => {
      game.snap = makeSnapshot({ inventory: { oak_log: 4 } });
      return { ok: true, code: 'done', detail: 'collected' };
    });
    const engine = scripted(game, [...list.values()]);
    const g = goal('collect 3 oak logs', { oak_log: 1 });
    await engine.turn(request('continue', { goal: g }), live());
    const lesson = await engine.turn(request('wrapup', { goal: g }), live());
    expect(lesson.report.text).toMatch(/^Lesson: "collect 3 oak logs" done in \d+ s with 1 collect run; that works here\./);
  });
});

describe('scripted engine, the night where monsters spawn', () => {
  const calls: string[] = [];
  /** A collect that records its call; `hold` keeps it running until its signal aborts (a long gathering run). */
  function collectSkill(game: FakeGame, onStart: () => void = () => {}, hold = false): Skill {
    return {
      id: 'collect',
      description: 'test collect',
      params: z.record(z.string(), z.unknown()),
      timeoutMs: 60_000,
      async run(_g, params, signal) {
        calls.push(`collect ${String((params as Record<string, unknown>)['item'])}`);
        onStart();
        if (hold) {
          await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
          return { ok: false, code: 'aborted', detail: 'collect was stopped' };
        }
        game.snap = { ...game.snap, inventory: { ...game.snap.inventory, oak_log: 16 } };
        return { ok: true, code: 'done', detail: 'collected' };
      },
    };
  }
  const withCollect = (skill: Skill): Skill[] => [...skills.filter((s) => s.id !== 'collect'), skill];
  beforeEach(() => {
    calls.length = 0;
  });

  it('GIVEN night on the embedded world and its own goal "collect 16 logs" THEN the logs wait for the day: it takes a goal under a roof without going out; an owner\'s goal goes on', async () => {
    const game = demoGame({ state: 'connected', snap: makeSnapshot({ inventory: { stone_pickaxe: 1 }, timeOfDay: 14_000 }) });
    game.bot = {} as Bot;
    const engine = scripted(game, withCollect(collectSkill(game)));
    const own = await engine.turn(request('continue', { goal: goal('collect 16 logs', {}, 'self') }), live());
    expect(calls).toEqual([]);
    expect(goalOf(own)).toBe('collect 3 raw iron');
    expect(statusOf(own)).toBe('working');
    expect(own.report.text).toMatch(/With night near or here, "collect 16 logs" waits for the day: I'll collect 3 raw iron under a roof meanwhile/);
    const owners = await engine.turn(request('continue', { goal: goal('collect 16 logs', {}, 'owner') }), live());
    expect(calls).toEqual(['collect log']);
    expect(goalOf(owners)).toBeUndefined();
  });

  it('GIVEN its own goal under ground at night and no ore within reach THEN it does not go out to explore for more (by day it does)', async () => {
    const none: Skill = {
      id: 'collect',
      description: 'test collect',
      params: z.record(z.string(), z.unknown()),
      timeoutMs: 5000,
      async run() {
        calls.push('collect');
        return { ok: false, code: 'no_target', detail: 'no raw_iron under ground within 64 blocks (got 0 of 3)' };
      },
    };
    const explore: Skill = { id: 'explore', description: 'test explore', params: z.record(z.string(), z.unknown()), timeoutMs: 5000, async run() {
      calls.push('explore');
      return { ok: true, code: 'done', detail: 'explored' };
    } };
    const list = [...skills.filter((s) => s.id !== 'collect' && s.id !== 'explore'), none, explore];
    for (const [timeOfDay, expected] of [[14_000, ['collect']], [1000, ['collect', 'explore']]] as const) {
      calls.length = 0;
      const game = demoGame({ state: 'connected', snap: makeSnapshot({ inventory: { stone_pickaxe: 1 }, timeOfDay }) });
      game.bot = {} as Bot;
      await scripted(game, list).turn(request('continue', { goal: goal('collect 3 raw iron', {}, 'self') }), live());
      expect(calls).toEqual(expected);
    }
  });

  it('GIVEN its own goal gathering logs by day WHEN dusk comes while the run goes on THEN the run is cut and it takes a goal under a roof', async () => {
    const game = demoGame({ state: 'connected', snap: makeSnapshot({ inventory: { stone_pickaxe: 1 }, timeOfDay: 11_000 }) });
    game.bot = {} as Bot;
    const dusk = () => {
      game.snap = { ...game.snap, timeOfDay: UNDER_ROOF_FROM_TICK + 100 };
    };
    const engine = scripted(game, withCollect(collectSkill(game, dusk, true)));
    const reply = await engine.turn(request('continue', { goal: goal('collect 16 logs', {}, 'self') }), live());
    expect(calls).toEqual(['collect log']);
    expect(goalOf(reply)).toBe('collect 3 raw iron');
    // By day the same run is not cut.
    calls.length = 0;
    const day = demoGame({ state: 'connected', snap: makeSnapshot({ inventory: { stone_pickaxe: 1 }, timeOfDay: 1000 }) });
    day.bot = {} as Bot;
    const dayEngine = scripted(day, withCollect(collectSkill(day)));
    expect(statusOf(await dayEngine.turn(request('continue', { goal: goal('collect 16 logs', {}, 'self') }), live()))).toBe('done');
  });
});

describe('scripted engine, choosing after a block', () => {
  it('GIVEN a direction goal that was just blocked THEN choose does not pick it again straight away', async () => {
    const game = demoGame({ state: 'connected', snap: makeSnapshot(), capabilities: VANILLA });
    const engine = scripted(game);
    const directions = [{ n: 1, text: 'follow me around', at: '' }, { n: 2, text: 'go to 5 64 5', at: '' }];
    const first = await engine.turn(request('choose', { directions }), live());
    expect(goalOf(first)).toBe('go to 5 64 5');
    const blockedTurn = request('blocked', { goal: goal('go to 5 64 5', null, 'self'), directions });
    await engine.turn(blockedTurn, live()); // first: another route (explore, retry)
    const blockedReply = await engine.turn(blockedTurn, live()); // then: another goal
    expect(goalOf(blockedReply)).toBeDefined();
    expect(goalOf(blockedReply)).not.toBe('go to 5 64 5');
    const again = await engine.turn(request('choose', { directions }), live());
    expect(goalOf(again)).not.toBe('go to 5 64 5');
  });
});

describe('scripted engine, its notes in TASK.md', () => {
  let game: FakeGame;
  let task: TaskFile;
  const list = new Map<string, Skill>();

  /** Put a test skill under an id (the production skills are the rest). */
  function useSkill(id: string, run: (params: Record<string, unknown>) => SkillResult): void {
    list.set(id, { id, description: `test ${id}`, params: z.record(z.string(), z.unknown()), timeoutMs: 5000, run: async (_g, params) => run(params as Record<string, unknown>) });
  }
  /** Goal, Now, Plan and Ambitions of the TASK.md as it is on disk. */
  function notes(): Record<'goal' | 'now' | 'plan' | 'ambitions', string> {
    const md = readFileSync(task.path, 'utf8');
    return { goal: sectionText(md, 'Goal'), now: sectionText(md, 'Now'), plan: sectionText(md, 'Plan'), ambitions: sectionText(md, 'Ambitions') };
  }

  beforeEach(() => {
    game = demoGame({ state: 'connected', snap: makeSnapshot({ position: { x: 12.5, y: 64, z: -3.2 } }), capabilities: VANILLA });
    game.bot = {} as Bot;
    task = freshTask();
    list.clear();
    for (const skill of skills) list.set(skill.id, skill);
  });

  it('GIVEN a craft goal and a step done THEN Goal, Now and Plan say the goal, the next step, where it is and the steps left; Ambitions stay', async () => {
    useSkill('collect', () => {
      game.snap = { ...game.snap, inventory: { oak_log: 3 } };
      return { ok: true, code: 'done', detail: 'collected 3 oak_log' };
    });
    const engine = scripted(game, [...list.values()], task);
    await engine.turn(request('continue', { goal: goal('craft a wooden pickaxe', {}) }), live());
    expect(notes()).toEqual({
      goal: 'craft a wooden pickaxe',
      now: 'Working on step 1 of 4: craft planks.\nAt 12 64 -4 in the overworld when I wrote this.',
      plan: '- craft planks\n- craft sticks\n- craft a crafting table\n- craft a wooden pickaxe',
      ambitions: sectionText(initialTask('demo'), 'Ambitions'),
    });
    expect(readFileSync(task.path, 'utf8')).not.toMatch(/None yet: choose one|Just spawned/);
  });

  it('GIVEN a turn that only moved the avatar THEN TASK.md is not written again; being blocked is written with the reason', async () => {
    let code = 'preempted';
    useSkill('go_to', () => {
      game.snap = { ...game.snap, position: { ...game.snap.position, x: game.snap.position.x + 1 } };
      return { ok: false, code, detail: code === 'preempted' ? 'go_to was interrupted (a reflex)' : 'no path there' };
    });
    const engine = scripted(game, [...list.values()], task);
    const g = goal('go to 10 64 10');
    await engine.turn(request('continue', { goal: g }), live());
    const first = readFileSync(task.path, 'utf8');
    const written = statSync(task.path).ino;
    expect(notes()).toMatchObject({ goal: 'go to 10 64 10', now: 'Working on step 1 of 1: walk to 10 64 10.\nAt 13 64 -4 in the overworld when I wrote this.', plan: '- walk to 10 64 10' });
    await engine.turn(request('continue', { goal: g }), live());
    expect(game.snap.position.x).toBe(14.5);
    expect(readFileSync(task.path, 'utf8')).toBe(first);
    expect(statSync(task.path).ino).toBe(written);
    code = 'unreachable';
    await engine.turn(request('continue', { goal: g }), live());
    const blocked = await engine.turn(request('continue', { goal: g }), live());
    expect(statusOf(blocked)).toBe('blocked');
    expect(notes().now).toBe('Blocked: no path there (unreachable, 2 times in a row). Next I take another route, or another goal.\nAt 16 64 -4 in the overworld when I wrote this.');
  });

  it('GIVEN a goal done, then a new one chosen THEN the notes say done, then the new goal and its plan', async () => {
    useSkill('collect', () => {
      game.snap = { ...game.snap, inventory: { oak_log: 3 } };
      return { ok: true, code: 'done', detail: 'collected 3 oak_log' };
    });
    const engine = scripted(game, [...list.values()], task);
    const done = await engine.turn(request('continue', { goal: goal('collect 3 oak logs', {}) }), live());
    expect(statusOf(done)).toBe('done');
    expect(notes()).toMatchObject({ goal: 'collect 3 oak logs', now: 'Done; choosing my next goal.\nAt 12 64 -4 in the overworld when I wrote this.' });
    await engine.turn(request('wrapup', { goal: null }), live());
    expect(notes().now).toMatch(/^Done; choosing/);
    const chosen = await engine.turn(request('choose', { recentGoals: ['collect 3 oak logs'] }), live());
    expect(notes()).toMatchObject({ goal: goalOf(chosen), now: expect.stringMatching(/^Working on step 1 of \d+: /) });
    // "collect N more" counts from what is held when it is set: the logs held leave the plan whole.
    await engine.turn(request('direction', { message: 'collect 2 oak logs' }), live());
    expect(notes()).toMatchObject({ goal: 'collect 2 oak logs', plan: '- gather oak logs' });
  });
});
