// @ts-check
'use strict';
/*
 * A teleported player gets the chunks around where it lands, as in vanilla.
 *
 * flying-squid 1.12.0 sends chunks only when a player's own moves take it 16 blocks from where chunks were
 * last sent, and skips that while a send is still under way: a teleport during one, or one shorter than
 * 16 blocks into another chunk, left the edge of the player's view unsent until it walked on (a bot
 * standing there waited for its chunks for ever).
 */

/**
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 */

/**
 * Install the chunk send after every teleport (the admin teleport, a respawn at the spawn).
 *
 * @param {Serv} serv the flying-squid server
 */
function teleportChunks(serv) {
  serv.on('newPlayer', (/** @type {Player} */ player) => {
    const teleport = player.teleport;
    player.teleport = async (position) => {
      await teleport(position);
      // Chunks the player already has are skipped; this sends the rest of its view around the new position.
      await player.worldSendRestOfChunks();
    };
  });
}

module.exports = teleportChunks;
