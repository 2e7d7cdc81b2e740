import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { held, startMindlink, type MindlinkProcess } from './process.ts';

describe('Ctrl-C keeps what the avatar holds', () => {
  let dir = '';
  const started: MindlinkProcess[] = [];

  afterEach(async () => {
    for (const m of started) {
      if (m.child.exitCode === null && m.child.signalCode === null) {
        m.child.kill('SIGKILL');
        await m.exited;
      }
    }
    started.length = 0;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`GIVEN "Goal: get 3 dirt" done WHEN ${signal} reaches the whole process group and mindlink restarts THEN the dirt is still in the inventory`, async () => {
      dir = await mkdtemp(join(tmpdir(), 'mindlink-ctrlc-'));
      const first = startMindlink({ DATA_DIR: dir }, { detached: true });
      started.push(first);
      await first.line(/^\[mindlink\] ready/, 90_000);
      first.send('Goal: get 3 dirt');
      await first.line(/^\[demo\] New goal from console: get 3 dirt\.$/);
      await first.line(/^\[demo\] Done: get 3 dirt$/, 150_000);
      first.send('/status');
      const before = held(await first.line(/^\[demo\] inventory: /), 'dirt');
      expect(before).toBeGreaterThanOrEqual(3);
      // What a terminal does on Ctrl-C: the signal goes to every process of the foreground group.
      process.kill(-(first.child.pid as number), signal);
      expect(await first.exited).toBe(0);

      const second = startMindlink({ DATA_DIR: dir }, { detached: true });
      started.push(second);
      // Once demo has spawned again, its inventory is the one the world kept.
      const spawned = second.logLine(/"msg":"spawned"/, 120_000);
      await second.line(/^\[mindlink\] ready/, 90_000);
      await spawned;
      second.send('/status');
      const after = await second.line(/^\[demo\] inventory: /);
      expect(held(after, 'dirt')).toBeGreaterThanOrEqual(before);
      process.kill(-(second.child.pid as number), 'SIGINT');
      expect(await second.exited).toBe(0);
    }, 400_000);
  }
});
