import { PassThrough, Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleBridge } from '../../bridges/console.ts';
import { parseConfig } from '../../src/config.ts';
import { Mindlink } from '../../src/core.ts';
import { createDispatcher } from '../../commands/index.ts';
import { createSkillRegistry } from '../../skills/index.ts';
import { createEngineProvider } from '../../src/engines/index.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { EMBEDDED_CAPABILITIES, MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { startWorld, tempDataDir, testLogger, waitFor } from './helpers.ts';

describe('a game server restart in the middle of a goal', () => {
  // Keep the core's log lines so that a failure shows what the loop and the game did.
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(chunk.toString('utf8').trim());
      if (logLines.length > 300) logLines.shift();
      done();
    },
  });
  const log = process.env.TEST_LOG ? testLogger() : pino({ level: 'debug' }, sink);
  const until = async (cond: () => boolean, ms: number, what: string): Promise<void> => {
    try {
      await waitFor(cond, ms, what);
    } catch (err) {
      throw new Error(`${(err as Error).message}\nchat:\n${lines.join('\n')}\nlog (tail):\n${logLines.slice(-40).join('\n')}`);
    }
  };
  const data = tempDataDir('restart');
  let world: EmbeddedWorld;
  let core: Mindlink;
  const lines: string[] = [];

  beforeAll(async () => {
    world = await startWorld(data.dir, log);
    const config = parseConfig({ DATA_DIR: data.dir, LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000' });
    core = await Mindlink.start({
      config,
      skills: createSkillRegistry,
      commands: createDispatcher(),
      log,
      games: {
        // Like the production provider, but the world is ours so the test can restart it.
        create: (avatar, _server, avatarLog) =>
          new MineflayerGame({
            username: avatar.name,
            host: world.host,
            port: world.port,
            version: world.version,
            log: avatarLog,
            capabilities: EMBEDDED_CAPABILITIES,
            reconnect: { minMs: 200, maxMs: 1000 },
          }),
        close: async () => {},
      },
      engines: createEngineProvider(config),
    });
    const stdout = new PassThrough();
    stdout.on('data', (b: Buffer) => lines.push(...b.toString('utf8').split('\n').filter(Boolean)));
    await core.addBridge(new ConsoleBridge(new PassThrough(), stdout, log));
  }, 60_000);

  afterAll(async () => {
    await core?.stop();
    await world?.stop();
    data.remove();
  }, 60_000);

  it('GIVEN demo working on an owner goal WHEN the world stops and comes back THEN it waits, reconnects by itself and finishes the same goal', async () => {
    await until(() => core.avatars.displayState('demo') !== 'waiting', 30_000, 'demo to join');
    core.avatars.setGoal('demo', 'go to 12 64 12', 'console');
    await until(() => lines.some((l) => l.startsWith('[demo] Done: go to 12 64 12')), 120_000, 'the first goal');

    core.avatars.setGoal('demo', 'go to -14 64 -10', 'console');
    const port = world.port;
    await world.stop();
    await until(() => core.avatars.displayState('demo') === 'waiting', 15_000, 'demo to notice the world is down');
    expect(core.avatars.get('demo')?.goal?.text).toBe('go to -14 64 -10');

    world = await startWorld(data.dir, log, port);
    await until(() => core.avatars.displayState('demo') !== 'waiting', 30_000, 'demo to reconnect');
    await until(() => lines.some((l) => l.startsWith('[demo] Done: go to -14 64 -10')), 120_000, 'the goal after the restart');
    expect(lines.filter((l) => l.startsWith('[demo] Stopped'))).toEqual([]);
  }, 400_000);
});
