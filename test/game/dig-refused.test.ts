/**
 * Digs the world sends back, on the embedded world with real mineflayer: when the start and the end of a dig reach
 * the world at once (as after a stall of its loop), it refuses the dig as too fast and sends the block back with
 * nothing dropped. The skills that dig (collect, dig in, the room a block is placed in) dig again. The test holds
 * the start of the avatar's next digs back and sends it with the end (`digsArriveAtOnce`). Natural spawning is off.
 */
import { describe, expect, it } from 'vitest';
import { runSkill } from '../../skills/index.ts';
import { digIn, dugIn } from '../../skills/dig-in.ts';
import { digsArriveAtOnce, held, skillNamed, teleportAndSettle, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('dig-refused');

describe('digs the world sends back', () => {
  it('GIVEN a log beside an avatar and a world that gets the start and the end of its next four digs at once WHEN it collects a log THEN the world sends the log back four times and the avatar digs it again until it has it', async () => {
    const { game, bot } = await shared.avatar('rae', 12, -12);
    await shared.world.setBlock({ x: 13, y: 64, z: -12 }, 'oak_log');
    await waitFor(() => bot.blockAt(bot.entity.position.floored().set(13, 64, -12))?.name === 'oak_log', 10_000, 'the log');
    const digs = digsArriveAtOnce(bot, 4);
    try {
      const r = await runSkill(skillNamed('collect'), game, { item: 'oak_log', count: 1 }, new AbortController().signal);
      expect(r, r.detail).toMatchObject({ ok: true, code: 'done' });
      expect(held(bot, 'oak_log')).toBe(1);
      expect(digs.held()).toBe(4);
      expect(digs.sentBack()).toBe(4);
      expect(digs.ended()).toBe(5);
    } finally {
      digs.stop();
    }
  }, 120_000);

  it('GIVEN an avatar on open ground and a world that gets the start and the end of its next dig at once WHEN it digs in THEN the world sends the first block back, the avatar digs it again and gets under ground', async () => {
    const { bot } = await shared.avatar('sam', -12, 12, [['stone_pickaxe', 1], ['dirt', 8]]);
    const digs = digsArriveAtOnce(bot, 1);
    try {
      const why = await digIn(bot, new AbortController().signal, 5);
      expect(why).toBeNull();
      expect(dugIn(bot, 5)).toBe(true);
      expect(digs.sentBack()).toBe(1);
    } finally {
      digs.stop();
    }
  }, 120_000);

  it('GIVEN an avatar boxed in by dirt in a pit and a world that gets the start and the end of its next dig at once WHEN it places a furnace THEN the world sends the dirt back, the avatar digs it again and the furnace stands in the room', async () => {
    // The embedded world sets a placed block over one that is there; vanilla would refuse to place into the dirt.
    const { game, bot } = await shared.avatar('tia', 12, 12, [['furnace', 1]]);
    for (const y of [63, 62]) await shared.world.setBlock({ x: 12, y, z: 12 }, 'air');
    const sides = [{ x: 13, y: 62, z: 12 }, { x: 11, y: 62, z: 12 }, { x: 12, y: 62, z: 13 }, { x: 12, y: 62, z: 11 }];
    for (const side of sides) await shared.world.setBlock(side, 'dirt');
    await teleportAndSettle(shared.world, game, { x: 12.5, y: 62, z: 12.5 });
    const digs = digsArriveAtOnce(bot, 1);
    try {
      const r = await runSkill(skillNamed('place'), game, { item: 'furnace' }, new AbortController().signal);
      expect(r, r.detail).toMatchObject({ ok: true, code: 'done' });
      expect(digs.sentBack()).toBe(1);
      expect(digs.ended()).toBe(2);
      const blocks = await Promise.all(sides.map((side) => shared.world.blockAt(side)));
      expect(blocks.filter((b) => b === 'furnace')).toHaveLength(1);
    } finally {
      digs.stop();
    }
  }, 120_000);
});
