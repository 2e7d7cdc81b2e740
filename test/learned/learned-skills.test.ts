/**
 * Writing and running an avatar's learned skills (src/learned/learned-skills.ts) over the game double:
 * what is refused before any run, how a trial is judged, and how later runs are counted. The same on a
 * real avatar host: test/game/skill-sandbox.test.ts.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bot } from 'mineflayer';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSkillRegistry, skills as builtIn } from '../../skills/index.ts';
import type { Skill } from '../../src/game/skill.ts';
import { learnedSkills, type LearnedSkills, type WriteSkillRequest } from '../../src/learned/learned-skills.ts';
import { SkillLibrary } from '../../src/learned/library.ts';
import { silentLogger } from '../../src/logger.ts';
import { FakeGame, snapshotOf } from '../fakes/fake-game.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

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

async function setUp(): Promise<{ learned: LearnedSkills; library: SkillLibrary; game: FakeGame }> {
  const dir = await mkdtemp(join(tmpdir(), 'mindlink-learned-'));
  dirs.push(dir);
  const game = new FakeGame('eve', { snap: snapshotOf({ inventory: { dirt: 1 } }) });
  game.bot = {} as Bot;
  const library = new SkillLibrary(dir, silentLogger());
  const learned = learnedSkills(library, { avatar: 'eve', game, skills: createSkillRegistry(game, [...builtIn, pickUp]) });
  return { learned, library, game };
}

const signal = new AbortController().signal;

const REQUEST: WriteSkillRequest = {
  name: 'dig_dirt',
  description: 'Dig some dirt',
  code: "await pickUp({ item: 'dirt', count: params.count });\nreturn (await inventory()).dirt;",
  params: { type: 'object', properties: { count: { type: 'integer', description: 'how many' } }, required: ['count'] },
  trialParams: { count: 2 },
  goal: 'collect 4 dirt',
  postcondition: 'collect {count} dirt',
};

describe('writing a skill', () => {
  it.each<[string, Partial<WriteSkillRequest>, string, RegExp, number?]>([
    ['a name not in snake_case', { name: 'Dig Dirt' }, 'bad_name', /^"Dig Dirt" is not a skill name: snake_case/],
    ['the name of a built-in skill', { name: 'collect' }, 'bad_name', /^collect is a built-in skill or tool/],
    ['the name of the script runner', { name: 'run_script' }, 'bad_name', /^run_script is a built-in skill or tool/],
    ["the name of one of the engine's tools", { name: 'lab_log', reserved: ['look', 'lab_log'] }, 'bad_name', /^lab_log is a built-in skill or tool/],
    ['no description', { description: '  ' }, 'bad_description', /^describe the skill in one line/],
    ['params that are not a JSON schema of plain values', { params: { type: 'object', properties: { where: { type: 'array' } } } }, 'bad_params', /^its params schema: properties\.where\.type must be one of/],
    ['a required param it does not have', { params: { type: 'object', properties: {}, required: ['count'] } }, 'bad_params', /^its params schema: params every required param is one of its properties$/],
    ['trial params of the wrong type', { trialParams: { count: 'two' } }, 'bad_params', /^the trial's params: count must be a number$/],
    ['code that requires a module on line 2', { code: "const a = 1;\nconst fs = require('fs');" }, 'bad_code', /^require: a skill cannot load modules/, 2],
    ['a postcondition that cannot be checked', { postcondition: 'be happy' }, 'bad_postcondition', /^"be happy" is not a check that can be made/],
  ])('GIVEN %s THEN it is refused before it runs', async (_what, change, code, message, line) => {
    const { learned, game } = await setUp();
    const r = await learned.writeSkill({ ...REQUEST, ...change }, signal);
    expect(r).toMatchObject({ ok: false, code });
    if (!r.ok) {
      expect(r.message).toMatch(message);
      expect(r.line).toBe(line);
    }
    expect(game.snap.inventory.dirt, 'nothing ran').toBe(1);
    expect(await learned.list()).toEqual([]);
  });

  it('GIVEN a script that meets its postcondition THEN it is kept with its trial counted; one that does not, or fails on a line, is not', async () => {
    const { learned, library } = await setUp();
    const kept = await learned.writeSkill(REQUEST, signal);
    expect(kept).toMatchObject({ ok: true, skill: { name: 'dig_dirt', runs: 1, successes: 1, postcondition: 'collect {count} dirt' }, detail: expect.stringMatching(/it returned 3$/) as unknown as string });
    expect((await readdir(library.dir('eve'))).sort()).toEqual(['dig_dirt.js', 'dig_dirt.json']);

    const short = await learned.writeSkill({ ...REQUEST, name: 'dig_one', code: "await pickUp({ item: 'dirt', count: 1 });" }, signal);
    expect(short).toEqual({ ok: false, code: 'check_failed', message: 'the script finished, but its postcondition "collect 2 dirt" is not met: you hold 1 of the 2 more dirt needed (4 now, 3 when the goal was set)' });
    const broken = await learned.writeSkill({ ...REQUEST, name: 'dig_broken', code: "await pickUp({ item: 'dirt', count: 2 });\nnull.count;" }, signal);
    expect(broken).toEqual({ ok: false, code: 'script_error', message: "line 2: Cannot read properties of null (reading 'count')", line: 2 });
    expect((await learned.list()).map((s) => s.name)).toEqual(['dig_dirt']);
  });

  it('GIVEN no postcondition THEN the loop completion check judges the trial when given, and a finished script is enough when not', async () => {
    const { learned } = await setUp();
    const open = { ...REQUEST, postcondition: null };
    const unmet = await learned.writeSkill({ ...open, name: 'dig_for_goal', completion: () => ({ checkable: true, met: false, says: 'you hold 5 of the 9 dirt needed' }) }, signal);
    expect(unmet).toEqual({ ok: false, code: 'check_failed', message: 'the script finished, but the goal is not met: you hold 5 of the 9 dirt needed' });
    expect(await learned.writeSkill({ ...open, name: 'dig_met', completion: () => ({ checkable: true, met: true, says: 'done' }) }, signal)).toMatchObject({ ok: true });
    expect(await learned.writeSkill({ ...open, name: 'dig_any' }, signal)).toMatchObject({ ok: true });
  });

  it('GIVEN a postcondition about blocks in the world ("build a pillar of {height} dirt") THEN the trial is judged by the columns the game sees: a script that only returns is not kept', async () => {
    const { learned, game } = await setUp();
    game.snap = { ...game.snap, columns: [] };
    const pillar = { ...REQUEST, name: 'dirt_pillar', description: 'Build a pillar of dirt', params: { type: 'object', properties: { height: { type: 'integer' } }, required: ['height'] }, trialParams: { height: 3 }, goal: 'build a pillar of 3 dirt', postcondition: 'build a pillar of {height} dirt' };
    expect(await learned.writeSkill({ ...pillar, code: "return 'built it';" }, signal)).toEqual({
      ok: false,
      code: 'check_failed',
      message: 'the script finished, but its postcondition "build a pillar of 3 dirt" is not met: no free-standing column of dirt stands within 6 blocks of you (3 high needed, nothing solid beside it)',
    });
    game.snap = { ...game.snap, columns: [{ block: 'dirt', height: 3, x: 2, y: 64, z: 0 }] };
    expect(await learned.writeSkill({ ...pillar, code: "return 'built it';" }, signal)).toMatchObject({ ok: true, skill: { name: 'dirt_pillar' } });
  });

  it('GIVEN the avatar out of the game THEN nothing runs and nothing is kept', async () => {
    const { learned, game } = await setUp();
    game.state = 'down';
    expect(await learned.writeSkill(REQUEST, signal)).toEqual({ ok: false, code: 'not_connected', message: 'not in the game right now' });
    expect(await learned.list()).toEqual([]);
  });
});

describe('running a kept skill', () => {
  it('GIVEN a kept skill THEN its params are checked, each run is counted with its last error, and a stopped run is not counted', async () => {
    const { learned, game } = await setUp();
    expect(await learned.writeSkill(REQUEST, signal)).toMatchObject({ ok: true });
    expect(await learned.runKept('dig_dirt', { count: 3 }, signal)).toMatchObject({ ok: true, code: 'done' });
    expect(await learned.runKept('dig_dirt', { count: 'lots' }, signal)).toEqual({ ok: false, code: 'bad_params', detail: 'dig_dirt: count must be a number' });
    expect(await learned.runKept('dig_dirt', { count: 1, extra: true }, signal)).toMatchObject({ ok: false, code: 'bad_params' });
    expect(await learned.runKept('no_such_skill', {}, signal)).toEqual({ ok: false, code: 'unknown_skill', detail: 'eve keeps no skill called no_such_skill' });
    expect(await learned.runKept('dig_dirt', { count: 100 }, signal)).toMatchObject({ ok: false, code: 'script_error', line: 1 });
    const stopped = new AbortController();
    stopped.abort(new Error('owner stop'));
    expect(await learned.runKept('dig_dirt', { count: 1 }, stopped.signal)).toMatchObject({ ok: false, code: 'aborted' });
    game.state = 'down';
    expect(await learned.runKept('dig_dirt', { count: 1 }, signal)).toMatchObject({ ok: false, code: 'not_connected' });
    expect(await learned.list()).toMatchObject([{ name: 'dig_dirt', runs: 3, successes: 2, lastError: { line: 1, message: expect.stringMatching(/^line 1: pickUp failed: pick_up: count .*64 \(bad_params\)$/) as unknown as string } }]);
  });
});
