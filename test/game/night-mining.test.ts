/**
 * Mining at night on the embedded world with real mineflayer: the collect skill digs in before it mines what lies
 * under ground (straight down until 17 blocks of ground are over it, the shaft closed over its head), a walk kept
 * under a roof line does not climb out, and an avatar boxed in under ground with a plank in its hand digs room for
 * its furnace with its pickaxe; the crafting table on the way down: used from the bottom of a shaft at its rim, and
 * taken along (its own only) when the avatar goes for ore. Natural spawning is off.
 */
import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import { runSkill } from '../../skills/index.ts';
import { goals, UnreachableError, walk } from '../../skills/common.ts';
import { DIG_IN_DEPTH } from '../../skills/dig-in.ts';
import { held, skillNamed, teleportAndSettle, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('night-mining');

describe('mining at night on the embedded world', () => {
  it('GIVEN night where zombies spawn and an avatar with a stone pickaxe on open ground WHEN it collects cobblestone THEN it digs in first: straight down until 17 blocks of ground are over it, the shaft closed over its head, what it dug counted', async () => {
    const { game, bot } = await shared.avatar('nina', 6, 6, [['stone_pickaxe', 1]]);
    const top = bot.entity.position.floored();
    expect(bot.blockAt(top.offset(0, -1, 0))?.name).toBe('grass_block');
    await shared.world.command('time set 14000');
    await waitFor(() => bot.time.timeOfDay >= 13_000, 10_000, 'night');
    try {
      const r = await runSkill(skillNamed('collect'), game, { item: 'cobblestone', count: 3 }, new AbortController().signal);
      expect(r).toMatchObject({ ok: true, code: 'done' });
      const feet = bot.entity.position.floored();
      expect(feet.x).toBe(top.x);
      expect(feet.z).toBe(top.z);
      expect(top.y - feet.y).toBeGreaterThanOrEqual(DIG_IN_DEPTH);
      // The lid: the first block dug is filled again, right under where the avatar stood.
      expect(bot.blockAt(top.offset(0, -1, 0))?.boundingBox).toBe('block');
      expect(bot.blockAt(top)?.name).toBe('air');
      expect(held(bot, 'cobblestone')).toBeGreaterThanOrEqual(3);
    } finally {
      await shared.world.command('time set 1000');
    }
  }, 150_000);

  it('GIVEN an avatar at the bottom of a pit WHEN it walks to a spot on the surface with its body kept under the rim THEN it finds no way; without the limit it climbs out and gets there', async () => {
    const { game, bot } = await shared.avatar('omar', -6, 6, [['dirt', 16]]);
    for (const y of [63, 62, 61]) await shared.world.setBlock({ x: -6, y, z: 6 }, 'air');
    await teleportAndSettle(shared.world, game, { x: -5.5, y: 61, z: 6.5 });
    const signal = new AbortController().signal;
    const surface = new goals.GoalNear(-1, 64, 6, 1);
    await expect(walk(bot, surface, signal, 'to the surface', 30_000, { below: 62 })).rejects.toBeInstanceOf(UnreachableError);
    expect(bot.entity.position.y).toBeLessThan(62);
    await walk(bot, surface, signal, 'to the surface', 60_000);
    expect(bot.entity.position.distanceTo(new Vec3(-0.5, 64, 6.5))).toBeLessThan(2.5);
  }, 150_000);

  it('GIVEN an avatar boxed in under ground with a plank in its hand and a pickaxe in its pack WHEN it smelts THEN it digs room for its furnace with the pickaxe and smelts', async () => {
    const { game, bot } = await shared.avatar('pavel', 6, -6, [['raw_iron', 1], ['oak_planks', 4], ['furnace', 1], ['stone_pickaxe', 1]]);
    await shared.world.setBlock({ x: 6, y: 52, z: -6 }, 'air');
    await shared.world.setBlock({ x: 6, y: 53, z: -6 }, 'air');
    await teleportAndSettle(shared.world, game, { x: 6.5, y: 52, z: -5.5 });
    await bot.equip(bot.inventory.items().find((i) => i.name === 'oak_planks')!, 'hand');
    expect(bot.heldItem?.name).toBe('oak_planks');
    const r = await runSkill(skillNamed('smelt'), game, { item: 'iron_ingot', count: 1 }, new AbortController().signal);
    expect(r, r.detail).toMatchObject({ ok: true, code: 'done' });
    expect(held(bot, 'iron_ingot')).toBe(1);
  }, 120_000);

  it('GIVEN an avatar at the bottom of a shaft with its table at the rim WHEN it crafts a stone pickaxe THEN it crafts from down there, without climbing out', async () => {
    const { game, bot } = await shared.avatar('quinn', -6, -6, [['cobblestone', 3], ['stick', 2]]);
    await shared.world.setBlock({ x: -5, y: 64, z: -6 }, 'crafting_table');
    // Five blocks down, as after digging out the stone for the pickaxe.
    for (const y of [63, 62, 61, 60, 59]) await shared.world.setBlock({ x: -6, y, z: -6 }, 'air');
    await teleportAndSettle(shared.world, game, { x: -5.5, y: 59, z: -5.5 });
    await waitFor(() => bot.blockAt(new Vec3(-5, 64, -6))?.name === 'crafting_table', 10_000, 'the table');
    let highest = bot.entity.position.y;
    const watch = (): void => {
      highest = Math.max(highest, bot.entity.position.y);
    };
    bot.on('move', watch);
    try {
      const r = await runSkill(skillNamed('craft'), game, { item: 'stone_pickaxe', count: 1 }, new AbortController().signal);
      expect(r).toMatchObject({ ok: true, code: 'done' });
    } finally {
      bot.off('move', watch);
    }
    expect(held(bot, 'stone_pickaxe')).toBe(1);
    expect(highest).toBeLessThan(59.5);
  }, 120_000);

  it('GIVEN a crafting table the avatar placed beside it WHEN it goes for ore THEN it takes the table along; one it did not place stays', async () => {
    const { game, bot } = await shared.avatar('rhea', 12, 12, [['crafting_table', 1], ['stone_pickaxe', 1]]);
    const placed = await runSkill(skillNamed('place'), game, { item: 'crafting_table' }, new AbortController().signal);
    expect(placed).toMatchObject({ ok: true });
    // Ore right under the feet: the collect is short.
    await shared.world.setBlock({ x: 12, y: 63, z: 12 }, 'iron_ore');
    await waitFor(() => bot.blockAt(new Vec3(12, 63, 12))?.name === 'iron_ore', 10_000, 'the ore');
    const r = await runSkill(skillNamed('collect'), game, { item: 'raw_iron', count: 1 }, new AbortController().signal);
    expect(r).toMatchObject({ ok: true, code: 'done' });
    expect(held(bot, 'crafting_table')).toBe(1);
    expect(bot.findBlock({ matching: bot.registry.blocksByName.crafting_table!.id, maxDistance: 8 })).toBeNull();

    const { game: other, bot: otherBot } = await shared.avatar('saul', -12, 12, [['stone_pickaxe', 1]]);
    await shared.world.setBlock({ x: -11, y: 64, z: 12 }, 'crafting_table');
    await shared.world.setBlock({ x: -12, y: 63, z: 12 }, 'iron_ore');
    await waitFor(() => otherBot.blockAt(new Vec3(-12, 63, 12))?.name === 'iron_ore' && otherBot.blockAt(new Vec3(-11, 64, 12))?.name === 'crafting_table', 10_000, 'the ore and the table');
    expect(await runSkill(skillNamed('collect'), other, { item: 'raw_iron', count: 1 }, new AbortController().signal)).toMatchObject({ ok: true, code: 'done' });
    expect(held(otherBot, 'crafting_table')).toBe(0);
    expect(otherBot.blockAt(new Vec3(-11, 64, 12))?.name).toBe('crafting_table');
  }, 120_000);

  it('GIVEN iron ore 14 blocks off inside solid stone WHEN an avatar in a pocket under ground collects raw iron THEN it tunnels there and gets it', async () => {
    const { game, bot } = await shared.avatar('tara', 40, -40, [['stone_pickaxe', 1], ['dirt', 8]]);
    const pocket = new Vec3(40, 49, -40);
    await shared.world.setBlock(pocket, 'air');
    await shared.world.setBlock(pocket.offset(0, 1, 0), 'air');
    // The only ore near: any the world put within 24 blocks becomes stone.
    await waitFor(() => bot.blockAt(pocket) !== null, 10_000, 'the pocket loaded');
    const iron = bot.registry.blocksByName.iron_ore!.id;
    for (const p of bot.findBlocks({ matching: iron, maxDistance: 24, count: 50, point: pocket })) await shared.world.setBlock(p, 'stone');
    const ore = pocket.offset(10, 1, 10);
    await shared.world.setBlock(ore, 'iron_ore');
    await teleportAndSettle(shared.world, game, { x: 40.5, y: 49, z: -39.5 });
    await waitFor(() => bot.blockAt(ore)?.name === 'iron_ore', 10_000, 'the ore');
    const r = await runSkill(skillNamed('collect'), game, { item: 'raw_iron', count: 1 }, new AbortController().signal);
    expect(r, r.detail).toMatchObject({ ok: true, code: 'done' });
    expect(held(bot, 'raw_iron')).toBeGreaterThanOrEqual(1);
    expect(bot.blockAt(ore)?.name).toBe('air');
  }, 150_000);
});
