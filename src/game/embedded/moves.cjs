// @ts-check
'use strict';
/*
 * Server plugin of the embedded world: how players see each other move.
 *
 * flying-squid relays every movement packet of a player to every player near it, at once: a walking
 * bot sends its position and look 20 times a second, and each becomes two or three packets
 * (`rel_entity_move`, `entity_look`, `entity_head_rotation`) to each of the others, each found by a
 * walk over all entities. With n avatars together that is about 3 × 20 × n × (n − 1) packets a second
 * to write here and to read in mindlink: with 10 avatars collecting, 1,400 a second; with 100, well
 * over 100,000 — more than two cores can parse. The same as vanilla does instead:
 *
 *  - A player's moves and looks are sent to the others at most every `intervalMs` (vanilla: every
 *    2 ticks), the deltas summed and move and look in one `entity_move_look`; the head turn only when
 *    it changed. An absolute move (teleport) goes out at once and drops the deltas before it; any
 *    other packet about the player first sends what is pending, so the order stays as it was.
 *  - Entities are tracked as far as the view distance (vanilla's cap), not 150 blocks: farther than
 *    the chunks a client holds, an entity is of no use to it.
 *  - One avatar sees another (mindlink's own players, avatars.cjs) move as above only within
 *    `avatarNear` (16 blocks: one that follows or meets another is that near), and then its moves only
 *    (no look or head turn: an avatar has no eyes for those). Farther, it is told where the other is, as
 *    an absolute position, every `avatarIntervalMs` (500 ms) that the other moved. 100 avatars working
 *    side by side otherwise make 100 × 99 moves every 100 ms for the avatar hosts to read, more than
 *    their own work. People see everyone, and avatars see people, as above.
 *
 * Installed from plugins.cjs.
 */

/** A summed delta beyond this (1/4096 block, a signed short) is sent as an absolute position instead. */
const MAX_DELTA = 32767;

/**
 * @typedef {import('./types.cjs').Entity} Entity
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {{ dX: number, dY: number, dZ: number, moved: boolean, looked: boolean, turned: boolean, yaw: number, pitch: number, headYaw: number, onGround: boolean }} Pending
 *
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @param {{ intervalMs?: number, avatarIntervalMs?: number, avatarNear?: number, viewDistance: number, isAvatar: (player: object) => boolean }} opts
 */
function install(serv, { intervalMs = 100, avatarIntervalMs = 500, avatarNear = 16, viewDistance, isAvatar }) {
  const range = Math.max(3, viewDistance) * 16;
  /** @type {Map<Entity, Pending>} Player entity → what it did since its last update went out. */
  const pending = new Map();
  /** @type {Set<Entity>} Avatars that moved since the avatars farther than `avatarNear` were last told where they are. */
  const movedAvatars = new Set();

  /** @param {Entity} entity @param {Player} player */
  const near = (entity, player) => player.position.distanceTo(entity.position) <= avatarNear;

  /**
   * Where an entity is, as one absolute packet (the version's teleport of an entity).
   * @param {Entity} entity
   * @returns {[string, Record<string, unknown>]}
   */
  const whereIs = (entity) => {
    const at = entity.position;
    const look = { yaw: entity.yaw, pitch: entity.pitch, onGround: !!entity.onGround };
    if (serv.supportFeature('fixedPointPosition')) {
      const p = at.scaled(32).floored();
      return ['entity_teleport', { entityId: entity.id, x: p.x, y: p.y, z: p.z, ...look }];
    }
    if (serv.registry.version['>=']('1.21.2')) return ['sync_entity_position', { entityId: entity.id, x: at.x, y: at.y, z: at.z, dx: 0, dy: 0, dz: 0, ...look }];
    return ['entity_teleport', { entityId: entity.id, x: at.x, y: at.y, z: at.z, ...look }];
  };

  /** @param {Entity} entity */
  const stateOf = (entity) => {
    let p = pending.get(entity);
    if (!p) {
      p = { dX: 0, dY: 0, dZ: 0, moved: false, looked: false, turned: false, yaw: 0, pitch: 0, headYaw: 0, onGround: false };
      pending.set(entity, p);
    }
    return p;
  };

  serv.on('newEntity', (/** @type {Entity} */ entity) => {
    entity.viewDistance = range;
    if (entity.type !== 'player') return;
    const write = entity._writeOthersNearby;
    /** @type {number | null} */
    let lastHeadYaw = null;
    /** @type {Set<Player>} The avatars near enough to get this avatar's every move, told where it is when they came near. */
    let close = new Set();

    const flush = () => {
      const p = pending.get(entity);
      if (!p) return;
      pending.delete(entity);
      const others = /** @type {Player[]} */ (/** @type {unknown} */ (entity.getNearbyPlayers()));
      /** Who gets everything: people, and avatars when this is a person. */
      let all = others;
      /** Avatars that stayed near this avatar: its moves only. */
      /** @type {Player[]} */
      let moves = [];
      if (isAvatar(entity)) {
        all = [];
        /** @type {Player[]} */
        const came = [];
        const now = new Set();
        for (const o of others) {
          if (!isAvatar(o)) all.push(o);
          else if (near(entity, o)) {
            now.add(o);
            (close.has(o) ? moves : came).push(o);
          }
        }
        close = now;
        if (came.length > 0) {
          const [name, fields] = whereIs(entity);
          serv._writeArray(name, fields, came);
        }
      }
      const overflow = Math.abs(p.dX) > MAX_DELTA || Math.abs(p.dY) > MAX_DELTA || Math.abs(p.dZ) > MAX_DELTA;
      /** @type {(name: string, fields: Record<string, unknown>, to: Player[]) => void} */
      const send = (name, fields, to) => {
        if (to.length > 0) serv._writeArray(name, fields, to);
      };
      const both = moves.length > 0 ? [...all, ...moves] : all;
      if (p.moved && overflow) {
        const at = entity.knownPosition ?? entity.position;
        send('sync_entity_position', {
          entityId: entity.id, x: at.x, y: at.y, z: at.z, dx: 0, dy: 0, dz: 0,
          yaw: p.looked ? p.yaw : entity.yaw, pitch: p.looked ? p.pitch : entity.pitch, onGround: !!p.onGround,
        }, both);
      } else if (p.moved && p.looked) {
        send('entity_move_look', { entityId: entity.id, dX: p.dX, dY: p.dY, dZ: p.dZ, yaw: p.yaw, pitch: p.pitch, onGround: p.onGround }, all);
        send('rel_entity_move', { entityId: entity.id, dX: p.dX, dY: p.dY, dZ: p.dZ, onGround: p.onGround }, moves);
      } else if (p.moved) {
        send('rel_entity_move', { entityId: entity.id, dX: p.dX, dY: p.dY, dZ: p.dZ, onGround: p.onGround }, both);
      } else if (p.looked) {
        send('entity_look', { entityId: entity.id, yaw: p.yaw, pitch: p.pitch, onGround: p.onGround }, all);
      }
      if (p.turned && p.headYaw !== lastHeadYaw) {
        lastHeadYaw = p.headYaw;
        send('entity_head_rotation', { entityId: entity.id, headYaw: p.headYaw }, all);
      }
    };
    entity.flushMoves = flush;

    /** @type {(name: string, fields: Record<string, any>) => void} */
    entity._writeOthersNearby = (name, fields) => {
      if (name === 'rel_entity_move') {
        const p = stateOf(entity);
        p.dX += fields.dX;
        p.dY += fields.dY;
        p.dZ += fields.dZ;
        p.onGround = fields.onGround;
        p.moved = true;
        if (isAvatar(entity)) movedAvatars.add(entity);
        return undefined;
      }
      if (name === 'entity_look') {
        const p = stateOf(entity);
        p.yaw = fields.yaw;
        p.pitch = fields.pitch;
        p.onGround = fields.onGround;
        p.looked = true;
        return undefined;
      }
      if (name === 'entity_head_rotation') {
        const p = stateOf(entity);
        p.headYaw = fields.headYaw;
        p.turned = true;
        return undefined;
      }
      if (name === 'animation' || name === 'block_break_animation') {
        // An arm swung, a block cracking: for people to see.
        flush();
        const people = /** @type {Player[]} */ (/** @type {unknown} */ (entity.getNearbyPlayers())).filter((p) => !isAvatar(p));
        if (people.length > 0) serv._writeArray(name, fields, people);
        return undefined;
      }
      if (name === 'entity_teleport' || name === 'sync_entity_position') {
        // An absolute position: the deltas before it no longer matter.
        const p = pending.get(entity);
        if (p) {
          p.moved = false;
          p.dX = p.dY = p.dZ = 0;
        }
      }
      flush();
      return write(name, fields);
    };
  });

  serv.on('newPlayer', (/** @type {import('./types.cjs').Player} */ player) => {
    // A flying-squid player is its own entity.
    player.once('disconnected', () => {
      const entity = /** @type {Entity} */ (/** @type {unknown} */ (player));
      pending.delete(entity);
      movedAvatars.delete(entity);
    });
  });

  // The avatars farther than `avatarNear` from an avatar that moved: where it is now.
  const avatarTimer = setInterval(() => {
    for (const entity of movedAvatars) {
      const others = /** @type {Player[]} */ (/** @type {unknown} */ (entity.getNearbyPlayers()));
      const far = others.filter((o) => isAvatar(o) && !near(entity, o));
      if (far.length === 0) continue;
      const [name, fields] = whereIs(entity);
      serv._writeArray(name, fields, far);
    }
    movedAvatars.clear();
  }, avatarIntervalMs);
  avatarTimer.unref();

  const timer = setInterval(() => {
    for (const entity of [...pending.keys()]) entity.flushMoves?.();
  }, intervalMs);
  timer.unref();
}

module.exports = { install };
