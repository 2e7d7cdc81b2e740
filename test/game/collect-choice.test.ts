/**
 * Which block the collect skill goes for, on the embedded world with real mineflayer: not a log another avatar has
 * claimed however many are claimed around it, not one shut in above its head (a trunk's top inside the canopy), not
 * one it could not get to in its last run; and in its pit, the stone beside its feet before the stone under them. Each test records the claims the avatar makes (the first is the
 * block it went for first) through the claims' listener, as the avatar hosts share them. The world's trees stand
 * 19 blocks and more from the spawn point, so the blocks the tests set down near it are the nearest logs.
 */
import type { Bot } from 'mineflayer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claim, shareClaims } from '../../skills/claims.ts';
import { runSkill } from '../../skills/index.ts';
import { findBlocksFast } from '../../src/game/block-search.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { held, skillNamed, teleportAndSettle, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('collect-choice');

/** The blocks each avatar claimed, in order (`x,y,z`). */
let claimed: Array<{ by: string; at: string }> = [];

beforeEach(() => {
  claimed = [];
  shareClaims((key, by, until) => {
    if (until !== null) claimed.push({ by, at: key.slice(key.indexOf('|') + 1) });
  });
});

afterEach(() => shareClaims(undefined));

function collectLog(game: MineflayerGame) {
  return runSkill(skillNamed('collect'), game, { item: 'oak_log', count: 1 }, new AbortController().signal);
}

function firstClaimOf(name: string): string | undefined {
  return claimed.find((c) => c.by === name)?.at;
}

async function blocksAt(bot: Bot, blocks: Array<{ x: number; y: number; z: number; name: string }>): Promise<void> {
  for (const b of blocks) await shared.world.setBlock(b, b.name);
  const { x, y, z, name } = blocks[blocks.length - 1]!;
  await waitFor(() => bot.blockAt(bot.entity.position.floored().set(x, y, z))?.name === name, 10_000, `the ${name} at ${x} ${y} ${z}`);
}

describe('which log collect goes for', () => {
  it('GIVEN the 24 logs nearest an avatar claimed by another avatar WHEN it collects a log THEN it goes for an unclaimed one first and the claimed ones still stand', async () => {
    const { game, bot } = await shared.avatar('cid', 40, -40);
    const other = await shared.avatar('dee', 44, -40);
    const ids = [bot.registry.blocksByName.oak_log!.id];
    const nearest = findBlocksFast(bot, ids, { maxDistance: 64, count: 24 });
    expect(nearest).toHaveLength(24);
    const releases = nearest.map((p) => claim(other.bot, p));
    try {
      const r = await collectLog(game);
      expect(r, r.detail).toMatchObject({ ok: true, code: 'done' });
      expect(held(bot, 'oak_log')).toBe(1);
      const taken = new Set(nearest.map((p) => `${p.x},${p.y},${p.z}`));
      const first = firstClaimOf('cid');
      expect(first, `cid went first for ${first}, one of the claimed logs`).toBeDefined();
      expect(taken.has(first!), `cid went first for ${first}, one of the claimed logs`).toBe(false);
      const names = await Promise.all(nearest.map((p) => shared.world.blockAt(p)));
      expect(names.every((n) => n === 'oak_log')).toBe(true);
    } finally {
      for (const release of releases) release();
    }
  }, 180_000);

  it('GIVEN the log nearest an avatar shut in by leaves above its head WHEN it collects a log THEN it goes first for one it can get to, and the shut-in log still stands', async () => {
    const { game, bot } = await shared.avatar('ada', 0, 0);
    const log = { x: 1, y: 67, z: 2 };
    const sides = [
      [-1, 0, 0],
      [1, 0, 0],
      [0, 1, 0],
      [0, -1, 0],
      [0, 0, -1],
      [0, 0, 1],
    ].map(([dx, dy, dz]) => ({ x: log.x + dx!, y: log.y + dy!, z: log.z + dz!, name: 'oak_leaves' }));
    await blocksAt(bot, [...sides, { ...log, name: 'oak_log' }]);
    const r = await collectLog(game);
    expect(r, r.detail).toMatchObject({ ok: true, code: 'done' });
    expect(firstClaimOf('ada')).toBeDefined();
    expect(firstClaimOf('ada')).not.toBe('1,67,2');
    expect(await shared.world.blockAt(log)).toBe('oak_log');
  }, 180_000);

  it('GIVEN a log out of an avatar’s reach that it went for in its last run WHEN it collects a log again THEN it goes first for another one', async () => {
    const { game, bot } = await shared.avatar('bea', -40, 0);
    // In the air above the ground, higher than an avatar reaches, and the avatar has nothing to build up with.
    const log = { x: -40, y: 71, z: 0 };
    await blocksAt(bot, [{ ...log, name: 'oak_log' }]);
    const first = await collectLog(game);
    expect(first, first.detail).toMatchObject({ ok: true, code: 'done' });
    expect(firstClaimOf('bea'), 'the log in the air is the nearest: the first run goes for it').toBe('-40,71,0');
    // Back where it stood, the log in the air the nearest again.
    await teleportAndSettle(shared.world, game, { x: -39.5, y: 64, z: 0.5 });
    claimed = [];
    const again = await collectLog(game);
    expect(again, again.detail).toMatchObject({ ok: true, code: 'done' });
    expect(firstClaimOf('bea')).toBeDefined();
    expect(firstClaimOf('bea')).not.toBe('-40,71,0');
    expect(held(bot, 'oak_log')).toBe(2);
  }, 180_000);

  it('GIVEN an avatar with a wooden pickaxe on the grass WHEN it collects 3 cobblestone THEN it digs down to the stone and takes the stone beside its feet, not ever deeper under them', async () => {
    const { game, bot } = await shared.avatar('eve', -4, -4, [['wooden_pickaxe', 1]]);
    const r = await runSkill(skillNamed('collect'), game, { item: 'cobblestone', count: 3 }, new AbortController().signal);
    expect(r, r.detail).toMatchObject({ ok: true, code: 'done' });
    expect(held(bot, 'cobblestone')).toBe(3);
    // The stone's top is at 59: standing there, a table set down beside the pit is still within reach.
    expect(Math.floor(bot.entity.position.y)).toBeGreaterThanOrEqual(59);
  }, 180_000);
});
