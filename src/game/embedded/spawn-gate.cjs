// @ts-check
'use strict';
/*
 * Server plugin of the embedded world: nothing about the world reaches a player before its login and
 * spawn are complete.
 *
 * flying-squid puts a joining player into `serv.entities` (as a 'player', at 0 0 0) before it has read
 * the player's save and sent the `login` packet, and its broadcasts pick their recipients from the
 * entities near the sender. So a bot that joins while another digs got `block_break_animation` (and
 * entity moves, chat, block changes) before `login`, when mineflayer has no world yet: its handler threw
 * inside the packet stream and took the bot's whole process down.
 *
 * Two gates, at the places flying-squid sends from:
 *  1. Per client, until `login` is written: every packet but connection housekeeping is dropped.
 *     This covers every path, including the ones that loop over `serv.players` and write directly.
 *     Nothing is lost: the chunks, inventory and players a newcomer needs are sent after `login`.
 *  2. Until the player has spawned (flying-squid's `spawned`, after the chunks, inventory, tab list,
 *     the entities around it and its health): the player is no recipient of broadcasts (`_writeArray`,
 *     `_writeAll`, `getNearby`, chat `broadcast`) and is invisible to the others' nearby-entity lists.
 *     Block changes sent straight to it after `login` still arrive, so its chunks stay right.
 *  3. Its own entity exchange (`updateAndSpawn`: the entities around it spawned to it, and it to the players
 *     around it) runs once, when it has spawned, and from then on as flying-squid runs it. A client's moves
 *     start before its login is done, and each move of more than 2 blocks ran the exchange: before `login`
 *     the others' spawns were dropped by gate 1 but counted as sent, so the joiner never saw them; after
 *     `login` but before the tab list they came without their `player_info`, and mineflayer keeps such a
 *     player entity nameless (`bot.players[name].entity` never set). Both ways, the others got the joiner
 *     before its `player_info` too.
 *
 * Installed from server.cjs: `require('./spawn-gate.cjs').install(serv)`.
 */

/**
 * Packets never held back: those that keep the connection alive or end it, and the tab-list header,
 * which flying-squid writes to a player once, as it creates it (nothing about the world).
 */
const ALWAYS = new Set(['keep_alive', 'kick_disconnect', 'ping', 'playerlist_header']);

/**
 * Install the gates on a flying-squid server (right after `createMCServer`).
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 */
function install(serv) {
  for (const fn of /** @type {const} */ (['_writeArray', '_writeAll', 'getNearby', 'getNearbyEntities', 'broadcast'])) {
    if (typeof serv[fn] !== 'function') throw new Error(`spawn-gate: flying-squid has no serv.${fn}; this version is not supported`);
  }
  /** @type {WeakSet<object>} */
  const spawned = new WeakSet();
  /** @param {object} player */
  const ready = (player) => spawned.has(player);

  serv.on('newPlayer', (/** @type {import('./types.cjs').Player} */ player) => {
    const client = player._client;
    const write = client.write;
    let loggedIn = false;
    let dropped = 0;
    /**
     * @this {unknown}
     * @param {string} name
     * @param {unknown} params
     */
    client.write = function gatedWrite(name, params) {
      if (!loggedIn) {
        if (name === 'login') loggedIn = true;
        else if (!ALWAYS.has(name)) {
          dropped++;
          return undefined;
        }
      }
      return write.call(this, name, params);
    };
    const exchange = player.updateAndSpawn;
    player.updateAndSpawn = () => {
      if (ready(player)) exchange();
    };
    player.once('spawned', () => {
      spawned.add(player);
      // Visible now, so the players around it take it into their nearby lists in this same exchange.
      exchange();
      if (dropped > 0) serv.debug?.(`[spawn-gate] ${player.username}: ${dropped} packets held back before login`);
    });
  });

  const writeArray = serv._writeArray;
  serv._writeArray = (name, fields, players) => writeArray(name, fields, players.filter(ready));
  serv._writeAll = (name, fields) => serv._writeArray(name, fields, serv.players);

  const getNearby = serv.getNearby;
  serv.getNearby = (loc) => getNearby(loc).filter(ready);

  const getNearbyEntities = serv.getNearbyEntities;
  serv.getNearbyEntities = (loc) => getNearbyEntities(loc).filter((e) => e.type !== 'player' || ready(e));

  const broadcast = serv.broadcast;
  serv.broadcast = (message, opts = {}) => {
    const given = opts.whitelist ?? serv.players;
    const whitelist = 'type' in given && given.type === 'player' ? [given] : /** @type {import('./types.cjs').Player[]} */ (given);
    return broadcast(message, { ...opts, whitelist: whitelist.filter(ready) });
  };
}

module.exports = { install };
