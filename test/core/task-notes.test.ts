/**
 * A scripted-engine avatar (the default engine) keeps its own part of TASK.md current through the real core and
 * goal loop: the goal, where it is and what it does next, and its plan, instead of the starting "None yet" and
 * "Just spawned". Console core over a fake game that can craft.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import type { TurnRequest } from '../../src/engines/engine.ts';
import { createScriptedEngine } from '../../src/engines/scripted.ts';
import { sectionText } from '../../src/task/task-md.ts';
import { VANILLA } from '../engines/avatar-game-stub.ts';
import { FakeGame } from '../fakes/fake-game.ts';
import { startConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const running: Mindlink[] = [];

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe("the scripted engine's notes in TASK.md", () => {
  it('GIVEN an owner goal to craft a pickaxe THEN TASK.md names the goal, the next step and where the avatar is, and the plan', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mindlink-notes-'));
    dirs.push(dir);
    const turned = new EventEmitter<{ turned: [TurnRequest] }>();
    const r = await startConsoleCore(dir, {
      gameFactory: (name) => new FakeGame(name, { capabilities: VANILLA }),
      engines: (_kind, ctx) => {
        const engine = createScriptedEngine(ctx);
        return {
          ...engine,
          turn: async (req, signal) => {
            const reply = await engine.turn(req, signal);
            turned.emit('turned', req);
            return reply;
          },
        };
      },
    });
    running.push(r.core);
    await r.line(/^\[demo\] New goal \(my choice\): /);
    const onGoal = new Promise<void>((resolve) => {
      const on = (req: TurnRequest): void => {
        if (req.kind === 'question' || req.goal?.text !== 'craft a wooden pickaxe') return;
        turned.off('turned', on);
        resolve();
      };
      turned.on('turned', on);
    });
    r.send('Goal: craft a wooden pickaxe');
    await r.line(/^\[demo\] New goal from console: craft a wooden pickaxe\.$/);
    await onGoal;
    const md = await readFile(join(dir, 'avatars', 'demo', 'TASK.md'), 'utf8');
    expect(sectionText(md, 'Goal')).toBe('craft a wooden pickaxe');
    expect(sectionText(md, 'Now')).toBe('Working on step 1 of 5: gather logs.\nAt 0 64 0 in the overworld when I wrote this.');
    expect(sectionText(md, 'Plan')).toBe('- gather logs\n- craft planks\n- craft sticks\n- craft a crafting table\n- craft a wooden pickaxe');
    expect(md).not.toMatch(/None yet: choose one|Just spawned/);
    // mindlink's own sections are still there, after the avatar's part.
    expect(md).toMatch(/\n## Owner direction\n[\s\S]*## Done direction\n[\s\S]*## Finished goals\n/);
  });
});
