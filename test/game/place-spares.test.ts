/**
 * The place skill on the embedded world with real mineflayer: the walk to a spot out of reach does not build its way
 * up with the very block it is to place (the pathfinder's scaffolding takes dirt first, then cobblestone).
 */
import { describe, expect, it } from 'vitest';
import { runSkill } from '../../skills/index.ts';
import { held, skillNamed, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('place-spares');

describe('what the place skill spends on its way', () => {
  it('GIVEN an avatar holding 2 dirt and 2 cobblestone and a stone pillar whose top is out of its reach WHEN it places dirt on the top THEN it climbs on the cobblestone and the dirt is placed', async () => {
    const { game, bot } = await shared.avatar('pia', 0, 0, [
      ['dirt', 2],
      ['cobblestone', 2],
    ]);
    // Four stone high beside the avatar: its top, 68, is beyond reach from the ground.
    for (let y = 64; y <= 67; y++) await shared.world.setBlock({ x: 3, y, z: 0 }, 'stone');
    await waitFor(() => bot.blockAt(bot.entity.position.floored().set(3, 67, 0))?.name === 'stone', 10_000, 'the pillar');
    const r = await runSkill(skillNamed('place'), game, { item: 'dirt', x: 3, y: 68, z: 0 }, new AbortController().signal);
    expect(r, r.detail).toMatchObject({ ok: true, code: 'done' });
    expect(await shared.world.blockAt({ x: 3, y: 68, z: 0 })).toBe('dirt');
    expect(held(bot, 'dirt')).toBe(1);
    expect(held(bot, 'cobblestone')).toBeLessThan(2);
  }, 120_000);

  it('GIVEN an avatar holding only 2 dirt and the same pillar WHEN it places dirt on the top THEN it spends none on the way: it holds 2 less the one it placed, if it could', async () => {
    const { game, bot } = await shared.avatar('pim', 20, 0, [['dirt', 2]]);
    for (let y = 64; y <= 67; y++) await shared.world.setBlock({ x: 23, y, z: 0 }, 'stone');
    await waitFor(() => bot.blockAt(bot.entity.position.floored().set(23, 67, 0))?.name === 'stone', 10_000, 'the pillar');
    const r = await runSkill(skillNamed('place'), game, { item: 'dirt', x: 23, y: 68, z: 0 }, new AbortController().signal);
    const placed = (await shared.world.blockAt({ x: 23, y: 68, z: 0 })) === 'dirt';
    expect(r.ok, r.detail).toBe(placed);
    expect(held(bot, 'dirt'), r.detail).toBe(placed ? 1 : 2);
  }, 120_000);
});
