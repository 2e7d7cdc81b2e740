import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import { startWorld, tempDataDir } from './helpers.ts';
import { startCoreOnWorld, witness } from './core-on-world.ts';

describe('a game server restart in the middle of a goal', () => {
  // Keep the core's log lines so that a failure shows what the loop and the game did.
  const { log, lines, until } = witness();
  const data = tempDataDir('restart');
  let world: EmbeddedWorld;
  let core: Mindlink;

  beforeAll(async () => {
    world = await startWorld(data.dir, log);
    const config = parseConfig({ DATA_DIR: data.dir, LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000' });
    // Like the production provider, but the world is ours so the test can restart it.
    ({ core } = await startCoreOnWorld({ world: () => world, config, log, lines }));
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
