// @ts-check
'use strict';
/*
 * Server plugin of the embedded world: what newer protocol versions need that flying-squid does not send
 * right — entity teleports in 1.21.2+, the whole tab list for a newcomer, and the player entity type players
 * spawn with (1.20.2+). Installed from server.cjs: `require('./packet-fixes.cjs').install(serv, { registry, playerTypeId })`.
 */

/** @typedef {import('./types.cjs').Player} Player */

/**
 * Install the fixes on a flying-squid server (after `createMCServer`).
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @param {{ registry: import('./types.cjs').Serv['registry'], playerTypeId: number }} opts its registry, and the player entity type's id
 */
function install(serv, { registry, playerTypeId }) {
  // 1.21.2+: `entity_teleport` changed shape and flying-squid's writes break the observers' packet stream.
  // Send `sync_entity_position` (absolute position, zero velocity) instead.
  serv.on('newEntity', (/** @type {import('./types.cjs').Entity} */ entity) => {
    const write = entity._writeOthersNearby;
    /** @type {(name: string, fields: Record<string, any>) => void} */
    entity._writeOthersNearby = (name, fields) => {
      if (name === 'entity_teleport' && registry.version['>=']('1.21.2')) {
        return write('sync_entity_position', {
          entityId: fields.entityId,
          x: fields.x,
          y: fields.y,
          z: fields.z,
          dx: 0,
          dy: 0,
          dz: 0,
          yaw: fields.yaw,
          pitch: fields.pitch,
          onGround: !!fields.onGround,
        });
      }
      return write(name, fields);
    };
  });

  // flying-squid sends the tab list of everyone to the *others* only, so a player who joins later never learns
  // the names of those already there (mineflayer then has no entity for them). Send the newcomer the whole list
  // and the others only the newcomer. login.js redefines `serv._sendPlayerList` for every player, so it is
  // replaced on each new player, after that.
  /** @param {Player} p */
  const playerInfoEntry = (p) => ({
    uuid: p.uuid,
    player: { name: p.username, properties: p.profileProperties || [] },
    gamemode: p.gameMode,
    latency: p._client.latency || 0,
  });
  /** @param {Player} toPlayer */
  const sendPlayerList = (toPlayer) => {
    const everyone = serv.players.filter((p) => p.username);
    if (!everyone.includes(toPlayer)) everyone.push(toPlayer);
    toPlayer._client.write('player_info', { action: { add_player: true }, data: everyone.map(playerInfoEntry) });
    toPlayer._writeOthers('player_info', { action: { add_player: true }, data: [playerInfoEntry(toPlayer)] });
  };

  // 1.20.2+ spawns players with the generic spawn_entity packet: give players the player entity type.
  serv.on('newPlayer', (/** @type {Player} */ player) => {
    player.entityType = playerTypeId;
    if (serv.supportFeature('playerInfoActionIsBitfield')) serv._sendPlayerList = sendPlayerList;
  });
}

module.exports = { install };
