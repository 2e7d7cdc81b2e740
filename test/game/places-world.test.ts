/**
 * Places on the real embedded world with real mineflayer avatars and the whole core: `/place set base`, a walk
 * away, a restart of the core, and "Goal: go to base" ends in Done within 2 blocks of it (scripted engine); the
 * scripted engine remembers the crafting table it sets down; the llm engine's `go_to` takes a place and its
 * `remember_place` keeps one (the real `openai` client against our fake endpoint).
 */
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type Config } from '../../src/config.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { FakeOpenAI, lastMessage, lastUserText, type FakeScript } from '../fakes/openai-api.ts';
import { startCoreOnWorld, witness } from './core-on-world.ts';
import { startWorld, tempDataDir } from './helpers.ts';

interface Running {
  core: Mindlink;
  stdin: PassThrough;
}

describe('places on the embedded world', () => {
  const { log, lines, until } = witness();
  const worldDir = tempDataDir('places-world');
  let world: EmbeddedWorld;
  const cores: Mindlink[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    world = await startWorld(worldDir.dir, log);
    await world.setMobSpawning({ animals: false, monsters: false });
  }, 60_000);

  afterEach(async () => {
    for (const c of cores.splice(0)) await c.stop();
    for (const c of cleanups.splice(0).reverse()) await c();
  }, 60_000);

  afterAll(async () => {
    await world?.stop();
    worldDir.remove();
  }, 60_000);

  async function start(config: Config): Promise<Running> {
    const running = await startCoreOnWorld({ world: () => world, config, log, lines });
    cores.push(running.core);
    await until(() => running.core.avatars.displayState('demo') !== 'waiting' && running.core.avatars.snapshot('demo') !== undefined, 30_000, 'demo to join');
    return running;
  }

  async function stop(core: Mindlink): Promise<void> {
    cores.splice(cores.indexOf(core), 1);
    await core.stop();
  }

  /** The first chat line matching `re` after line number `from`. */
  async function lineAfter(from: number, re: RegExp, ms = 120_000): Promise<string> {
    await until(() => lines.slice(from).some((l) => re.test(l)), ms, `a line like ${re}`);
    return lines.slice(from).find((l) => re.test(l)) as string;
  }

  /** Type `text` on the console; the first line matching `re` it brings. */
  async function say(r: Running, text: string, re: RegExp, ms?: number): Promise<string> {
    const from = lines.length;
    r.stdin.write(`${text}\n`);
    return lineAfter(from, re, ms);
  }

  /** Where demo stands the moment `re` is posted (the loop's next turn is a pace away: it has not moved on yet). */
  async function standingAt(r: Running, from: number, re: RegExp): Promise<{ x: number; y: number; z: number }> {
    let at: { x: number; y: number; z: number } | undefined;
    await until(() => {
      if (!lines.slice(from).some((l) => re.test(l))) return false;
      at = r.core.avatars.snapshot('demo')?.position;
      return at !== undefined;
    }, 180_000, `a line like ${re}`);
    return at as { x: number; y: number; z: number };
  }

  const coords = (line: string): { x: number; y: number; z: number } => {
    const m = /at (-?\d+) (-?\d+) (-?\d+)/.exec(line);
    if (!m) throw new Error(`no coordinates in: ${line}`);
    return { x: Number(m[1]), y: Number(m[2]), z: Number(m[3]) };
  };
  const distance = (a: { x: number; y: number; z: number }, b: { x: number; y: number; z: number }): number => Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);

  it('GIVEN /place set base, a walk away and a restart of the core THEN "Goal: go to base" ends in Done within 2 blocks of it; and the scripted engine remembers the crafting table it sets down', async () => {
    const data = tempDataDir('places-scripted');
    cleanups.push(() => data.remove());
    const config = parseConfig({ DATA_DIR: data.dir, LOOP_PACE_MS: '1000', LOOP_MAX_PACE_MS: '4000' });
    const first = await start(config);
    await say(first, 'Goal: go to 3 64 3', /^\[demo\] Done: go to 3 64 3$/, 180_000);
    const base = coords(await say(first, '/place set base', /^\[demo\] (Remembered base at|demo is not)/));
    expect(distance(base, { x: 3, y: 64, z: 3 })).toBeLessThanOrEqual(3);

    await say(first, 'Goal: go to 12 64 12', /^\[demo\] Done: go to 12 64 12$/, 180_000);
    const listed = await say(first, '/places', /^\[demo\] - base: /);
    expect(Number(/, (\d+) blocks away$/.exec(listed)?.[1])).toBeGreaterThanOrEqual(8);
    await say(first, 'Goal: go to bse', /^\[demo\] I can't take that goal: I know no place called 'bse'; my places: base\. /);
    await stop(first.core);

    const second = await start(config);
    const from = lines.length;
    second.stdin.write('Goal: go to base\n');
    const at = await standingAt(second, from, /^\[demo\] Done: go to base$/);
    expect(distance(at, base)).toBeLessThanOrEqual(2);

    // A table, planks and sticks carried: the pickaxe needs the table set down, which the engine remembers.
    for (const [item, n] of [['crafting_table', 1], ['oak_planks', 3], ['stick', 2]] as const) await world.give('demo', item, n);
    await until(() => (second.core.avatars.snapshot('demo')?.inventory.crafting_table ?? 0) >= 1, 20_000, 'the table in demo’s inventory');
    await say(second, 'Goal: craft a wooden pickaxe', /^\[demo\] Done: craft a wooden pickaxe$/, 180_000);
    const table = second.core.places.known('demo').get('crafting-table');
    expect(table, lines.join('\n')).toBeDefined();
    if (table) expect(await world.blockAt(table)).toBe('crafting_table');
    await say(second, '/places', /^\[demo\] - crafting-table: -?\d+ -?\d+ -?\d+, \d+ blocks? away \(remembered by itself\)$|right here \(remembered by itself\)$/);
    await say(second, '/place remove base', /^\[demo\] Forgot base \(/);
  }, 600_000);

  it('GIVEN the llm engine and base set THEN the model’s go_to with place base walks there and Done is posted within 2 blocks; remember_place keeps a place of its own', async () => {
    const data = tempDataDir('places-llm');
    cleanups.push(() => data.remove());
    const script: FakeScript = (req) => {
      const text = lastUserText(req);
      const last = lastMessage(req);
      if (last?.role === 'tool') return { content: `${String(last.content).startsWith('ok') ? 'There.\nSTATUS: done' : 'That failed.\nSTATUS: blocked'}` };
      if (/lab log/.test(text)) return { content: 'Places are worth remembering.\nSTATUS: working' };
      if (text.includes('Goal (set by your owner): go to 12 64 12')) return { toolCalls: [{ name: 'go_to', arguments: { x: 12, y: 64, z: 12 } }] };
      if (text.includes('Goal (set by your owner): go to base')) return { toolCalls: [{ name: 'go_to', arguments: { place: 'base' } }] };
      if (text.includes('Goal (set by your owner): remember this spot as camp')) return { toolCalls: [{ name: 'remember_place', arguments: { name: 'camp' } }] };
      return { content: 'Waiting for a goal.\nSTATUS: working' };
    };
    const llm = await FakeOpenAI.start(script);
    cleanups.push(() => llm.close());
    const config = parseConfig({ DATA_DIR: data.dir, ENGINE: 'llm', LLM_BASE_URL: llm.baseURL, LLM_MODEL: 'fake-model', LOOP_PACE_MS: '1000', LOOP_MAX_PACE_MS: '4000' });
    const r = await start(config);
    const base = coords(await say(r, '/place set base', /^\[demo\] Remembered base at /));
    await say(r, 'Goal: go to 12 64 12', /^\[demo\] Done: go to 12 64 12$/, 180_000);
    expect(distance(r.core.avatars.snapshot('demo')?.position ?? base, base)).toBeGreaterThan(4);

    const from = lines.length;
    r.stdin.write('Goal: go to base\n');
    const at = await standingAt(r, from, /^\[demo\] Done: go to base$/);
    expect(distance(at, base)).toBeLessThanOrEqual(2);
    const result = llm.requests.map((q) => lastMessage(q)).find((m) => m?.role === 'tool' && String(m.content).includes('arrived at base'));
    expect(String(result?.content)).toMatch(/^ok done: arrived at base \(-?\d+ -?\d+ -?\d+\)/);

    // remember_place is offered where the turn asks to remember (the other requests stay small).
    const toolsOf = (goal: string): string[] => llm.requests.find((q) => lastUserText(q).includes(`Goal (set by your owner): ${goal}`))?.body.tools?.map((t) => t.function.name) ?? [];
    expect(toolsOf('go to base')).toContain('go_to');
    expect(toolsOf('go to base')).not.toContain('remember_place');
    await say(r, 'Goal: remember this spot as camp', /^\[demo\] Done: remember this spot as camp$/, 120_000);
    expect(toolsOf('remember this spot as camp')).toContain('remember_place');
    await say(r, '/places', /^\[demo\] - camp: -?\d+ -?\d+ -?\d+, (right here|\d+ blocks? away) \(remembered by itself\)$/);
  }, 600_000);
});
