/**
 * prismarine-recipe's tables, one set per Minecraft version.
 *
 * mineflayer finds recipes (`bot.recipesFor`, `bot.recipesAll`) through
 * prismarine-recipe, whose `Recipe.find` reads a recipe table and an item
 * table kept in its module: every bot created sets them to its own
 * version's. With bots of two versions in one process, the one created last
 * decides for both, and the other looks its item ids up in the wrong
 * version's table ("oak_planks cannot be crafted"). The module's loader is
 * replaced, in the module cache mineflayer requires it from, by one that
 * gives each recipe table a fresh copy of the module, its tables set once
 * by that copy's own loader: bots of one version share a copy, bots of
 * another version never touch it.
 */
import { createRequire } from 'node:module';

/** What prismarine-recipe's `lib/recipe.js` exports: it sets its tables from the registry and returns `Recipe`. */
type RecipeLoader = (registry: { recipes?: object }) => unknown;

let installed = false;

/**
 * Install the per-version loader (once per process; bots created earlier keep the shared tables).
 *
 * @example
 * recipesPerVersion(); // before the first bot is created
 */
export function recipesPerVersion(): void {
  if (installed) return;
  installed = true;
  // The copy mineflayer's crafting uses: resolved from mineflayer (our dependency) down to it.
  const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer'));
  const fromRecipe = createRequire(fromMineflayer.resolve('prismarine-recipe'));
  const id = fromRecipe.resolve('./lib/recipe');
  fromRecipe(id);
  const entry = fromRecipe.cache[id];
  if (!entry) throw new Error(`prismarine-recipe's ${id} is not in the module cache`);
  const copies = new WeakMap<object, unknown>();
  // prismarine-recipe's index requires this module on each load, so it gets the replaced loader from then on.
  const perTable: RecipeLoader = (registry) => {
    // A version with no recipe table gets a copy per registry (each bot its own): still never another version's.
    const table = registry.recipes ?? registry;
    const known = copies.get(table);
    if (known) return known;
    // A fresh evaluation of the module (its own tables); the shared entry goes back into the cache at once.
    delete fromRecipe.cache[id];
    let fresh: RecipeLoader;
    try {
      fresh = fromRecipe(id) as RecipeLoader;
    } finally {
      fromRecipe.cache[id] = entry;
    }
    const Recipe = fresh(registry);
    copies.set(table, Recipe);
    return Recipe;
  };
  entry.exports = perTable;
}
