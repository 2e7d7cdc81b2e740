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
 * Here the cap is on items only: a drop that would make more than `maxItems` lie about takes the place of the one
 * that has lain longest (vanilla's items go after five minutes; these do too), so a dig always drops, and a player
 * always joins (`max-players` caps those). The server is started with no cap of its own (server.cjs). Refusing the
 * drop instead left the avatars digging logs for nothing once 400 items lay about.
 */

/**
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @param {{ maxItems: number }} opts
 */
function install(serv, { maxItems }) {
  if (typeof serv.spawnObject !== 'function') throw new Error('entity-cap: flying-squid has no serv.spawnObject; this version is not supported');
  const spawnObject = serv.spawnObject;
  /** @type {typeof serv.spawnObject} */
  serv.spawnObject = (type, world, position, opts) => {
    let items = Object.keys(serv.entities).length - serv.players.length;
    // Entities by id, so oldest first.
    for (const entity of Object.values(serv.entities)) {
      if (items < Math.max(1, maxItems)) break;
      const e = /** @type {{ type?: string, destroy?: () => void }} */ (entity);
      if (e.type !== 'object' || typeof e.destroy !== 'function') continue;
      e.destroy();
      items--;
    }
    return spawnObject(type, world, position, opts);
  };
}

module.exports = { install };
