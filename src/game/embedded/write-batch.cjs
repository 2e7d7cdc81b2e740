// @ts-check
'use strict';
/*
 * Server plugin of the embedded world: the packets a player is sent in one turn of the world's event loop leave
 * in one socket write.
 *
 * minecraft-protocol writes each packet to the player's socket on its own (Nagle off), one system call per
 * packet: with 100 avatars together, the moves of the others (moves.cjs) make thousands a second, and the world's
 * process spent 37 % of its core in those writes. Here a player's socket is corked at its first packet in a turn
 * and uncorked once the turn is over (`setImmediate`): what the turn wrote goes out together, in order, a few
 * milliseconds at most later than before.
 *
 * It also counts the packets and the socket writes, for the world's `health` message (packets per write).
 * Installed from plugins.cjs.
 */

/**
 * @typedef {{ cork(): void, uncork(): void, destroyed: boolean, _write?: Function, _writev?: Function }} SocketLike
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @returns {{ counts(): { packets: number, writes: number } }} packets and socket writes since the last call
 */
function install(serv) {
  let packets = 0;
  let writes = 0;
  serv.on('newPlayer', (/** @type {import('./types.cjs').Player} */ player) => {
    const client = /** @type {{ write: Function, socket?: SocketLike }} */ (/** @type {unknown} */ (player._client));
    const socket = client.socket;
    if (!socket || typeof socket.cork !== 'function') return;
    for (const key of /** @type {const} */ (['_write', '_writev'])) {
      const own = socket[key];
      if (typeof own !== 'function') continue;
      socket[key] = function counted(/** @type {unknown[]} */ ...args) {
        writes++;
        return own.apply(this, args);
      };
    }
    let corked = false;
    const flush = () => {
      corked = false;
      if (!socket.destroyed) socket.uncork();
    };
    const write = client.write;
    client.write = function batchedWrite(/** @type {string} */ name, /** @type {unknown} */ params) {
      packets++;
      if (!corked && !socket.destroyed) {
        corked = true;
        socket.cork();
        setImmediate(flush);
      }
      return write.call(this, name, params);
    };
  });
  return {
    counts() {
      const out = { packets, writes };
      packets = 0;
      writes = 0;
      return out;
    },
  };
}

module.exports = { install };
