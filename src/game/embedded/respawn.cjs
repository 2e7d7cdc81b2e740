// @ts-check
'use strict';
/*
 * Dying and respawning in the embedded world, as in vanilla (with its keepInventory rule):
 *   - a player whose health reaches 0 dies: its open container and crafting grid close, it gets its death
 *     message (`death_combat_event`: a vanilla client's death screen) and everyone gets it in chat
 *     ("demo was slain by Zombie"); the others see it fall (flying-squid's entity status);
 *   - its client's respawn request (`client_command`, perform_respawn) brings it back at the world spawn with
 *     full health and food, keeping its inventory and experience; a living player's request is ignored;
 *   - a player saved dead (the world stopped, or it left, before it asked) joins dead and respawns the same way
 *     (and stays at the spawn when its login ends).
 *
 * flying-squid 1.12.0 never respawned anyone: it waits for `client_command` action 0, but its packet reader
 * names the action (`perform_respawn`); its respawn packet has the shape of versions before 1.20.5 and it
 * kept the player where it died. A dead player stayed at health 0 until it left, and came back dead.
 *
 * Damage that can kill names its killer (takeDamage's `death`, the rest of the death message): a zombie
 * (monsters.cjs), starvation (hunger.cjs), another player. Damage that does not (the `/kill` command, the
 * `kill` admin operation) is "<player> was killed".
 */
const { guard } = require('./guard.cjs');

/** The respawn packet's game mode names, by flying-squid's game mode number. */
const GAME_MODES = ['survival', 'creative', 'adventure', 'spectator'];

/**
 * @typedef {import('./types.cjs').Player} Player
 * @typedef {import('./types.cjs').Serv} Serv
 * @typedef {import('./types.cjs').ChatComponent} ChatComponent
 * @typedef {import('./types.cjs').DeathCause} DeathCause
 */

/**
 * Install dying and respawning at the world spawn.
 *
 * @param {Serv} serv the flying-squid server
 * @param {{ spawn: import('vec3').Vec3, windows: { died(player: Player): void, respawned(player: Player): void } }} ctx
 */
function respawn(serv, { spawn, windows }) {
  const nbt = require('prismarine-nbt');
  const { registry } = serv;
  const nbtChat = serv.supportFeature('chatPacketsUseNbtComponents');
  /** Players whose respawn is under way (a second request meanwhile is the same one). @type {WeakSet<Player>} */
  const respawning = new WeakSet();
  /** Players whose login is under way, and those of them that respawned meanwhile (they joined dead). @type {WeakSet<Player>} */
  const loggingIn = new WeakSet();
  /** @type {WeakSet<Player>} */
  const respawnedInLogin = new WeakSet();
  /** While respawns are held (tests of a server that does not answer): the requests left unanswered so far. @type {number | null} */
  let held = null;

  /** A chat component as NBT (1.20.3+ chat packets). @param {ChatComponent} c @returns {any} */
  const toNbt = (c) =>
    nbt.comp({
      ...(c.text !== undefined ? { text: nbt.string(c.text) } : {}),
      ...(c.translate !== undefined ? { translate: nbt.string(c.translate) } : {}),
      ...(c.with ? { with: nbt.list(nbt.comp(c.with.map((w) => toNbt(w).value))) } : {}),
    });
  /** @param {ChatComponent} c */
  const onTheWire = (c) => (nbtChat ? toNbt(c) : JSON.stringify(c));

  /** @param {Player} player @param {DeathCause | null} cause */
  function died(player, cause) {
    windows.died(player);
    const message = cause ? { translate: cause.key, with: [{ text: player.username }, ...cause.with] } : { translate: 'death.attack.genericKill', with: [{ text: player.username }] };
    const content = onTheWire(message);
    if (registry.version['>=']('1.17')) player._client.write('death_combat_event', { playerId: player.id, entityId: player.id, message: content });
    for (const p of serv.players) {
      if (serv.supportFeature('signedChat')) p._client.write('system_chat', { content, type: 1, isActionBar: false });
      else p._client.write('chat', { message: content, position: 1, sender: '00000000-0000-0000-0000-000000000000' });
    }
  }

  /** The respawn packet: on 1.20.5+ the spawn info the login packet gave, with the player's game mode. @param {Player} player */
  function sendRespawn(player) {
    // minecraft-data's types know the login packet of versions before 1.20.5 only.
    const worldState = /** @type {{ worldState?: Record<string, unknown> } | undefined} */ (registry.loginPacket)?.worldState;
    if (!worldState) {
      player._sendRespawn();
      return;
    }
    const gamemode = GAME_MODES[player.gameMode] ?? 'survival';
    player._client.write('respawn', { worldState: { ...worldState, gamemode, previousGamemode: player.prevGameMode ?? 255, death: undefined }, copyMetadata: 0 });
  }

  /** Bring a dead player back at the spawn: a new player entity for the others and for itself, as in vanilla. @param {Player} player */
  async function respawnAtSpawn(player) {
    // Before anything awaits: from here on it is alive (a request now is a living player's).
    player.health = 20;
    for (const other of serv.players) {
      if (other === player || !other.nearbyEntities.includes(player)) continue;
      other.despawnEntities([player]);
      other.nearbyEntities = other.nearbyEntities.filter((e) => e !== player);
    }
    player.despawnEntities(player.nearbyEntities);
    player.nearbyEntities = [];
    sendRespawn(player);
    const at = spawn.clone();
    await player.sendPosition(at, false, true);
    player.sendSelfPosition(at);
    // Health last but one: mineflayer spawns the bot again on it, where the position put it.
    player.updateHealth(20);
    windows.respawned(player);
    player._client.write('held_item_slot', { slot: player.heldItemSlot });
    player.setXp(player.xp);
    player.updateAndSpawn();
    if (loggingIn.has(player)) respawnedInLogin.add(player);
    await player.worldSendRestOfChunks();
  }

  serv.on('newPlayer', (/** @type {Player} */ player) => {
    // flying-squid's login ends, once the client first moves, by sending the player the position it logged in at
    // again (against falling through the world). A player that joined dead first moves after its respawn, and was
    // put back where it died: after a respawn during the login, that send is of the position the player has now.
    const login = player.login;
    player.login = async () => {
      loggingIn.add(player);
      try {
        await login();
      } finally {
        loggingIn.delete(player);
      }
    };
    const sendSelfPosition = player.sendSelfPosition;
    player.sendSelfPosition = (pos) => sendSelfPosition(respawnedInLogin.has(player) && loggingIn.has(player) ? player.position : pos);
    /** The killer of the damage being dealt now, for the death it may bring. @type {DeathCause | null} */
    let cause = null;
    const takeDamage = player.takeDamage;
    player.takeDamage = (opts) => {
      cause = opts.death ?? null;
      try {
        return takeDamage(opts);
      } finally {
        cause = null;
      }
    };
    const updateHealth = player.updateHealth;
    player.updateHealth = (health) => {
      // The death message goes before the health that shows it, as in vanilla.
      if (player.health > 0 && health <= 0) guard('respawn: a death', died)(player, cause);
      updateHealth(Math.max(0, health));
    };
    // A player hitting this one (flying-squid's attack behaviour hands its data to takeDamage).
    player.on('attack', (/** @type {{ death?: DeathCause }} */ data) => {
      data.death = { key: 'death.attack.player', with: [{ text: player.username }] };
    });
    player._client.on(
      'client_command',
      guard('respawn: a respawn request', (/** @type {{ actionId?: unknown }} */ data) => {
        if (data?.actionId !== 'perform_respawn' || player.health > 0 || respawning.has(player)) return;
        if (held !== null) {
          held++;
          return;
        }
        respawning.add(player);
        // As a behaviour, so that the plugins that reset something on a respawn (hunger.cjs) hear of it.
        void player
          .behavior('requestRespawn', {}, () => respawnAtSpawn(player))
          .catch((/** @type {unknown} */ err) => process.stderr.write(`respawn: respawning ${player.username} failed: ${err instanceof Error ? err.stack : String(err)}\n`))
          .finally(() => respawning.delete(player));
      }),
    );
  });

  return {
    /** Kill a player, as the `/kill` command does ("<player> was killed"). @param {Player} player */
    kill(player) {
      if (player.health > 0) player.takeDamage({ damage: Math.max(20, player.health) });
    },
    /**
     * Leave respawn requests unanswered from now on (`hold`), or answer them again; returns how many were left
     * unanswered since the hold began.
     * @param {boolean} hold
     */
    holdRespawns(hold) {
      const ignored = held ?? 0;
      held = hold ? ignored : null;
      return ignored;
    },
  };
}

module.exports = respawn;
