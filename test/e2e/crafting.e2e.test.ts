import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMindlink, type MindlinkProcess } from './process.ts';

describe('the real process crafts in the embedded world', () => {
  let dir: string;
  let m: MindlinkProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-craft-'));
    // Turns follow each other quickly: this test is about the way to the pickaxe, not the pace between turns.
    m = startMindlink({ DATA_DIR: dir, LOOP_PACE_MS: '300' });
    // Typed before start-up finishes, so the new avatar has nothing when it takes the goal.
    m.send('Goal: craft a wooden pickaxe');
  });

  afterAll(async () => {
    if (m.child.exitCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN "Goal: craft a wooden pickaxe" to a new avatar THEN it gathers and crafts its way to Done, and /status lists the pickaxe', async () => {
    await m.line(/^\[mindlink\] ready — playing: demo$/, 90_000);
    await m.line(/^\[demo\] New goal from console: craft a wooden pickaxe\.$/, 60_000);
    await m.line(/^\[demo\] Done: craft a wooden pickaxe$/, 240_000);
    m.send('/status');
    const inv = await m.line(/^\[demo\] inventory: /);
    expect(inv).toMatch(/wooden_pickaxe×1/);
    m.child.kill('SIGINT');
    expect(await m.exited).toBe(0);
  }, 400_000);
});
