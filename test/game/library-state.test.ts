/**
 * The game libraries loaded for two Minecraft versions in one process, as two bots of those versions load
 * them: what was loaded for the first version still answers by that version once the second was loaded.
 * Each id below means another thing in the other version, so a table shared across versions shows.
 * (The physics and the pathfinder's moves, built per bot, are played in both versions side by side in
 * mixed-versions.test.ts.)
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Vec3 } from 'vec3';
import { prepareLibraries } from '../../src/game/library-state.ts';

/** The libraries as mineflayer requires them (the copies its bots use). */
const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer'));
const OLD = '1.18.2';
const NEW = '1.21.4';

interface Registry {
  itemsByName: Record<string, { id: number }>;
  items: Record<number, { name: string }>;
  blocksByName: Record<string, { defaultState: number }>;
  blocksByStateId: Record<number, { name: string }>;
}
interface Finder {
  find(id: number, meta: null): Array<{ delta: Array<{ id: number; count: number }> }>;
}
type RecipeLoader = (registry: Registry) => { Recipe: Finder };

const registry = (version: string): Registry => fromMineflayer('prismarine-registry')(version) as Registry;

/** Load `library` for OLD, then for NEW, and hand back OLD's with both registries. */
function loadedTwice<T>(library: string): { old: T; oldRegistry: Registry; newRegistry: Registry } {
  const load = fromMineflayer(library) as (r: Registry) => T;
  const oldRegistry = registry(OLD);
  const newRegistry = registry(NEW);
  const old = load(oldRegistry);
  load(newRegistry);
  return { old, oldRegistry, newRegistry };
}

describe(`GIVEN the libraries loaded for ${OLD} and then for ${NEW} in one process`, () => {
  it(`GIVEN mineflayer's recipe finder THEN ${OLD}'s finds ${OLD}'s planks recipe from ${OLD}'s logs, before and after ${NEW}'s is used`, () => {
    prepareLibraries();
    const load = fromMineflayer('prismarine-recipe') as RecipeLoader;
    const [old, current] = [registry(OLD), registry(NEW)];
    const oldRecipe = load(old).Recipe;
    const newRecipe = load(current).Recipe;
    /** Each planks recipe the finder has, as what it takes and gives (`oak_log×-1 oak_planks×4`). */
    const planksFrom = (r: Registry, Recipe: Finder): string[] =>
      Recipe.find(r.itemsByName.oak_planks!.id, null).map((recipe) => recipe.delta.map((d) => `${r.items[d.id]?.name}×${d.count}`).join(' '));
    expect(old.itemsByName.oak_planks!.id).not.toBe(current.itemsByName.oak_planks!.id);
    expect(planksFrom(old, oldRecipe)).toContain('oak_log×-1 oak_planks×4');
    expect(planksFrom(current, newRecipe)).toContain('oak_log×-1 oak_planks×4');
    // Loading again (a third bot) gives each version the finder it had.
    expect(load(registry(OLD)).Recipe).toBe(oldRecipe);
    expect(planksFrom(old, oldRecipe)).toContain('oak_log×-1 oak_planks×4');
  });

  it(`GIVEN prismarine-item THEN ${OLD}'s names ${OLD}'s item ids`, () => {
    const { old: Item, oldRegistry, newRegistry } = loadedTwice<new (type: number, count: number) => { name: string }>('prismarine-item');
    const id = oldRegistry.itemsByName.oak_planks!.id;
    expect(newRegistry.items[id]?.name).not.toBe('oak_planks');
    expect(new Item(id, 1).name).toBe('oak_planks');
  });

  it(`GIVEN prismarine-block THEN ${OLD}'s names ${OLD}'s block states`, () => {
    const { old: Block, oldRegistry, newRegistry } = loadedTwice<{ fromStateId(state: number, biome: number): { name: string } }>('prismarine-block');
    const state = oldRegistry.blocksByName.crafting_table!.defaultState;
    expect(newRegistry.blocksByStateId[state]?.name).not.toBe('crafting_table');
    expect(Block.fromStateId(state, 0).name).toBe('crafting_table');
  });

  it(`GIVEN prismarine-chunk THEN a block set in ${OLD}'s chunk reads back as ${OLD}'s block`, () => {
    const { old: Chunk, oldRegistry } = loadedTwice<new (opts: object) => { setBlockStateId(p: Vec3, s: number): void; getBlock(p: Vec3): { name: string } }>('prismarine-chunk');
    const chunk = new Chunk({ minY: -64, worldHeight: 384 });
    const at = new Vec3(1, 64, 1);
    chunk.setBlockStateId(at, oldRegistry.blocksByName.crafting_table!.defaultState);
    expect(chunk.getBlock(at).name).toBe('crafting_table');
  });

  it(`GIVEN prismarine-windows THEN ${OLD}'s window counts and names ${OLD}'s items`, () => {
    type Win = { updateSlot(slot: number, item: unknown): void; items(): Array<{ name: string; count: number }> };
    const { old: windows, oldRegistry } = loadedTwice<{ createWindow(id: number, type: string, title: string): Win }>('prismarine-windows');
    const { old: Item } = loadedTwice<new (type: number, count: number) => unknown>('prismarine-item');
    const table = windows.createWindow(1, 'minecraft:crafting', 'Crafting');
    table.updateSlot(10, new Item(oldRegistry.itemsByName.oak_planks!.id, 3));
    expect(table.items().map((i) => `${i.name}×${i.count}`)).toEqual(['oak_planks×3']);
  });
});
