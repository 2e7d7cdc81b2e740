// @ts-check
'use strict';
/*
 * The embedded world sends its packets uncompressed. minecraft-protocol's server turns compression on for every
 * login (packets over 256 bytes deflated) and has no setting for it; a world whose players are on the same machine
 * only spends CPU on it, on both ends: the world deflates every chunk it sends and each avatar's host inflates it.
 * A server that never sends "set compression" is one a client (mineflayer or the game's own) plays with as it is.
 */

/**
 * minecraft-protocol's `beforeLogin` option: called just before the server would turn compression on for `client`
 * (write the `compress` packet, then set the client's threshold); both are skipped, once.
 * @param {{ write(name: string, params: object): void, compressionThreshold: number }} client
 */
function withoutCompression(client) {
  const write = client.write;
  client.write = function (name, params) {
    if (name === 'compress') {
      client.write = write;
      return;
    }
    write.call(this, name, params);
  };
  Object.defineProperty(client, 'compressionThreshold', {
    configurable: true,
    get: () => -2,
    // The threshold set right after the skipped packet: ignored, and the client's own property is back.
    set: () => void delete (/** @type {{ compressionThreshold?: number }} */ (client)).compressionThreshold,
  });
}

module.exports = { withoutCompression };
