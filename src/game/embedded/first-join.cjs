// @ts-check
'use strict';
/*
 * What the world's first join would otherwise wait for, done by the world child (server.cjs) once it listens
 * and before anyone joins: the version's packet codecs, and the columns a player joining at the spawn is sent
 * first.
 */

/**
 * minecraft-protocol compiles a version's packet codecs (per state and direction, once per process) when the
 * first client needs them: do it before anyone joins. The states a join goes through: the status ping's (the
 * server list's) is compiled when a ping first needs it.
 * @param {string} version
 */
function warmUp(version) {
  // The copy flying-squid serves with.
  const protocol = /** @type {typeof import('minecraft-protocol')} */ (require(require.resolve('minecraft-protocol', { paths: [require.resolve('flying-squid')] })));
  for (const state of Object.values(protocol.states).filter((s) => s !== protocol.states.STATUS)) {
    protocol.createSerializer({ state, isServer: true, version, customPackets: {} });
    protocol.createDeserializer({ state, isServer: true, version, customPackets: {} });
  }
}

/**
 * Load (on a new world, generate) the columns flying-squid sends a player joining at the spawn before it spawns
 * them (those within 3 chunks, as its world plugin counts them), while no one has joined yet: the first join then
 * only waits for them to be sent. The generator is deterministic, so a column is the same whenever it is made.
 * @param {import('./types.cjs').Serv} serv
 * @param {import('vec3').Vec3} spawn
 */
async function loadSpawnArea(serv, spawn) {
  const view = 3;
  const chunkX = Math.floor(spawn.x / 16);
  const chunkZ = Math.floor(spawn.z / 16);
  for (let dx = -view; dx < view; dx++) {
    for (let dz = -view; dz < view; dz++) await serv.overworld.getColumn(chunkX + dx, chunkZ + dz);
  }
}

module.exports = { warmUp, loadSpawnArea };
