/**
 * The real process with avatar hosts, as a user meets a death: an op player's `/kill demo` in the embedded
 * world, then a goal; and a restart after demo died while mindlink was down.
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mineflayer, { type Bot } from 'mineflayer';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { silentLogger } from '../../src/logger.ts';
import { startMindlink, type MindlinkProcess } from './process.ts';

const DIED = /^\[demo\] I died \((.+)\) at -?\d+ -?\d+ -?\d+; back at spawn\.$/;

/** A plain mineflayer bot on the world at `port`, spawned. */
async function joinAs(username: string, port: number, opts: { respawn?: boolean } = {}): Promise<Bot> {
  const bot = mineflayer.createBot({ host: '127.0.0.1', port, version: '1.21.4', username, hideErrors: true, logErrors: false, ...opts });
  await once(bot, 'spawn');
  return bot;
}

async function quit(bot: Bot): Promise<void> {
  const ended = once(bot, 'end');
  bot.quit();
  await ended;
}

/** Ask `/status demo` until demo is in the game and alive (its state line and health 20), or time out. */
async function untilPlaying(m: MindlinkProcess, ms: number): Promise<string[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const from = m.lines.length;
    m.send('/status demo');
    await m.line(/^\[demo\] (inventory: |not in the game)/, 30_000, from);
    const answer = m.lines.slice(from).filter((l) => l.startsWith('[demo] '));
    if (answer.some((l) => /^\[demo\] (working|choosing|wrapup) · /.test(l)) && answer.some((l) => / · health 20\/20 · /.test(l))) return answer;
    if (Date.now() > deadline) throw new Error(`demo is not back in the game after ${ms} ms; /status says:\n${answer.join('\n')}\nstderr (tail):\n${m.stderr.slice(-20).join('\n')}`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}

describe('mindlink with avatar hosts when demo dies', () => {
  let dir = '';
  const started: MindlinkProcess[] = [];

  afterEach(async () => {
    for (const m of started) {
      if (m.child.exitCode === null && m.child.signalCode === null) {
        m.child.kill('SIGINT');
        await m.exited;
      }
    }
    started.length = 0;
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it("GIVEN demo playing WHEN an op player types /kill demo THEN demo says once it was killed, and its next goal is done", async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-respawn-'));
    const m = startMindlink({ DATA_DIR: dir, AVATAR_HOSTS: '2', LOOP_PACE_MS: '500' });
    started.push(m);
    const worldReady = m.logLine(/"msg":"embedded world ready"/, 120_000);
    await m.line(/^\[mindlink\] ready — playing: demo$/, 120_000);
    const port = (JSON.parse(await worldReady) as { port: number }).port;
    await untilPlaying(m, 120_000);
    const op = await joinAs('oscar', port);
    try {
      const from = m.lines.length;
      op.chat('/kill demo');
      const line = await m.line(DIED, 60_000, from);
      expect(DIED.exec(line)?.[1]).toBe('killed');
      m.send('Goal: collect 1 dirt');
      await m.line(/^\[demo\] New goal from console: collect 1 dirt\.$/, 60_000, from);
      await m.line(/^\[demo\] Done: collect 1 dirt$/, 180_000, from);
      expect(m.lines.slice(from).filter((l) => DIED.test(l))).toHaveLength(1);
      await untilPlaying(m, 60_000);
    } finally {
      await quit(op);
    }
  }, 600_000);

  it('GIVEN demo died while mindlink was down (the world saved it dead) WHEN mindlink starts THEN demo is back in the game and says once it died while away', async () => {
    dir = await mkdtemp(join(tmpdir(), 'mindlink-e2e-respawn-'));
    const first = startMindlink({ DATA_DIR: dir, AVATAR_HOSTS: '2' });
    started.push(first);
    await first.line(/^\[mindlink\] ready — playing: demo$/, 120_000);
    await untilPlaying(first, 120_000);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);

    // The world alone, as after mindlink stopped: demo joins without mindlink, dies and leaves without respawning.
    const world = await EmbeddedWorld.start({ dataDir: dir, log: silentLogger() });
    try {
      const demo = await joinAs('demo', world.port, { respawn: false });
      const died = once(demo, 'death');
      await world.kill('demo');
      await died;
      await quit(demo);
    } finally {
      await world.stop();
    }

    const second = startMindlink({ DATA_DIR: dir, AVATAR_HOSTS: '2' });
    started.push(second);
    const joinedDead = second.logLine(/"avatar":"demo".*"msg":"joined dead; asking to respawn"/, 120_000);
    await second.line(/^\[mindlink\] ready — playing: demo$/, 120_000);
    const status = await untilPlaying(second, 90_000);
    expect(status.join('\n')).not.toMatch(/did not spawn in time|dead/);
    // It was dead when it joined (the world kept its death), and says so once.
    await joinedDead;
    expect(second.lines.filter((l) => DIED.test(l))).toEqual([expect.stringMatching(/^\[demo\] I died \(while I was away\) at /)]);
  }, 600_000);
});
