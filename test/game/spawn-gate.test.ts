/**
 * The embedded world's spawn gate (src/game/embedded/spawn-gate.cjs), made deterministic: the world holds
 * a joining player just before its login (it is already among the server's entities there, which is where
 * flying-squid used to pick it as a recipient), while the others chat, swing and dig, or while it moves.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from 'minecraft-protocol';
import mineflayer, { type Bot } from 'mineflayer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { connectedGame, startWorld, tempDataDir, testLogger, waitFor } from './helpers.ts';

/** Packets a server may send at any time (the tab-list header is flying-squid's, sent once as it creates the player). */
const HOUSEKEEPING = new Set(['keep_alive', 'ping', 'playerlist_header']);

const log = testLogger();
const data = tempDataDir('spawn-gate');
let world: EmbeddedWorld;
const games: MineflayerGame[] = [];
/** Raw bots of the tests, quit at the end. */
const bots: Bot[] = [];
/** Protocol-level clients of the tests, ended at the end. */
const clients: Client[] = [];

beforeAll(async () => {
  world = await startWorld(data.dir, log);
});

afterAll(async () => {
  await Promise.all(
    clients.map(async (c) => {
      const ended = once(c, 'end');
      c.end('bye');
      await ended;
    }),
  );
  await Promise.all(
    bots.map(async (b) => {
      const ended = once(b, 'end');
      b.quit();
      await ended;
    }),
  );
  await Promise.all(games.map((g) => g.stop()));
  await world?.stop();
  data.remove();
});

function rawBot(username: string): Bot {
  const bot = mineflayer.createBot({ host: world.host, port: world.port, version: world.version, username, auth: 'offline', hideErrors: true, logErrors: false });
  bots.push(bot);
  return bot;
}

/** Wait until `probe` resolves true, asking every 50 ms; throws after `ms`. */
async function until(probe: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

describe('what the embedded world sends a player before its login', () => {
  it('GIVEN a player held just before its login WHEN the others chat, swing and dig THEN it gets none of it, and once in it sees them', async () => {
    const digger = await connectedGame(world, 'digger', log);
    games.push(digger);
    // A person: the world tells avatars no arm swings or block cracks (avatars.cjs, moves.cjs).
    const observer = await connectedGame(world, 'observer', log, 'person');
    games.push(observer);
    const d = digger.bot;
    const o = observer.bot;
    if (!d || !o) throw new Error('not connected');

    expect(await world.holdLogins(true)).toBe(0);
    const bot = rawBot('newbie');
    const beforeLogin: string[] = [];
    let loggedIn = false;
    bot._client.on('packet', (_data: unknown, meta: { name: string; state: string }) => {
      if (meta.name === 'login') loggedIn = true;
      else if (!loggedIn && meta.state === 'play') beforeLogin.push(meta.name);
    });
    await until(async () => (await world.holdLogins(true)) === 1, 30_000, 'newbie to wait before its login');

    // Each action is seen by the observer, so the server has sent it to everyone it meant to.
    const chatSeen = new Promise<void>((resolve) =>
      o.on('messagestr', (m) => {
        if (m.includes('hello from digger')) resolve();
      }),
    );
    d.chat('hello from digger');
    await chatSeen;
    const swingSeen = once(o, 'entitySwingArm');
    d.swingArm('right');
    await swingSeen;
    const below = d.blockAt(d.entity.position.offset(1, -1, 0).floored());
    if (!below) throw new Error('no block next to the digger');
    const breaking = once(o, 'blockBreakProgressObserved');
    const dug = d.dig(below);
    await breaking;
    await dug;

    const spawned = once(bot, 'spawn');
    await world.holdLogins(false);
    await spawned;
    expect(beforeLogin.filter((n) => !HOUSEKEEPING.has(n))).toEqual([]);
    // And the newcomer sees the players already there.
    await waitFor(() => bot.players.digger?.entity !== undefined && bot.players.observer?.entity !== undefined, 10_000, 'newbie to see the others');
  }, 120_000);

  it('GIVEN two players held before their login together WHEN they are let in together THEN each sees the other without moving', async () => {
    expect(await world.holdLogins(true)).toBe(0);
    const [a, b] = [rawBot('twin_a'), rawBot('twin_b')];
    await until(async () => (await world.holdLogins(true)) === 2, 30_000, 'both twins to wait before their login');
    const spawned = Promise.all([once(a, 'spawn'), once(b, 'spawn')]);
    await world.holdLogins(false);
    await spawned;
    await waitFor(() => a.players.twin_b?.entity !== undefined && b.players.twin_a?.entity !== undefined, 10_000, 'the twins to see each other');
  }, 120_000);

  it('GIVEN a player held before its login that moves meanwhile (a client moves from its first moment) WHEN it is let in THEN it gets the player already there, named first, and that player sees it by name', async () => {
    const resident = await connectedGame(world, 'resident', log);
    games.push(resident);
    const r = resident.bot;
    if (!r) throw new Error('not connected');
    const residentUuid = r.player.uuid;
    expect(await world.holdLogins(true)).toBe(0);
    const mover = createClient({ host: world.host, port: world.port, version: world.version, username: 'mover', auth: 'offline', hideErrors: true });
    clients.push(mover);
    // What the mover is told about the resident, in order.
    const told: string[] = [];
    let sent = 0;
    let moving: NodeJS.Timeout | undefined;
    mover.on('state', (state: string) => {
      if (state !== 'play') return;
      // Moves of 3 blocks, back and forth: each is more than the 2 blocks after which flying-squid exchanges entities.
      moving = setInterval(() => {
        sent += 1;
        mover.write('position', { x: 0.5, y: 64, z: sent % 2 === 0 ? 5.5 : 2.5, flags: { onGround: true, hasHorizontalCollision: false } });
      }, 10);
    });
    mover.on('packet', (p: { action?: { add_player?: boolean }; data?: Array<{ uuid: string }>; objectUUID?: string }, meta: { name: string }) => {
      if (meta.name === 'login') clearInterval(moving);
      if (meta.name === 'player_info' && p.action?.add_player && p.data?.some((d) => d.uuid === residentUuid)) told.push('player_info');
      if (meta.name === 'spawn_entity' && p.objectUUID === residentUuid) told.push('spawn');
    });
    await until(async () => (await world.holdLogins(true)) === 1, 30_000, 'mover to wait before its login');
    await waitFor(() => sent >= 20, 30_000, 'the mover to have sent 20 moves while held');
    await world.holdLogins(false);
    await waitFor(() => told.includes('spawn'), 30_000, () => `the mover to get the resident (it was told: ${told.join(', ') || 'nothing'})`);
    expect(told).toEqual(['player_info', 'spawn']);
    await waitFor(() => r.players.mover?.entity !== undefined, 30_000, () => `the resident to see the mover by name (its player entities: ${Object.values(r.entities).filter((e) => e.type === 'player').map((e) => e.username ?? '(no name)').join(', ')})`);
  }, 120_000);
});
