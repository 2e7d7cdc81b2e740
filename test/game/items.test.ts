import { describe, expect, it } from 'vitest';
import { itemQuery, matchesItem } from '../../skills/items.ts';

describe('skills/items matchesItem', () => {
  it('GIVEN log, logs or wood THEN any log matches and planks do not', () => {
    for (const q of ['log', 'logs', 'wood', 'Logs']) {
      expect(matchesItem(q, 'oak_log')).toBe(true);
      expect(matchesItem(q, 'birch_log')).toBe(true);
      expect(matchesItem(q, 'oak_planks')).toBe(false);
    }
  });

  it('GIVEN a species phrase THEN only that species matches', () => {
    expect(matchesItem('oak logs', 'oak_log')).toBe(true);
    expect(matchesItem('oak logs', 'spruce_log')).toBe(false);
    expect(matchesItem('oak_log', 'oak_log')).toBe(true);
  });

  it('GIVEN stone THEN cobblestone and stone match', () => {
    expect(matchesItem('stone', 'cobblestone')).toBe(true);
    expect(matchesItem('stone', 'stone')).toBe(true);
    expect(matchesItem('cobblestone', 'minecraft:stone')).toBe(true);
    expect(matchesItem('stone', 'dirt')).toBe(false);
  });

  it('GIVEN plurals and spaces THEN they become registry names', () => {
    expect(itemQuery('crafting tables')).toBe('crafting_table');
    expect(matchesItem('sticks', 'stick')).toBe(true);
    expect(matchesItem('wooden pickaxe', 'wooden_pickaxe')).toBe(true);
    expect(matchesItem('torches', 'torch')).toBe(true);
  });
});
