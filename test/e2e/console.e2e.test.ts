import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMindlink, type MindlinkProcess } from './process.ts';

describe('the real process with the console bridge, the embedded world and the scripted engine', () => {
  let dir: string;
  let m: MindlinkProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-'));
    m = startMindlink({ DATA_DIR: dir });
    // Typed before start-up finishes: queued, not lost.
    m.send('/direction');
  });

  afterAll(async () => {
    if (m.child.exitCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN npm start defaults THEN it prints one ready line and demo chooses its own goal', async () => {
    await m.line(/^\[mindlink\] ready — playing: demo$/, 90_000);
    await m.line(/^\[demo\] No open direction\./);
    await m.line(/^\[demo\] New goal \(my choice\): .+/, 60_000);
  }, 180_000);

  it('GIVEN "Goal: collect 3 oak logs" THEN it is acknowledged, done, and the logs are in the inventory', async () => {
    m.send('Goal: collect 3 oak logs');
    await m.line(/^\[demo\] New goal from console: collect 3 oak logs\.$/);
    await m.line(/^\[demo\] Done: collect 3 oak logs$/, 120_000);
    m.send('/status');
    const inv = await m.line(/^\[demo\] inventory: /);
    const logs = /oak_log×(\d+)/.exec(inv);
    expect(Number(logs?.[1] ?? 0)).toBeGreaterThanOrEqual(3);
  }, 180_000);

  it('GIVEN a question, a direction and /status THEN each gets its line', async () => {
    m.send('where are you?');
    await m.line(/^\[demo\] .*-?\d+ -?\d+ -?\d+/);
    m.send('stay near the spawn');
    await m.line(/^\[demo\] Noted as direction #1\.$/);
    m.send('/direction');
    await m.line(/^\[demo\] #1 \(\d{4}-\d{2}-\d{2}\) stay near the spawn$/);
    m.send('/status');
    await m.line(/^\[demo\] (choosing|working|wrapup) · /);
    await m.line(/^\[demo\] position -?\d+ -?\d+ -?\d+ \(overworld\) · health \d+\/20 · food \d+\/20$/);
  }, 120_000);

  it('GIVEN SIGINT THEN everything stops gracefully with exit code 0 and stdout held only chat lines', async () => {
    m.child.kill('SIGINT');
    expect(await m.exited).toBe(0);
    for (const l of m.lines) expect(l).toMatch(/^\[(demo|mindlink)\] /);
  });
});
