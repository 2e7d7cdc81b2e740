// @ts-check
'use strict';
/*
 * Server plugin of the embedded world: how many items may lie about.
 *
 * flying-squid counts every entity, players and items lying on the ground alike, against its `max-entities` and
 * throws from the spawn when it is over. Thrown from a dig's drop (an async handler), that ended the world process
 * (an unhandled rejection): with 100 avatars digging around the spawn, the dirt, saplings and sticks they left lying
 * passed the 500 in a minute and a half, and every avatar was thrown out while the world started again. A player's
 * login would have been refused the same way.
 *
 * Here the cap holds back items only: a drop that would make more than `maxItems` lie about is not made (the block
 * is dug all the same; items lie five minutes, then go), and a player always joins (`max-players` caps those).
 * The server is started with no cap of its own (server.cjs).
 */

/**
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @param {{ maxItems: number }} opts
 */
function install(serv, { maxItems }) {
  if (typeof serv.spawnObject !== 'function') throw new Error('entity-cap: flying-squid has no serv.spawnObject; this version is not supported');
  const spawnObject = serv.spawnObject;
  let held = 0;
  /** @type {typeof serv.spawnObject} */
  serv.spawnObject = (type, world, position, opts) => {
    const items = Object.keys(serv.entities).length - serv.players.length;
    if (items >= maxItems) {
      if (held++ % 100 === 0) serv.debug?.(`[entity-cap] ${items} items lie about; ${held} drops not made`);
      return undefined;
    }
    return spawnObject(type, world, position, opts);
  };
}

module.exports = { install };
