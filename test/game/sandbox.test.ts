/**
 * The script runner and its worker (src/game/sandbox/), with no world: a
 * registry of two small skills over the game double, so each rule of the
 * sandbox is seen on its own (the script's line, aborts reaching the skill it
 * started, the queries, the limits). The attacks on a real avatar host are in
 * skill-sandbox.test.ts.
 */
import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSkillRegistry } from '../../skills/index.ts';
import { SCRIPT_MAX_CALLS } from '../../src/game/sandbox/script-api.ts';
import type { Skill, SkillRegistry, SkillResult } from '../../src/game/skill.ts';
import { FakeGame, snapshotOf } from '../fakes/fake-game.ts';
import { waitFor } from './helpers.ts';

/** A game in the world as far as the runner can tell (the double's snapshot, a bot that no skill here touches). */
function gameWith(inventory: Record<string, number>): FakeGame {
  const game = new FakeGame('eve', { snap: snapshotOf({ inventory, position: { x: 1.5, y: 64, z: -2.5 } }) });
  game.bot = {} as Bot;
  return game;
}

/** Skills of this test: `pick` adds items to the double's inventory, `hold` runs until its signal aborts. */
function registryOf(game: FakeGame): { skills: SkillRegistry; held: { started: number; aborted: number } } {
  const held = { started: 0, aborted: 0 };
  const pick: Skill = {
    id: 'pick_up',
    description: 'Pick up items',
    params: z.object({ item: z.string(), count: z.number().int().min(1).max(64) }),
    timeoutMs: 5_000,
    async run(g, p: { item: string; count: number }) {
      if (p.item === 'bedrock') return { ok: false, code: 'no_target', detail: 'there is no bedrock to pick up' };
      const inv = (g as FakeGame).snap.inventory;
      inv[p.item] = (inv[p.item] ?? 0) + p.count;
      return { ok: true, code: 'done', detail: `picked up ${p.count} ${p.item}` };
    },
  };
  const hold: Skill = {
    id: 'hold',
    description: 'Hold on until stopped',
    params: z.object({}),
    timeoutMs: 60_000,
    run: (_g, _p, signal) =>
      new Promise<SkillResult>((resolve) => {
        held.started += 1;
        signal.addEventListener('abort', () => {
          held.aborted += 1;
          resolve({ ok: false, code: 'aborted', detail: 'hold was stopped' });
        });
      }),
  };
  return { skills: createSkillRegistry(game, [pick, hold]), held };
}

const run = (skills: SkillRegistry, code: string, extra: Record<string, unknown> = {}, signal = new AbortController().signal): Promise<SkillResult> =>
  skills.run('run_script', { code, ...extra }, signal);

describe('the script runner', () => {
  it('GIVEN a script that picks up items and reads its inventory THEN it runs the skills by their camelCase names and returns what it found', async () => {
    const game = gameWith({ dirt: 2 });
    const { skills } = registryOf(game);
    const r = await run(skills, "const r = await pickUp({ item: 'dirt', count: params.n });\nconst inv = await inventory();\nreturn { said: r.detail, dirt: inv.dirt, at: await position() };", {
      params: { n: 3 },
    });
    expect(r).toEqual({ ok: true, code: 'done', detail: expect.stringMatching(/^the script finished in \d+\.\d s after 3 calls; it returned \{"said":"picked up 3 dirt","dirt":5,"at":\{"x":1.5,"y":64,"z":-2.5\}\}$/) as unknown as string });
    // The runner runs through the registry, but no engine is offered it as a tool.
    expect(skills.get('run_script')).toBeUndefined();
    expect(skills.list().map((s) => s.id)).toEqual(['pick_up', 'hold']);
  });

  it('GIVEN a skill that fails on line 3 THEN the script fails with that line and the skill code, and a script that catches it reads the code and goes on', async () => {
    const { skills } = registryOf(gameWith({}));
    const failed = await run(skills, "await pickUp({ item: 'dirt', count: 1 });\n\nawait pickUp({ item: 'bedrock', count: 1 });\nreturn 'never';");
    expect(failed).toEqual({ ok: false, code: 'script_error', line: 3, detail: 'line 3: pickUp failed: there is no bedrock to pick up (no_target)' });
    const caught = await run(skills, "try {\n  await pickUp({ item: 'bedrock', count: 1 });\n} catch (e) {\n  return e.code;\n}");
    expect(caught).toMatchObject({ ok: true, detail: expect.stringMatching(/it returned "no_target"$/) as unknown as string });
    expect(await run(skills, "await pickUp({ item: 'dirt', count: 0 });")).toMatchObject({ ok: false, code: 'script_error', line: 1, detail: expect.stringMatching(/^line 1: pickUp failed: pick_up: count .*\(bad_params\)$/) as unknown as string });
  });

  it('GIVEN a script holding a skill WHEN its signal aborts THEN it ends aborted and the skill it started is aborted too', async () => {
    const { skills, held } = registryOf(gameWith({}));
    const controller = new AbortController();
    const running = run(skills, 'await hold({});\nreturn 1;', {}, controller.signal);
    await waitFor(() => held.started === 1, 10_000, 'the script to start hold');
    controller.abort(new Error('owner stop'));
    expect(await running).toMatchObject({ ok: false, code: 'aborted' });
    await waitFor(() => held.aborted === 1, 10_000, 'hold to be aborted');
  });

  it('GIVEN a script that holds a skill past its time-out THEN it ends timeout and the skill is aborted', async () => {
    const { skills, held } = registryOf(gameWith({}));
    expect(await run(skills, 'await hold({});', { timeoutMs: 1000 })).toEqual({ ok: false, code: 'timeout', detail: 'the script ran longer than 1.0 s and was stopped' });
    expect(held.started).toBe(1);
    await waitFor(() => held.aborted === 1, 10_000, 'hold to be aborted');
  });

  it('GIVEN the queries THEN they answer plain copies of the snapshot, frozen for the script', async () => {
    const game = gameWith({ oak_log: 4 });
    const { skills } = registryOf(game);
    const r = await run(skills, "const inv = await inventory();\ntry { inv.oak_log = 99; } catch (e) { return [e.message, (await inventory()).oak_log, await timeOfDay(), (await status()).health, typeof (await blocksNear()), Array.isArray(await entitiesNear())]; }");
    expect(r.detail).toMatch(/it returned \["Cannot assign to read only property 'oak_log' of object '\[object Object\]'",4,1000,20,"object",true\]$/);
    expect(game.snap.inventory.oak_log).toBe(4);
  });

  it('GIVEN what a script has not THEN console, timers, eval, buffers and the host global are missing, and its error names what it has instead', async () => {
    const { skills } = registryOf(gameWith({}));
    for (const [code, missing] of [
      ["console.log('x')", /^line 1: Cannot read properties of undefined \(reading 'log'\)$/],
      ['setTimeout(() => 1, 10)', /^line 1: setTimeout is not a function \(a skill has only: pickUp, hold, inventory, position, blocksNear, entitiesNear, timeOfDay, status, sleep, and plain JavaScript\)$/],
      ["return (0, eval)('1')", /^line 1: \(0 , eval\) is not a function \(a skill has only: /],
      ['return new ArrayBuffer(8)', /^line 1: ArrayBuffer is not a constructor \(a skill has only: /],
      ['return new TextEncoder()', /^line 1: TextEncoder is not a constructor/],
      ["return new Compartment().evaluate('1')", /^line 1: Compartment is not a constructor/],
      ['return Date.now()', /^line 1: Cannot read properties of undefined \(reading 'now'\)$/],
      ['return typeof process + typeof require + typeof globalThis.process', null],
    ] as const) {
      const r = await run(skills, code);
      if (missing) expect({ code, ok: r.ok, detail: r.detail }).toEqual({ code, ok: false, detail: expect.stringMatching(missing) as unknown as string });
      else expect(r.detail).toMatch(/it returned "undefinedundefinedundefined"$/);
    }
  });

  it('GIVEN a script past its limits THEN sleeping too long, too many calls and params too large each fail with the limit', async () => {
    const { skills } = registryOf(gameWith({}));
    expect((await run(skills, 'await sleep(60000);')).detail).toBe('line 1: sleep(ms) waits at most 30000 ms');
    expect((await run(skills, 'await sleep(20);\nreturn 1;')).ok).toBe(true);
    expect((await run(skills, 'for (;;) await position();')).detail).toBe(`line 1: a script may make at most ${SCRIPT_MAX_CALLS} calls; this one made more`);
    expect((await run(skills, "await pickUp({ item: 'x'.repeat(20000), count: 1 });")).detail).toMatch(/^line 1: the params of pickUp are 200\d\d characters of JSON; at most 16000$/);
  });

  it('GIVEN a script that throws a plain value or fails to parse THEN it ends script_error with what it threw', async () => {
    const { skills } = registryOf(gameWith({}));
    expect(await run(skills, "throw 'no more trees';")).toEqual({ ok: false, code: 'script_error', detail: 'no more trees' });
    expect(await run(skills, 'let x = ;')).toMatchObject({ ok: false, code: 'script_error', detail: "Unexpected token ';'" });
    expect(await run(skills, 'return 1', { timeoutMs: 50 })).toMatchObject({ ok: false, code: 'bad_params' });
  });
});
