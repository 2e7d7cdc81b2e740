/**
 * The embedded world's drop rules (src/game/embedded/tools.cjs), pure: which tool a block needs, what it drops,
 * and leaves' chances (seeded, so the counts are the same on every run).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import minecraftData from 'minecraft-data';

const require = createRequire(import.meta.url);
const { createDropRules, seeded } = require('../../src/game/embedded/tools.cjs') as {
  createDropRules(ctx: { registry: unknown; random: () => number }): { dropsOf(block: unknown, held: { type: number } | null): Array<{ id: number; count: number }> };
  seeded(seed: number): () => number;
};

const registry = minecraftData('1.21.4');
const { dropsOf } = createDropRules({ registry, random: seeded(42) });
const block = (name: string): unknown => registry.blocksByName[name];
const held = (name: string): { type: number } => ({ type: registry.itemsByName[name]!.id });
const names = (drops: Array<{ id: number; count: number }>): string[] => drops.map((d) => `${registry.items[d.id]!.name}×${d.count}`);

describe('drop rules', () => {
  it('GIVEN stone THEN a bare hand gets nothing and any pickaxe gets one cobblestone', () => {
    expect(dropsOf(block('stone'), null)).toEqual([]);
    expect(dropsOf(block('stone'), held('oak_planks'))).toEqual([]);
    expect(names(dropsOf(block('stone'), held('wooden_pickaxe')))).toEqual(['cobblestone×1']);
    expect(names(dropsOf(block('stone'), held('stone_pickaxe')))).toEqual(['cobblestone×1']);
  });

  it('GIVEN iron ore THEN a wooden pickaxe gets nothing and a stone pickaxe gets raw iron', () => {
    expect(dropsOf(block('iron_ore'), held('wooden_pickaxe'))).toEqual([]);
    expect(names(dropsOf(block('iron_ore'), held('stone_pickaxe')))[0]).toMatch(/^raw_iron×[12]$/);
  });

  it('GIVEN blocks that need no tool THEN logs, dirt and grass drop by hand (grass as dirt)', () => {
    expect(names(dropsOf(block('oak_log'), null))).toEqual(['oak_log×1']);
    expect(names(dropsOf(block('dirt'), null))).toEqual(['dirt×1']);
    expect(names(dropsOf(block('grass_block'), null))).toEqual(['dirt×1']);
    expect(names(dropsOf(block('crafting_table'), null))).toEqual(['crafting_table×1']);
  });

  it('GIVEN 4000 oak leaves dug by hand THEN about 1 in 200 gives an apple, 1 in 20 a sapling, 1 in 50 sticks, and never the leaves', () => {
    const totals: Record<string, number> = {};
    let withNothing = 0;
    for (let i = 0; i < 4000; i++) {
      const drops = dropsOf(block('oak_leaves'), null);
      if (drops.length === 0) withNothing += 1;
      for (const d of drops) {
        const name = registry.items[d.id]!.name;
        totals[name] = (totals[name] ?? 0) + 1;
      }
    }
    expect(totals.oak_leaves).toBeUndefined();
    expect(totals.apple).toBeGreaterThanOrEqual(8);
    expect(totals.apple).toBeLessThanOrEqual(35);
    expect(totals.oak_sapling).toBeGreaterThanOrEqual(150);
    expect(totals.oak_sapling).toBeLessThanOrEqual(260);
    expect(totals.stick).toBeGreaterThanOrEqual(50);
    expect(totals.stick).toBeLessThanOrEqual(115);
    expect(withNothing).toBeGreaterThan(3500);
    // Shears take the leaves themselves.
    expect(names(dropsOf(block('oak_leaves'), held('shears')))).toEqual(['oak_leaves×1']);
  });
});
