// @ts-check
'use strict';
/*
 * What players are told about the embedded world's mobs (mob-world.cjs), in the packets mineflayer and vanilla
 * 1.21.4 clients understand: `spawn_entity` with the mob's health and kind metadata (and its head turned), moves
 * as `entity_move_look` (or `sync_entity_position` for a jump of more than 7 blocks, `entity_look` for a turn)
 * and `entity_head_rotation`, `entity_destroy` when it leaves their sight. Hurts, deaths and fire go out through
 * `tell` (damage_event, entity status 3, the on-fire flag).
 */

/**
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./mob-world.cjs').Mob} Mob
 * @typedef {import('./mob-world.cjs').MetadataEntry} MetadataEntry
 */

/** A yaw in degrees as the protocol's signed byte. @param {number} deg */
function yawByte(deg) {
  const b = Math.round((deg * 256) / 360) & 0xff;
  return b > 127 ? b - 256 : b;
}

/**
 * The packets of mobs. `isAvatar`: mindlink's own players (avatars.cjs), which are told where a mob is but not
 * which way it only turned to look (an avatar has no eyes for that).
 * @param {{ isAvatar?: (player: object) => boolean }} [opts]
 */
function createMobPackets({ isAvatar = () => false } = {}) {
  /** @param {Mob} mob @returns {MetadataEntry[]} */
  function metadataOf(mob) {
    return [{ key: 0, type: 'byte', value: mob.fireShown ? 0x01 : 0 }, { key: 9, type: 'float', value: Math.max(0, mob.health) }, ...(mob.kind.metadata?.(mob) ?? [])];
  }

  /** @param {Mob} mob @param {string} name @param {object} params */
  function tell(mob, name, params) {
    for (const p of mob.viewers) p._client.write(name, params);
  }

  /** A turn only: told to the viewers that are not avatars. @param {Mob} mob @param {string} name @param {object} params */
  function tellTurn(mob, name, params) {
    for (const p of mob.viewers) if (!isAvatar(p)) p._client.write(name, params);
  }

  /** @param {Mob} mob @param {Player} p */
  function show(mob, p) {
    mob.viewers.add(p);
    const yaw = yawByte(mob.yaw);
    p._client.write('spawn_entity', {
      entityId: mob.id,
      objectUUID: mob.uuid,
      type: mob.typeId,
      x: mob.sentX / 4096,
      y: mob.sentY / 4096,
      z: mob.sentZ / 4096,
      pitch: 0,
      yaw,
      headPitch: 0,
      objectData: 0,
      velocity: { x: 0, y: 0, z: 0 },
    });
    p._client.write('entity_metadata', { entityId: mob.id, metadata: metadataOf(mob) });
    p._client.write('entity_head_rotation', { entityId: mob.id, headYaw: yaw });
    if (mob.dead) p._client.write('entity_status', { entityId: mob.id, entityStatus: 3 });
  }

  /** @param {Mob} mob @param {Player} p */
  function hide(mob, p) {
    mob.viewers.delete(p);
    p._client.write('entity_destroy', { entityIds: [mob.id] });
  }

  /** Send a mob's new position and heading to its viewers. @param {Mob} mob */
  function sendMove(mob) {
    const nx = Math.round(mob.x * 4096);
    const ny = Math.round(mob.y * 4096);
    const nz = Math.round(mob.z * 4096);
    const yaw = yawByte(mob.yaw);
    const dx = nx - mob.sentX;
    const dy = ny - mob.sentY;
    const dz = nz - mob.sentZ;
    const turned = yaw !== mob.sentYaw;
    if (dx === 0 && dy === 0 && dz === 0 && !turned) return;
    if (Math.abs(dx) > 32000 || Math.abs(dy) > 32000 || Math.abs(dz) > 32000) {
      tell(mob, 'sync_entity_position', { entityId: mob.id, x: mob.x, y: mob.y, z: mob.z, dx: 0, dy: 0, dz: 0, yaw: mob.yaw, pitch: 0, onGround: mob.onGround });
    } else if (dx !== 0 || dy !== 0 || dz !== 0) {
      tell(mob, 'entity_move_look', { entityId: mob.id, dX: dx, dY: dy, dZ: dz, yaw, pitch: 0, onGround: mob.onGround });
    } else tellTurn(mob, 'entity_look', { entityId: mob.id, yaw, pitch: 0, onGround: mob.onGround });
    if (turned) tellTurn(mob, 'entity_head_rotation', { entityId: mob.id, headYaw: yaw });
    mob.sentX = nx;
    mob.sentY = ny;
    mob.sentZ = nz;
    mob.sentYaw = yaw;
  }

  return { metadataOf, tell, show, hide, sendMove };
}

module.exports = { createMobPackets, yawByte };
