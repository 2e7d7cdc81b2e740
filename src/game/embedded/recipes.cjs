// @ts-check
'use strict';
/*
 * Crafting recipes for the embedded world: match a crafting grid against
 * minecraft-data's recipes (shaped, mirrored shaped, shapeless).
 *
 * minecraft-data 1.21.4 lists 803 result items with their tag ingredients
 * already expanded into one recipe per variant, and no leftovers (`outShape`):
 * the items that leave something behind in the grid are listed here, as in
 * vanilla (buckets and bottles).
 */

/**
 * A crafting recipe as minecraft-data lists it for the versions served: item ids, null (or -1) for an empty cell.
 * (Its own types allow older forms, `[id, metadata]` pairs, that these versions do not use.)
 * @typedef {object} Recipe
 * @property {{ id: number, count: number }} result
 * @property {Array<Array<number | null | undefined>>} [inShape]
 * @property {Array<number | { id: number }>} [ingredients]
 */

/**
 * The recipe a grid makes.
 * @typedef {{ result: { id: number, count: number }, recipe: Recipe }} Match
 */

/** @typedef {{ type: number, count: number } | null | undefined} Cell */

/** @type {Record<string, string>} Items that leave another item behind when crafted with (vanilla's "crafting remainder"). */
const REMAINDERS = {
  milk_bucket: 'bucket',
  water_bucket: 'bucket',
  lava_bucket: 'bucket',
  powder_snow_bucket: 'bucket',
  honey_bottle: 'glass_bottle',
  dragon_breath: 'glass_bottle',
};

/**
 * A recipe book over a registry.
 *
 * @param {import('./types.cjs').Registry} registry a minecraft-data registry (serv.registry)
 * @returns {{ match(grid: Cell[], width: number): Match | null, remainderOf(type: number): number | null }}
 *   `match` takes the grid row by row (`width` × `width`, null for empty) and returns the recipe it makes,
 *   or null. A Match is `{ result: { id, count }, recipe }`.
 */
function createRecipeBook(registry) {
  /** @type {Array<{ recipe: Recipe, height: number, width: number, grid: Array<Array<number | null>>, cells: number }>} */
  const shaped = [];
  /** @type {Array<{ recipe: Recipe, ids: number[] }>} */
  const shapeless = [];
  const recipes = /** @type {Record<string, Recipe[]>} */ (/** @type {unknown} */ (registry.recipes));
  for (const list of Object.values(recipes)) {
    for (const recipe of list) {
      if (recipe.inShape) {
        const rows = recipe.inShape.map((row) => row.map((id) => (id === null || id === undefined || id === -1 ? null : id)));
        const width = Math.max(...rows.map((r) => r.length));
        const grid = rows.map((r) => [...r, ...Array(width - r.length).fill(null)]);
        shaped.push({ recipe, height: grid.length, width, grid, cells: grid.flat().filter((id) => id !== null).length });
      } else if (recipe.ingredients) {
        const ids = recipe.ingredients.map((i) => (typeof i === 'object' && i !== null ? i.id : i)).sort((a, b) => a - b);
        shapeless.push({ recipe, ids });
      }
    }
  }

  /** @type {Map<number, number>} */
  const remainders = new Map();
  for (const [from, to] of Object.entries(REMAINDERS)) {
    const a = registry.itemsByName[from];
    const b = registry.itemsByName[to];
    if (a && b) remainders.set(a.id, b.id);
  }

  /**
   * The non-empty part of the grid: its bounding box as rows of ids.
   * @param {Cell[]} grid
   * @param {number} width
   * @returns {Array<Array<number | null>> | null}
   */
  function trim(grid, width) {
    let minX = width;
    let minY = width;
    let maxX = -1;
    let maxY = -1;
    for (let y = 0; y < width; y++) {
      for (let x = 0; x < width; x++) {
        if (grid[y * width + x]) {
          minX = Math.min(minX, x);
          maxX = Math.max(maxX, x);
          minY = Math.min(minY, y);
          maxY = Math.max(maxY, y);
        }
      }
    }
    if (maxX < 0) return null;
    const rows = [];
    for (let y = minY; y <= maxY; y++) {
      /** @type {Array<number | null>} */
      const row = [];
      for (let x = minX; x <= maxX; x++) row.push(grid[y * width + x]?.type ?? null);
      rows.push(row);
    }
    return rows;
  }

  /**
   * @param {Array<Array<number | null>>} rows
   * @param {(typeof shaped)[number]} candidate
   * @param {boolean} mirrored
   */
  function sameShape(rows, candidate, mirrored) {
    for (let y = 0; y < candidate.height; y++) {
      for (let x = 0; x < candidate.width; x++) {
        const want = candidate.grid[y]?.[mirrored ? candidate.width - 1 - x : x];
        if (rows[y]?.[x] !== want) return false;
      }
    }
    return true;
  }

  /**
   * @param {Cell[]} grid
   * @param {number} width
   * @returns {Match | null}
   */
  function match(grid, width) {
    const rows = trim(grid, width);
    if (!rows) return null;
    const height = rows.length;
    const w = rows[0]?.length ?? 0;
    const ids = /** @type {number[]} */ (rows.flat().filter((id) => id !== null));
    for (const c of shaped) {
      if (c.height !== height || c.width !== w || c.cells !== ids.length) continue;
      if (sameShape(rows, c, false) || sameShape(rows, c, true)) return { result: c.recipe.result, recipe: c.recipe };
    }
    const sorted = [...ids].sort((a, b) => a - b);
    for (const c of shapeless) {
      if (c.ids.length !== sorted.length) continue;
      if (c.ids.every((id, i) => id === sorted[i])) return { result: c.recipe.result, recipe: c.recipe };
    }
    return null;
  }

  return {
    match,
    /**
     * The item id left behind when `type` is crafted with, or null.
     * @param {number} type
     */
    remainderOf(type) {
      return remainders.get(type) ?? null;
    },
  };
}

module.exports = { createRecipeBook, REMAINDERS };
