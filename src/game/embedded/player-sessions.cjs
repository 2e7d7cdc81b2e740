// @ts-check
'use strict';
/*
 * Server plugin of the embedded world: a player's session from login to its last save. Each save is tracked
 * (a shutdown waits for those under way), a player who comes back waits for the last session to end and its
 * save to be written, and a failed login ends that one connection instead of the world.
 * Installed from server.cjs: `require('./player-sessions.cjs').install(serv, pendingSaves)`.
 */

/** @typedef {import('./types.cjs').Player} Player */

/** @param {unknown} err */
const stackOf = (err) => String((err && /** @type {{ stack?: unknown }} */ (err).stack) || err);

/**
 * Install the session hooks on a flying-squid server (after `createMCServer`).
 * @param {import('./types.cjs').Serv} serv the flying-squid server
 * @param {Set<Promise<unknown>>} pendingSaves where each save under way is kept until it ends
 */
function install(serv, pendingSaves) {
  /** @type {Map<string, Promise<unknown>>} The last save of each player by name, while it is being written. */
  const lastSave = new Map();
  serv.on('newPlayer', (/** @type {Player} */ player) => {
    // flying-squid saves a player on logout without waiting; track those writes so a shutdown waits for them.
    const save = player.save;
    player.save = () => {
      const p = Promise.resolve()
        .then(() => save())
        .catch((err) => process.stderr.write(`saving ${player.username} failed: ${err && /** @type {Error} */ (err).message}\n`))
        .finally(() => {
          pendingSaves.delete(p);
          if (lastSave.get(player.username) === p) lastSave.delete(player.username);
        });
      pendingSaves.add(p);
      lastSave.set(player.username, p);
      return p;
    };
    // A player who comes back before the server has seen their last session end, or while its save is still being
    // written (not atomically), would read their data before that save, or half of it, and lose what that session
    // changed: the login reads the player's data only once that session has left (or 5 s passed) and its save is done.
    const findSpawnPoint = player.findSpawnPoint;
    player.findSpawnPoint = async () => {
      const name = player._client.username;
      const old = serv.players.find((p) => p !== player && p.username === name && !p.disconnected);
      if (old) await Promise.race([new Promise((r) => old.once('disconnected', r)), new Promise((r) => setTimeout(r, 5000))]);
      await lastSave.get(name);
      return findSpawnPoint();
    };
    // flying-squid rethrows a failed login from a timer, which ends the whole world: one player's failed login
    // (seen while the world was still starting, a bot reconnecting to it) ends that connection only, and is logged.
    const login = player.login;
    player.login = async () => {
      try {
        await login();
      } catch (err) {
        process.stderr.write(`login of ${player._client.username} failed: ${stackOf(err)}\n`);
        player._client.end('Login failed; please reconnect.');
      }
    };
  });
}

module.exports = { install };
