/**
 * The scripted engine and the places its avatar remembers (their owner on real files): "go to base" walks to
 * base's coordinates and is done once the check with the places is met, "stay near the village" as a direction
 * becomes a goal that leaves the direction open, an unknown place is blocked naming the known ones, and a
 * crafting table or furnace a skill run sets down is remembered.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bot } from 'mineflayer';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Places } from '../../src/avatars/places.ts';
import type { Engine, GoalView, TurnKind, TurnRequest } from '../../src/engines/engine.ts';
import { withPlaces } from '../../src/engines/place-skills.ts';
import { createScriptedEngine } from '../../src/engines/scripted.ts';
import type { SkillResult } from '../../src/game/skill.ts';
import { checkGoal } from '../../src/goals/check.ts';
import { TaskFile } from '../../src/task/task-file.ts';
import { createSkillRegistry, skills, type Skill } from '../../skills/index.ts';
import { placesOnFiles } from '../avatars/places-helpers.ts';
import type { FakeGame } from '../fakes/fake-game.ts';
import { demoGame, makeSnapshot, VANILLA } from './avatar-game-stub.ts';

const log = pino({ level: 'silent' });
const live = (): AbortSignal => new AbortController().signal;
const at = (x: number, y: number, z: number) => ({ x, y, z, dimension: 'overworld' });

describe('the scripted engine and its places', () => {
  let dir = '';
  let places: Places;
  let close: () => Promise<void>;
  let game: FakeGame;
  const calls: { id: string; params: Record<string, unknown> }[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-scripted-places-'));
    ({ places, close } = await placesOnFiles(join(dir, 'data'), ['demo']));
    places.set('demo', 'base', at(10, 64, -3), 'p1');
    places.set('demo', 'village', at(200, 70, 40), 'p1');
    game = demoGame({ state: 'connected', snap: makeSnapshot({ position: { x: 40, y: 64, z: 40 } }), capabilities: VANILLA });
    game.bot = {} as Bot;
    calls.length = 0;
  });

  afterEach(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A skill in place of the production one of that id: records its call and answers `run`'s result. */
  function standIn(id: string, run: (p: Record<string, unknown>) => SkillResult): Skill {
    return {
      id,
      description: `test ${id}`,
      params: z.record(z.string(), z.unknown()),
      timeoutMs: 5000,
      async run(_g, raw) {
        const params = raw as Record<string, unknown>;
        calls.push({ id, params });
        return run(params);
      },
    };
  }

  /** demo's scripted engine as its context builds it (skills with its places); each request checks its goal with the places. */
  function engine(standIns: Skill[]): Engine {
    const list = skills.map((s) => standIns.find((x) => x.id === s.id) ?? s);
    const book = places.bookOf('demo');
    const e = createScriptedEngine({ avatar: 'demo', game, log, skills: withPlaces(createSkillRegistry(game, list), book, game), task: new TaskFile(join(dir, 'demo'), 'demo'), places: book });
    const completion = (goal: GoalView | null) => () => {
      const snap = game.snapshot();
      return goal && snap ? checkGoal(goal.text, goal.baseline, snap, places.known('demo')) : { checkable: false as const };
    };
    return { ...e, turn: (req, signal) => e.turn({ ...req, completion: completion(req.goal) }, signal) };
  }

  function request(kind: TurnKind, over: Partial<TurnRequest> = {}): TurnRequest {
    return { kind, avatar: 'demo', goal: null, directionSummary: '', directions: [], task: '', nudges: [], prompt: kind, completion: () => ({ checkable: false }), ...over };
  }
  const goal = (text: string): GoalView => ({ text, setBy: 'owner', baseline: null });

  /** go_to moves the fake avatar to where it was sent. */
  const walker = standIn('go_to', (p) => {
    game.snap = makeSnapshot({ position: { x: Number(p['x']) + 0.5, y: Number(p['y']), z: Number(p['z']) + 0.5 } });
    return { ok: true, code: 'done', detail: 'arrived' };
  });

  it('GIVEN "go to base" THEN it walks to base’s coordinates and is done once within 2 blocks', async () => {
    const reply = await engine([walker]).turn(request('continue', { goal: goal('go to base') }), live());
    expect(calls).toEqual([{ id: 'go_to', params: { x: 10, y: 64, z: -3, range: 1 } }]);
    expect(reply.report.status).toBe('done');
    expect(reply.report.text).toBe('Done: you are at base (10 64 -3) (0.7 blocks away).');
  });

  it('GIVEN the direction "stay near the village" THEN it takes it as its goal, goes there, and leaves the direction open when done', async () => {
    const e = engine([walker]);
    const directions = [{ n: 4, text: 'stay near the village', at: '' }];
    const understood = await e.turn(request('direction', { message: 'stay near the village', directions }), live());
    expect(understood.report.goal).toBe('stay near the village');
    const reply = await e.turn(request('continue', { goal: goal('stay near the village'), directions }), live());
    expect(calls).toEqual([{ id: 'go_to', params: { x: 200, y: 70, z: 40, range: 1 } }]);
    expect(reply.report.status).toBe('done');
    expect(reply.report.directionsDone).toEqual([]);
  });

  it('GIVEN "go to bse" THEN it is blocked naming the places it knows, and nothing runs', async () => {
    const reply = await engine([walker]).turn(request('continue', { goal: goal('go to bse') }), live());
    expect(reply.report.status).toBe('blocked');
    expect(reply.report.text).toBe("I'm blocked: I know no place called 'bse'; my places: base, village.");
    expect(calls).toEqual([]);
  });

  it('GIVEN a craft run that sets down a crafting table THEN the table is remembered as crafting-table, and the next one moves it', async () => {
    let spot = { x: 41, y: 64, z: 40 };
    const crafter = standIn('craft', (p) => {
      game.give(String(p['item']), Number(p['count'] ?? 1));
      return { ok: true, code: 'done', detail: 'crafted', placed: { block: 'crafting_table', ...spot } };
    });
    game.snap = makeSnapshot({ position: { x: 40, y: 64, z: 40 }, inventory: { oak_planks: 3, stick: 2, crafting_table: 1 } });
    const e = engine([crafter]);
    await e.turn(request('continue', { goal: { text: 'craft a wooden pickaxe', setBy: 'owner', baseline: {} } }), live());
    expect(calls.map((c) => c.id)).toEqual(['craft']);
    expect(places.known('demo').get('crafting-table')).toEqual({ name: 'crafting-table', x: 41, y: 64, z: 40, dimension: 'overworld' });
    expect(places.of('demo').find((p) => p.name === 'crafting-table')?.by).toBeNull();

    spot = { x: -7, y: 70, z: 2 };
    await e.turn(request('continue', { goal: { text: 'craft a wooden sword', setBy: 'owner', baseline: {} } }), live());
    expect(places.known('demo').get('crafting-table')).toMatchObject({ x: -7, y: 70, z: 2 });
    expect(places.known('demo').names()).toEqual(['base', 'village', 'crafting-table']);
  });
});
