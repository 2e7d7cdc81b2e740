/**
 * Dying in the embedded world, seen by plain mineflayer bots (no mindlink around them): a player killed by an
 * op's `/kill` or by a zombie gets its death message, respawns at the world spawn when its client asks, with
 * full health and food and its inventory, and the others see it there; a player saved dead comes back dead
 * and respawns the same way.
 */
import { once } from 'node:events';
import mineflayer, { type Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import { held, teleportAndSettle, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('respawn-world');

/** A plain mineflayer bot on the world, spawned (closed by the test). */
async function plainBot(username: string, opts: { respawn?: boolean } = {}): Promise<Bot> {
  const w = shared.world;
  const bot = mineflayer.createBot({ host: w.host, port: w.port, version: w.version, username, hideErrors: true, logErrors: false, ...opts });
  await once(bot, 'spawn');
  await bot.waitForChunksToLoad();
  return bot;
}

async function quit(bot: Bot): Promise<void> {
  const ended = once(bot, 'end');
  bot.quit();
  await ended;
}

/** The system chat lines a bot hears, as plain text. */
function heard(bot: Bot): string[] {
  const lines: string[] = [];
  bot.on('messagestr', (text, position) => {
    if (position === 'system') lines.push(text);
  });
  return lines;
}

/** Teleport a bot (server side) and wait until it stands there. */
function standAt(bot: Bot, x: number, z: number): Promise<void> {
  return teleportAndSettle(shared.world, { username: bot.username, bot }, { x: x + 0.5, y: 64, z: z + 0.5 });
}

const atSpawn = (bot: Bot): boolean => Math.hypot(bot.entity.position.x - 0.5, bot.entity.position.z - 0.5) < 1.5;

describe('dying in the embedded world', () => {
  it("GIVEN a bot carrying dirt 30 blocks from the spawn WHEN an op player types /kill THEN everyone hears it was killed, and within 10 s it is back at the spawn with full health and food, its dirt, and the op sees it there", async () => {
    const vic = await plainBot('vic');
    const op = await plainBot('oscar');
    try {
      await standAt(vic, 30, 4);
      await standAt(op, 2, 2);
      await shared.world.give('vic', 'dirt', 5);
      await waitFor(() => held(vic, 'dirt') === 5, 10_000, "vic's dirt");
      const opHeard = heard(op);
      const died = once(vic, 'death');
      op.chat('/kill vic');
      await died;
      const killedAt = performance.now();
      await once(vic, 'spawn');
      const ms = performance.now() - killedAt;
      expect(ms, `vic spawned again ${Math.round(ms)} ms after his death`).toBeLessThan(10_000);
      await waitFor(() => atSpawn(vic) && vic.health === 20, 10_000, () => `vic at the spawn with 20 health (at ${vic.entity.position}, health ${vic.health})`);
      expect(vic.food).toBe(20);
      expect(held(vic, 'dirt')).toBe(5);
      expect((await shared.world.inventory('vic')).slots).toMatchObject({ 36: { name: 'dirt', count: 5 } });
      expect(opHeard).toContain('vic was killed');
      await waitFor(() => Object.values(op.entities).some((e) => e.username === 'vic' && e.position.distanceTo(vic.entity.position) < 2), 10_000, 'the op to see vic at the spawn');
    } finally {
      await Promise.all([quit(vic), quit(op)]);
    }
  });

  it('GIVEN night and a bot with 3 health beside a zombie THEN it is slain by the zombie and respawns at the spawn', async () => {
    const zed = await plainBot('zed');
    try {
      await standAt(zed, -30, 10);
      const lines = heard(zed);
      await shared.world.command('time set 14000');
      await shared.world.setHunger('zed', { health: 3 });
      await waitFor(() => zed.health === 3, 10_000, "zed's health at 3");
      const died = once(zed, 'death');
      await shared.world.spawnMob('zombie', { x: -28.5, y: 64, z: 10.5 });
      await died;
      await once(zed, 'spawn');
      await waitFor(() => atSpawn(zed) && zed.health === 20, 10_000, () => `zed at the spawn (at ${zed.entity.position}, health ${zed.health})`);
      expect(lines).toContain('zed was slain by Zombie');
    } finally {
      await shared.world.clearMobs();
      await shared.world.command('time set 1000');
      await quit(zed);
    }
  });

  it('GIVEN a bot that died and left without asking to respawn WHEN it joins again THEN it joins dead and respawns at the spawn', async () => {
    const ida = await plainBot('ida', { respawn: false });
    await standAt(ida, 20, -20);
    const died = once(ida, 'death');
    await shared.world.kill('ida');
    await died;
    await quit(ida);

    // Without physics the bot sends no move of its own: its login ends only at the look this test sends.
    const back = mineflayer.createBot({ host: shared.world.host, port: shared.world.port, version: shared.world.version, username: 'ida', hideErrors: true, logErrors: false, physicsEnabled: false });
    try {
      let deadOnJoin = false;
      back.once('death', () => {
        deadOnJoin = true;
      });
      // Where the server puts her from her respawn on: the respawn's own position, then the one that ends her login.
      let respawned = false;
      const sent: string[] = [];
      back._client.on('respawn', () => {
        respawned = true;
      });
      back._client.on('position', (p: { x: number; z: number }) => {
        if (respawned) sent.push(`${Math.floor(p.x)} ${Math.floor(p.z)}`);
      });
      await once(back, 'spawn');
      expect(deadOnJoin).toBe(true);
      await waitFor(() => atSpawn(back) && back.health === 20, 10_000, () => `ida at the spawn (at ${back.entity.position}, health ${back.health})`);
      // Her first look ends her login: the server sends her position once more, the spawn (it was where she died).
      back._client.write('look', { yaw: 90, pitch: 0, onGround: true, flags: { onGround: true, hasHorizontalCollision: false } });
      await waitFor(() => sent.length >= 2, 10_000, () => `the server to send ida her position again (sent: ${sent.join(', ')})`);
      expect(sent).toEqual(['0 0', '0 0']);
      expect(atSpawn(back), `ida at ${back.entity.position}`).toBe(true);
    } finally {
      await quit(back);
    }
  });
});
