// @ts-check
'use strict';
/*
 * Dying in the embedded world: a player who dies (to a zombie, to starvation on hard) respawns at the world
 * spawn, as in vanilla, and keeps its inventory (as with vanilla's keepInventory rule).
 *
 * flying-squid 1.12.0 respawns a player where it died, which puts it back next to whatever killed it.
 */
const { guard } = require('./guard.cjs');

/**
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 */

/**
 * Install respawning at the world spawn.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ spawn: import('vec3').Vec3 }} ctx
 */
function respawn(serv, { spawn }) {
  serv.on('newPlayer', (/** @type {Player} */ player) => {
    player.on('requestRespawn_done', guard('respawn: back to the spawn', () => player.teleport(spawn.clone())));
  });
}

module.exports = respawn;
