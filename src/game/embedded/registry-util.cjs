// @ts-check
'use strict';
/*
 * Lookups in minecraft-data's tables that the plugins cannot do without.
 */

/**
 * The entry `name` of one of the registry's by-name tables; an error saying what this version lacks when it
 * has none (every version flying-squid serves has what the plugins look up this way).
 * @template T
 * @param {Record<string, T | undefined>} table e.g. `registry.blocksByName`
 * @param {string} name
 * @param {string} what the table's kind, for the error: `block`, `item`, `entity`
 * @returns {T}
 */
function known(table, name, what) {
  const entry = table[name];
  if (entry === undefined) throw new Error(`${what} ${name} is not in this version`);
  return entry;
}

module.exports = { known };
