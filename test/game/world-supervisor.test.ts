/**
 * The embedded world restarts by itself when its process dies, on the same
 * port, and an avatar that was in it reconnects by itself.
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_CAPABILITIES, MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { WorldSupervisor } from '../../src/game/embedded/world-supervisor.ts';
import { nextEvent, tempDataDir, testLogger } from './helpers.ts';

describe('WorldSupervisor', () => {
  const log = testLogger();
  const data = tempDataDir('supervisor');
  let world: WorldSupervisor;
  let game: MineflayerGame;

  beforeAll(async () => {
    world = await WorldSupervisor.start({ dataDir: data.dir, log });
    game = new MineflayerGame({ username: 'steve', host: world.host, port: world.port, version: world.version, log, capabilities: EMBEDDED_CAPABILITIES, reconnect: { minMs: 200, maxMs: 1000 } });
    const connected = once(game, 'connected');
    await game.start();
    await connected;
  });

  afterAll(async () => {
    await game.stop();
    await world.stop();
    data.remove();
  });

  it('GIVEN a world with an avatar in it WHEN its process is killed (kill -9) THEN it starts again on the same port and the avatar rejoins', async () => {
    const port = world.port;
    const first = world.world;
    const restarted = nextEvent(world, 'restarted', 60_000);
    const dropped = nextEvent(game, 'disconnected', 60_000);
    process.kill(first.pid ?? -1, 'SIGKILL');
    await dropped;
    const rejoined = nextEvent(game, 'connected', 90_000);
    await restarted;
    await rejoined;
    expect(world.port).toBe(port);
    expect(world.world).not.toBe(first);
    expect(world.world.running).toBe(true);
    expect(game.state).toBe('connected');
  }, 180_000);

  it('GIVEN a world that just died (its restart waits out its backoff) WHEN the supervisor stops THEN the wait ends and no world is started again', async () => {
    const secondData = tempDataDir('supervisor-stop');
    const second = await WorldSupervisor.start({ dataDir: secondData.dir, log });
    let restarted = false;
    second.on('restarted', () => {
      restarted = true;
    });
    const died = nextEvent(second.world, 'exit', 30_000);
    process.kill(second.world.pid ?? -1, 'SIGKILL');
    await died;
    await second.stop();
    expect(restarted).toBe(false);
    expect(second.world.running).toBe(false);
    secondData.remove();
  }, 60_000);

  it('GIVEN a stop THEN the world is not started again', async () => {
    const current = world.world;
    let restarted = false;
    world.on('restarted', () => {
      restarted = true;
    });
    await game.stop();
    await world.stop();
    expect(current.running).toBe(false);
    expect(restarted).toBe(false);
  }, 60_000);
});
