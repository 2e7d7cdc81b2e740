import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Mindlink } from '../../src/core.ts';
import { createScriptedEngine } from '../../src/engines/scripted.ts';
import { startConsoleCore } from './console-harness.ts';

const dirs: string[] = [];
const running: Mindlink[] = [];

afterEach(async () => {
  for (const c of running.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('every goal progresses, finishes, or is reported blocked', () => {
  // `get 1 air` never gets this far: the goal language refuses it up front (impossible-goals.test.ts).
  for (const [goal, reason] of [
    ['follow demo', "I can't follow myself \\(demo is me\\)"],
    ['come to demo', "I can't come to myself \\(demo is me\\)"],
  ] as const) {
    it(`GIVEN "Goal: ${goal}" with the scripted engine THEN it is never Done: the owner sees it set aside with the reason`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'mindlink-bounds-'));
      dirs.push(dir);
      const r = await startConsoleCore(dir, { engines: (_kind, ctx) => createScriptedEngine(ctx) });
      running.push(r.core);
      await r.line(/^\[demo\] New goal \(my choice\): /);
      r.send(`Goal: ${goal}`);
      await r.line(new RegExp(`^\\[demo\\] New goal from console: ${goal}\\.$`));
      await r.line(new RegExp(`^\\[demo\\] Parked your goal for later: ${goal} \\(I'm blocked: ${reason}`));
      expect(r.lines.filter((l) => l.startsWith(`[demo] Done: ${goal}`))).toEqual([]);
    });
  }
});
