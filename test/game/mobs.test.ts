/**
 * Mobs in the embedded shared.world, with real mineflayer bots: animals that others see spawn and move, die to a
 * player's hits and drop their vanilla loot; zombies at night that walk to a player and hurt it, burn in the
 * sun, and meet the avatar's reflexes. Mobs are spawned at set places (natural spawning is off) except in the
 * test of natural spawning, which runs on its own shared.world.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bot } from 'mineflayer';
import type { Entity } from 'prismarine-entity';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { Reflexes } from '../../skills/reflexes.ts';
import { describeSnapshot } from '../../src/engines/llm/tools.ts';
import { takeSnapshot } from '../../src/game/snapshot.ts';
import { connectedGame, held, startWorld, tempDataDir, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('mobs');
const { log, games } = shared;

const avatar = (name: string, x: number, z: number) => shared.avatar(name, x, z);

async function seen(bot: Bot, id: number): Promise<Entity> {
  await waitFor(() => bot.entities[id] !== undefined, 10_000, `entity ${id} seen by ${bot.username}`);
  return bot.entities[id]!;
}

/** Hit an entity until it dies, stepping up to it between hits. */
async function hitUntilDead(bot: Bot, target: Entity, limit = 60): Promise<number> {
  let dead = false;
  const onDead = (e: Entity): void => {
    if (e.id === target.id) dead = true;
  };
  bot.on('entityDead', onDead);
  let hits = 0;
  try {
    while (!dead && hits < limit) {
      const d = target.position.distanceTo(bot.entity.position);
      if (d > 2.5) await shared.world.teleport(bot.username, { x: target.position.x - 1.2, y: target.position.y, z: target.position.z });
      await bot.lookAt(target.position.offset(0, 0.8, 0), true);
      bot.attack(target);
      hits++;
      // A bare hand's cooldown is 5 ticks: wait for it, so every hit counts whole.
      await new Promise((r) => setTimeout(r, 350));
    }
  } finally {
    bot.off('entityDead', onDead);
  }
  expect(dead).toBe(true);
  return hits;
}

describe('animals in the embedded world', () => {
  it('GIVEN a cow spawned near two players THEN both see a passive cow, and see it walk', async () => {
    const a = await avatar('anna', -20, -20);
    const b = await avatar('ben', -20, -14);
    const id = await shared.world.spawnMob('cow', { x: -16.5, y: 64, z: -16.5 });
    const cowA = await seen(a.bot, id);
    const cowB = await seen(b.bot, id);
    expect(cowA).toMatchObject({ name: 'cow', type: 'animal' });
    expect(a.game.snapshot()?.nearbyEntities.find((e) => e.name === 'cow')?.kind).toBe('passive');
    // What the llm engine's look tool says.
    expect(describeSnapshot(a.game.snapshot()!)).toMatch(/around: .*cow \(passive\) \d+m/);
    const start = cowA.position.clone();
    await waitFor(() => cowA.position.distanceTo(start) > 1, 90_000, 'the cow to stroll');
    // Both players follow the same moves.
    await waitFor(() => cowA.position.distanceTo(cowB.position) < 0.01, 5000, 'ben to see the cow where anna does');
    const server = (await shared.world.mobs()).find((m) => m.id === id)!;
    expect(Math.hypot(server.x - cowA.position.x, server.z - cowA.position.z)).toBeLessThan(2);
  });

  it('GIVEN a cow WHEN a player hits it with its bare hand THEN it takes 10 hits to die and drops raw beef the player picks up', async () => {
    const { bot } = await avatar('cora', 20, -20);
    const id = await shared.world.spawnMob('cow', { x: 22.5, y: 64, z: -20.5 });
    const cow = await seen(bot, id);
    let hurt = 0;
    bot.on('entityHurt', (e) => {
      if (e.id === id) hurt++;
    });
    const hits = await hitUntilDead(bot, cow);
    const diedAt = cow.position.clone();
    expect(hurt).toBeGreaterThanOrEqual(10);
    expect(hits).toBeGreaterThanOrEqual(10);
    await waitFor(() => bot.entities[id] === undefined, 10_000, 'the dead cow to be gone');
    // Its drops fall where it died; the player steps there and picks them up.
    await shared.world.teleport('cora', { x: diedAt.x, y: diedAt.y, z: diedAt.z });
    await waitFor(() => held(bot, 'beef') >= 1, 10_000, 'raw beef');
    const server = await shared.world.inventory('cora');
    expect(Object.values(server.slots).some((i) => i.name === 'beef')).toBe(true);
  });

  it('GIVEN a player with an iron sword THEN a chicken (4 health) dies to one full-strength hit and drops chicken', async () => {
    const { bot } = await avatar('dan', 20, 20);
    await shared.world.give('dan', 'iron_sword', 1);
    await waitFor(() => held(bot, 'iron_sword') === 1, 10_000, 'the sword');
    await bot.equip(bot.inventory.items().find((i) => i.name === 'iron_sword')!, 'hand');
    // The cooldown starts again when the held item changes: wait it out (a sword's is 0.625 s).
    await new Promise((r) => setTimeout(r, 800));
    const id = await shared.world.spawnMob('chicken', { x: 21.5, y: 64, z: 20.5 });
    const chicken = await seen(bot, id);
    expect(await hitUntilDead(bot, chicken, 1)).toBe(1);
    await waitFor(() => held(bot, 'chicken') >= 1, 10_000, 'raw chicken');
  });
});

describe('zombies in the embedded world', () => {
  it('GIVEN night and a zombie 10 blocks away THEN it walks to the player and hurts it', async () => {
    const { bot } = await avatar('eve', -20, 20);
    await shared.world.command('time set 14000');
    await waitFor(() => bot.time.timeOfDay >= 13_000, 10_000, 'night');
    const id = await shared.world.spawnMob('zombie', { x: -12.5, y: 64, z: 26.5 });
    const zombie = await seen(bot, id);
    expect(zombie).toMatchObject({ name: 'zombie', type: 'hostile' });
    const look = describeSnapshot(takeSnapshot(bot));
    expect(look).toMatch(/ · night · /);
    expect(look).toMatch(/zombie \(hostile\) \d+m/);
    let hurtBy: Entity | undefined;
    bot.on('entityHurt', (e, source) => {
      if (e === bot.entity) hurtBy = source;
    });
    await waitFor(() => bot.health < 20, 30_000, 'the zombie to hurt the player');
    expect(zombie.position.distanceTo(bot.entity.position)).toBeLessThan(3);
    expect(hurtBy?.id).toBe(id);
    await shared.world.clearMobs();
    await shared.world.command('time set 1000');
  });

  it('GIVEN a zombie in the sun THEN it burns and dies, dropping only what a zombie drops', async () => {
    const { bot } = await avatar('fay', 0, 40);
    await shared.world.command('time set 1000');
    await waitFor(() => bot.time.timeOfDay < 12_000, 10_000, 'day');
    const id = await shared.world.spawnMob('zombie', { x: 0.5, y: 64, z: 50.5 });
    const zombie = await seen(bot, id);
    await waitFor(() => (zombie.metadata[0] as number | undefined) === 1, 10_000, 'the zombie on fire');
    await waitFor(() => bot.entities[id] === undefined, 60_000, 'the zombie to burn to death');
    const drops = Object.values(bot.entities).filter((e) => e.name === 'item' && e.position.distanceTo(zombie.position) < 3);
    expect(drops.length).toBeLessThanOrEqual(1); // 0–2 rotten flesh in one stack
  });

  it('GIVEN night, a zombie and an avatar with a stone sword and its reflexes THEN the avatar stays alive and the zombie ends dead or far away', async () => {
    const { game, bot } = await avatar('gil', 40, 0);
    await shared.world.give('gil', 'stone_sword', 1);
    await waitFor(() => held(bot, 'stone_sword') === 1, 10_000, 'the sword');
    await shared.world.command('time set 14000');
    await waitFor(() => bot.time.timeOfDay >= 13_000, 10_000, 'night');
    const reflexes = new Reflexes(game, log, { tickMs: 200 });
    reflexes.start();
    try {
      const id = await shared.world.spawnMob('zombie', { x: 50.5, y: 64, z: 0.5 });
      await seen(bot, id);
      let died = false;
      bot.once('death', () => {
        died = true;
      });
      let zombieDead = false;
      bot.on('entityDead', (e) => {
        if (e.id === id) zombieDead = true;
      });
      const far = async (): Promise<boolean> => {
        const z = (await shared.world.mobs()).find((m) => m.id === id);
        return !z || z.dead || Math.hypot(z.x - bot.entity.position.x, z.z - bot.entity.position.z) > 16;
      };
      const deadline = Date.now() + 60_000;
      while (!zombieDead && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(died).toBe(false);
      expect(bot.health).toBeGreaterThan(0);
      expect(zombieDead || (await far())).toBe(true);
    } finally {
      reflexes.stop();
      await shared.world.clearMobs();
      await shared.world.command('time set 1000');
    }
  });
});

describe('natural spawning', () => {
  const natural = tempDataDir('mobs-natural');
  let w: EmbeddedWorld;
  let g: MineflayerGame | undefined;

  beforeAll(async () => {
    w = await startWorld(natural.dir, log);
  });

  afterAll(async () => {
    await g?.stop();
    await w?.stop();
    natural.remove();
  });

  it('GIVEN a player in a new world THEN herds of animals appear on the grass around it, and at night zombies spawn 24 blocks away or more', async () => {
    g = await connectedGame(w, 'hana', log);
    const bot = g.bot!;
    const animals = new Set(['cow', 'pig', 'sheep', 'chicken']);
    await waitFor(() => Object.values(bot.entities).some((e) => animals.has(e.name ?? '')), 30_000, 'an animal in sight');
    const mobs = await w.mobs();
    expect(mobs.every((m) => animals.has(m.name))).toBe(true);
    expect(mobs.length).toBeLessThanOrEqual(4 * 49);
    await w.command('time set 14000');
    const spawnedAt = new Map<number, number>();
    bot.on('entitySpawn', (e) => {
      if (e.name === 'zombie') spawnedAt.set(e.id, e.position.distanceTo(bot.entity.position));
    });
    await waitFor(() => spawnedAt.size > 0, 60_000, 'a zombie to spawn at night');
    for (const d of spawnedAt.values()) expect(d).toBeGreaterThanOrEqual(23);
  });
});
