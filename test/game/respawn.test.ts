/**
 * An avatar's game when its avatar dies, on the embedded world: `dead` with a snapshot where it lies, back
 * in the game at the spawn within 10 s with what killed it and where; on a server that leaves its respawn
 * requests unanswered it asks again, and joins again when it stays dead; an avatar that left the game dead
 * joins dead and comes back.
 */
import { describe, expect, it } from 'vitest';
import type { Death } from '../../src/game/game.ts';
import { EMBEDDED_CAPABILITIES, MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { runSkill } from '../../skills/run.ts';
import { nextEvent, skillNamed, teleportAndSettle, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('respawn');
const { log, games } = shared;

/** A game on the world with its own respawn and join pace (not started; stopped after the file). */
function pacedGame(username: string, opts: { respawn?: { retryMs: number; stuckMs: number }; spawnTimeoutMs?: number } = {}): MineflayerGame {
  const w = shared.world;
  const game = new MineflayerGame({ username, host: w.host, port: w.port, version: w.version, log, capabilities: EMBEDDED_CAPABILITIES, reconnect: { minMs: 200, maxMs: 1000 }, ...opts });
  games.push(game);
  return game;
}

const atSpawn = (game: MineflayerGame): boolean => {
  const p = game.snapshot()?.position;
  return !!p && Math.hypot(p.x - 0.5, p.z - 0.5) < 1.5;
};

describe('an avatar that dies', () => {
  it('GIVEN an avatar carrying dirt 30 blocks from the spawn WHEN the world kills it THEN it is dead where it lies, and within 10 s back at the spawn, killed there, with its dirt, and acts again', async () => {
    const { game } = await shared.avatar('kit', 30, 5, [['dirt', 5]]);
    const died = nextEvent<[Death]>(game, 'died', 10_000);
    const back = nextEvent<[Death]>(game, 'respawned', 10_000, () => `kit is ${game.state}`);
    // What the game shows as it dies (it may be back before the kill's own answer arrives).
    let dead: unknown;
    game.once('died', () => {
      dead = { state: game.state, health: game.snapshot()?.health, bot: game.bot };
    });
    await shared.world.kill('kit');
    const [death] = await died;
    expect(death.position).toEqual({ x: 30, y: 64, z: 5 });
    expect(dead).toEqual({ state: 'dead', health: 0, bot: undefined });
    const [respawned] = await back;
    expect(respawned).toEqual({ cause: 'killed', position: { x: 30, y: 64, z: 5 } });
    expect(game.state).toBe('connected');
    expect(atSpawn(game)).toBe(true);
    expect(game.snapshot()).toMatchObject({ health: 20, food: 20, inventory: { dirt: 5 } });
    const bot = game.bot!;
    const seen: string[] = [];
    bot.on('path_update', (r: { status: string; path: unknown[] }) => {
      seen.push(`path ${r.status} ${r.path.length} from ${bot.entity.position}`);
    });
    bot.on('forcedMove', () => {
      seen.push(`forced to ${bot.entity.position}`);
    });
    // A walk that cannot end fails on its own (go_to's 60 s), saying where the bot was and what the pathfinder did.
    const walked = await runSkill(skillNamed('go_to'), game, { x: 4, y: 64, z: 4 }, new AbortController().signal);
    expect(walked, `${JSON.stringify(walked)}; kit at ${bot.entity.position}; ${seen.join('; ')}`).toMatchObject({ ok: true });
  }, 120_000);

  it('GIVEN night and an avatar with 2 health WHEN a zombie reaches it THEN it is slain by the zombie and back at the spawn', async () => {
    const { game } = await shared.avatar('zoe', -30, 10);
    try {
      await shared.world.command('time set 14000');
      await shared.world.setHunger('zoe', { health: 2 });
      await waitFor(() => game.snapshot()?.health === 2, 10_000, "zoe's health at 2");
      const back = nextEvent<[Death]>(game, 'respawned', 30_000, () => `zoe is ${game.state}`);
      await shared.world.spawnMob('zombie', { x: -28.5, y: 64, z: 10.5 });
      const [death] = await back;
      expect(death).toEqual({ cause: 'slain by Zombie', position: expect.objectContaining({ y: 64 }) });
      expect(Math.hypot(death.position.x + 30, death.position.z - 10)).toBeLessThan(4);
      expect(atSpawn(game)).toBe(true);
    } finally {
      await shared.world.clearMobs();
      await shared.world.command('time set 1000');
    }
  });

  it('GIVEN a server that leaves respawn requests unanswered WHEN the avatar dies THEN it stays dead asking again, joins again once it has been dead too long, and once the server answers is back, saying the death it left with', async () => {
    const game = pacedGame('una', { respawn: { retryMs: 500, stuckMs: 4000 } });
    let diedAt: Death['position'] | undefined;
    // Heard from the start: she may be back before the world has answered that it answers again.
    const backs: Death[] = [];
    game.on('respawned', (d: Death) => backs.push(d));
    const connected = nextEvent(game, 'connected', 30_000);
    await game.start();
    await connected;
    await shared.world.holdRespawns(true);
    try {
      const left = nextEvent<[string]>(game, 'disconnected', 30_000, () => `una is ${game.state}`);
      const died = nextEvent<[Death]>(game, 'died', 10_000);
      await shared.world.kill('una');
      diedAt = (await died)[0].position;
      expect(game.state).toBe('dead');
      const [reason] = await left;
      expect(reason).toBe('respawn timeout');
      expect(await shared.world.holdRespawns(true)).toBeGreaterThanOrEqual(3);
      expect(game.downReason).toBe('it stayed dead: the server did not respawn it');
      // It joins again, dead.
      await waitFor(() => game.state === 'dead', 30_000, () => `una to join again, dead (she is ${game.state}, ${game.downReason})`);
    } finally {
      await shared.world.holdRespawns(false);
    }
    await waitFor(() => backs.length > 0, 30_000, () => `una to be back (she is ${game.state}, ${game.downReason})`);
    // The death it left with, said once it is back.
    expect(backs).toEqual([{ cause: 'killed', position: diedAt }]);
    expect(game.state).toBe('connected');
    expect(atSpawn(game)).toBe(true);
    expect(game.snapshot()?.health).toBe(20);
  });

  it('GIVEN an avatar that left the game dead (its world saved it so) WHEN it joins again THEN it joins dead, asks to respawn, and is back at the spawn saying it died while it was away', async () => {
    const first = pacedGame('ned');
    const connected = nextEvent(first, 'connected', 30_000);
    await first.start();
    await connected;
    await teleportAndSettle(shared.world, first, { x: 25.5, y: 64, z: -25.5 });
    await shared.world.holdRespawns(true);
    const again = pacedGame('ned');
    let diedAt: Death['position'] | undefined;
    // Heard from the start: he may be back before the world has answered that it answers again.
    const backs: Death[] = [];
    again.on('respawned', (d: Death) => backs.push(d));
    try {
      const died = nextEvent<[Death]>(first, 'died', 10_000);
      await shared.world.kill('ned');
      diedAt = (await died)[0].position;
      await first.stop();
      await again.start();
      await waitFor(() => again.state === 'dead', 30_000, () => `ned to join dead (he is ${again.state}, ${again.downReason})`);
    } finally {
      await shared.world.holdRespawns(false);
    }
    await waitFor(() => backs.length > 0, 30_000, () => `ned to be back (he is ${again.state}, ${again.downReason})`);
    expect(backs).toEqual([{ cause: 'while I was away', position: diedAt }]);
    expect(again.state).toBe('connected');
    expect(atSpawn(again)).toBe(true);
    expect(again.snapshot()?.health).toBe(20);
    // His first steps end his login: the server moves him nowhere (he was sent back to where he died).
    const moved: string[] = [];
    again.bot!.on('forcedMove', () => {
      moved.push(again.bot!.entity.position.floored().toString());
    });
    const walked = await runSkill(skillNamed('go_to'), again, { x: 3, y: 64, z: 3 }, new AbortController().signal);
    expect(walked, JSON.stringify(walked)).toMatchObject({ ok: true });
    expect(moved.filter((p) => p.startsWith('(25,')), `forced moves: ${moved.join(' ')}`).toEqual([]);
  }, 120_000);
});
