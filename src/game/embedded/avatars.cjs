// @ts-check
'use strict';
/*
 * Server plugin of the embedded world: which players are mindlink's own avatars, and what they are spared.
 *
 * An avatar's client says so: mineflayer sends the client's brand on joining, and mindlink's avatars on
 * the embedded world send `mindlink` (AVATAR_BRAND in game-options.ts) where other clients send `vanilla`.
 * A person who sends it too only gets less: what an avatar is spared is what a person's client would show.
 *
 *  - The others' latency, every 5 s: flying-squid sends each player the latency of every player, a packet
 *    that lists them all; a client reads it in time that grows with the square of the players (mineflayer
 *    looks each one up in all it knows). An avatar never shows a tab list: it gets none.
 *  - Other avatars' moves: less often and nearer only (moves.cjs).
 *
 * Installed from plugins.cjs.
 */

/** The brand mindlink's avatars send (the same as AVATAR_BRAND in game-options.ts). */
const AVATAR_BRAND = 'mindlink';
const BRAND_CHANNELS = new Set(['minecraft:brand', 'MC|Brand', 'brand']);

/**
 * A custom payload's string: a VarInt length, then UTF-8.
 * @param {Buffer} data
 * @returns {string | null}
 */
function readString(data) {
  let length = 0;
  let shift = 0;
  let i = 0;
  for (; i < data.length && i < 5; i++) {
    const byte = data[i] ?? 0;
    length |= (byte & 0x7f) << shift;
    shift += 7;
    if ((byte & 0x80) === 0) break;
  }
  const start = i + 1;
  if (start + length > data.length) return null;
  return data.subarray(start, start + length).toString('utf8');
}

/**
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @returns {{ isAvatar: (player: object) => boolean }}
 */
function install(serv) {
  /** @type {WeakSet<object>} */
  const avatars = new WeakSet();

  serv.on('newPlayer', (/** @type {import('./types.cjs').Player} */ player) => {
    const client = player._client;
    client.on('custom_payload', (/** @type {{ channel?: string, data?: Buffer }} */ packet) => {
      if (!packet?.channel || !BRAND_CHANNELS.has(packet.channel) || !packet.data) return;
      if (readString(packet.data) === AVATAR_BRAND) avatars.add(player);
    });
    const write = client.write;
    /**
     * @this {unknown}
     * @param {string} name
     * @param {any} params
     */
    client.write = function avatarWrite(name, params) {
      if (name === 'player_info' && avatars.has(player) && isLatencyOnly(params?.action)) return undefined;
      return write.call(this, name, params);
    };
  });

  return { isAvatar: (player) => avatars.has(player) };
}

/**
 * Whether a `player_info` action updates latency and nothing else (a bit set on 1.19.3+, a name before).
 * @param {unknown} action
 */
function isLatencyOnly(action) {
  if (action === 'update_latency') return true;
  if (!action || typeof action !== 'object') return false;
  const set = Object.entries(action).filter(([, on]) => on);
  return set.length === 1 && set[0]?.[0] === 'update_latency';
}

module.exports = { install, AVATAR_BRAND };
