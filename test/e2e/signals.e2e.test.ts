import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../../chaos/harness.ts';
import { childrenOf, startMindlink, type MindlinkProcess } from './process.ts';

describe('signals', () => {
  let dir = '';
  let m: MindlinkProcess | undefined;

  afterEach(async () => {
    if (m && m.child.exitCode === null) {
      m.child.kill('SIGKILL');
      await m.exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('GIVEN Ctrl-C to the whole process group THEN mindlink and its embedded world exit, code 0, state flushed; stdin EOF did not stop it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-sig-'));
    m = startMindlink({ DATA_DIR: dir }, { detached: true });
    await m.line(/^\[mindlink\] ready/, 90_000);
    const pid = m.child.pid as number;
    const world = childrenOf(pid);
    expect(world.length).toBeGreaterThan(0);
    m.send('Goal: go to 5 64 5');
    await m.line(/^\[demo\] New goal from console: go to 5 64 5\.$/);
    m.child.stdin?.end(); // EOF on stdin does not stop mindlink
    m.send = () => {};
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(m.child.exitCode).toBeNull();
    process.kill(-pid, 'SIGINT');
    expect(await m.exited).toBe(0);
    for (const w of world) expect(alive(w)).toBe(false);
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { avatars: { name: string; playing: boolean; goal: { text: string } | null }[] };
    expect(state.avatars[0]).toMatchObject({ name: 'demo', playing: true, goal: { text: 'go to 5 64 5' } });
  }, 150_000);

  it('GIVEN the embedded world just died (mindlink waits to start it again) WHEN SIGTERM comes THEN the stop runs to its end: its last log line, exit 0, no world left', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-sig-'));
    m = startMindlink({ DATA_DIR: dir }, { detached: true });
    await m.line(/^\[mindlink\] ready/, 90_000);
    const pid = m.child.pid as number;
    const world = childrenOf(pid).find((c) => /embedded\/server\.cjs/.test(execFileSync('ps', ['-o', 'args=', '-p', String(c)], { encoding: 'utf8' })));
    expect(world, `the embedded world among the children of ${pid}`).toBeDefined();
    const died = m.logLine(/the embedded world died; starting it again/, 30_000);
    process.kill(world as number, 'SIGKILL');
    await died;
    // Within the restart's backoff: once the chats are closed, nothing but the stop itself keeps the process alive.
    const stopped = m.logLine(/"msg":"stopped"/, 60_000);
    process.kill(pid, 'SIGTERM');
    expect(await m.exited).toBe(0);
    await stopped;
    expect(m.stderr.some((l) => /embedded world started again/.test(l))).toBe(false);
    for (const w of childrenOf(pid)) expect(alive(w)).toBe(false);
  }, 150_000);

  it('GIVEN a bad config value THEN start-up stops with one line naming the key', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-cfg-'));
    m = startMindlink({ DATA_DIR: dir, MC_PORT: 'banana' });
    expect(await m.exited).toBe(1);
    expect(m.stderr.filter((l) => l.trim())).toEqual([expect.stringMatching(/^config: MC_PORT="banana" /)]);
    expect(m.lines).toEqual([]);
  }, 60_000);
});
