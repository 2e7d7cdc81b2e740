/**
 * One bot's packet handler throwing ends that bot's connection, never the process. The world
 * sends alice a packet her client cannot handle (an `open_window` of a window type that does not exist:
 * mineflayer's handler throws on it); the other avatars must not notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandInvocation } from '../../src/chat.ts';
import { parseConfig } from '../../src/config.ts';
import type { Mindlink } from '../../src/core.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { nextEvent, startWorld, tempDataDir } from './helpers.ts';
import { startCoreOnWorld, witness } from './core-on-world.ts';

/** A window type no Minecraft version has: mineflayer's `open_window` handler throws on it. */
const BAD_WINDOW = { windowId: 7, inventoryType: 9999, windowTitle: { type: 'string', value: 'nothing' } };

describe('a bot whose packet handler throws', () => {
  const { log, logLines, lines, until } = witness();
  const data = tempDataDir('packet-fault');
  let world: EmbeddedWorld;
  let core: Mindlink;
  /** The core's games, by avatar. */
  const games = new Map<string, MineflayerGame>();
  const game = (name: string): MineflayerGame => {
    const g = games.get(name);
    if (!g) throw new Error(`no game for ${name}`);
    return g;
  };
  /** Why each avatar's game dropped, from the start. */
  const drops = new Map<string, string[]>();
  /** The drops of an avatar that came from a packet fault of its own (others, e.g. a keep-alive timeout on a starved machine, are not this test's business). */
  const faultsOf = (name: string): string[] => (drops.get(name) ?? []).filter((r) => r.startsWith('failed on'));
  const console_: Omit<CommandInvocation, 'name'> = {
    platform: 'console',
    from: 'console:local',
    fromName: 'console',
    dest: 'console',
    chatKind: 'console',
    messageId: null,
  };

  beforeAll(async () => {
    world = await startWorld(data.dir, log);
    const config = parseConfig({ DATA_DIR: data.dir, LOOP_PACE_MS: '200', LOOP_MAX_PACE_MS: '2000' });
    const onGame = (name: string, g: MineflayerGame): void => {
      games.set(name, g);
      drops.set(name, []);
      g.on('disconnected', (reason) => drops.get(name)?.push(reason));
    };
    ({ core } = await startCoreOnWorld({ world: () => world, config, log, lines, onGame }));
    for (const name of ['alice', 'bob']) {
      await core.avatars.create(name, 'console', {});
      core.links.link(name, 'console', 'control');
      await core.avatars.play(name);
    }
    for (const name of ['demo', 'alice', 'bob']) await until(() => game(name).state === 'connected', 60_000, `${name} to join`);
  }, 120_000);

  afterAll(async () => {
    await core?.stop();
    await world?.stop();
    data.remove();
  }, 60_000);

  it('GIVEN three avatars at work WHEN the world sends alice a packet her client cannot handle THEN only alice leaves, /status says why while she is away, and she comes back and finishes her goal', async () => {
    core.avatars.setGoal('alice', 'go to 6 64 9', 'console');
    core.avatars.setGoal('bob', 'go to -8 64 5', 'console');
    core.avatars.setGoal('demo', 'go to 9 64 -7', 'console');
    const alice = game('alice');
    // /status runs at the moment alice drops (a command's reply is built before its first await).
    const dropped = nextEvent<[string]>(alice, 'disconnected', 30_000).then(([reason]) => {
      void core.router.runCommand({ ...console_, name: 'status', argsText: 'alice' });
      return reason;
    });
    await world.sendPacket('alice', 'open_window', BAD_WINDOW);
    expect(await dropped).toBe('failed on open_window');
    await until(() => lines.some((l) => l.startsWith('[alice] waiting ')), 30_000, "alice's /status while away");
    expect(lines.find((l) => l.startsWith('[alice] waiting '))).toBe(
      '[alice] waiting to reconnect (it failed on a packet it could not handle: open_window) · goal: go to 6 64 9 (set by console)',
    );
    expect(logLines.some((l) => l.includes('"avatar":"alice"') && l.includes('"packet":"open_window"') && l.includes('failed while handling a packet'))).toBe(
      true,
    );

    await until(() => alice.state === 'connected', 30_000, 'alice to reconnect');
    for (const name of ['alice', 'bob', 'demo']) {
      await until(() => lines.some((l) => l.startsWith(`[${name}] Done: go to`)), 120_000, `${name}'s goal`);
    }
    expect(faultsOf('alice')).toEqual(['failed on open_window']);
    expect(faultsOf('bob')).toEqual([]);
    expect(faultsOf('demo')).toEqual([]);
    expect(lines.filter((l) => l.includes('Stopped'))).toEqual([]);
  }, 300_000);

  it('GIVEN alice failing on every packet she is sent WHEN it happens 5 times THEN she stops with a chat line saying why and the others play on', async () => {
    // A new /play starts the count afresh (the first test's fault is forgotten).
    await core.avatars.stop('alice');
    await core.avatars.play('alice');
    const alice = game('alice');
    for (let round = 1; round <= 5; round++) {
      await until(() => alice.state === 'connected', 30_000, `alice back in the game (round ${round})`);
      // The fifth fault trips the crash loop: the game gives up instead of dropping to reconnect.
      const gone = nextEvent(alice, round < 5 ? 'disconnected' : 'failed', 30_000);
      await world.sendPacket('alice', 'open_window', BAD_WINDOW);
      await gone;
    }
    await until(() => lines.some((l) => l.startsWith('[alice] Stopped:')), 30_000, "alice's stop line");
    expect(lines.find((l) => l.startsWith('[alice] Stopped:'))).toMatch(
      /^\[alice\] Stopped: crash loop in the game connection \(5 failures in 10 minutes; last on packet open_window\)$/,
    );
    expect(core.avatars.displayState('alice')).toBe('stopped');
    expect(core.avatars.get('alice')?.playing).toBe(false);
    expect(await world.players()).not.toContain('alice');
    expect(game('bob').state).toBe('connected');
    expect(game('demo').state).toBe('connected');
    expect(faultsOf('alice')).toHaveLength(1 + 4);
    expect(faultsOf('bob')).toEqual([]);
    expect(faultsOf('demo')).toEqual([]);
  }, 300_000);
});
