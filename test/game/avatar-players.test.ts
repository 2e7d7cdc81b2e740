/**
 * What the embedded world spares mindlink's own avatars (src/game/embedded/avatars.cjs, moves.cjs): the
 * others' latency lists, and other avatars' moves beyond 16 blocks (told where they are every 500 ms
 * instead). A person (a client that does not say it is mindlink's) gets all of it, as before.
 */
import { createRequire } from 'node:module';
import type { Bot } from 'mineflayer';
import { describe, expect, it } from 'vitest';
import { AVATAR_BRAND, type MineflayerGame } from '../../src/game/mineflayer-game.ts';
import { goals } from '../../skills/common.ts';
import { connectedGame, teleportAndSettle, waitFor, worldPerFile } from './helpers.ts';

const shared = worldPerFile('avatar-players');
const { log, games } = shared;

/** A client that does not say it is mindlink's: a person, to the world. */
async function person(name: string): Promise<MineflayerGame> {
  const game = await connectedGame(shared.world, name, log, 'person');
  games.push(game);
  return game;
}

async function avatar(name: string): Promise<MineflayerGame> {
  const game = await connectedGame(shared.world, name, log);
  games.push(game);
  return game;
}

/** Every packet about `entityId` the bot gets, by name. */
function packetsAbout(bot: Bot, entityId: () => number | undefined): Record<string, number> {
  const seen: Record<string, number> = {};
  bot._client.on('packet', (p: { entityId?: number }, meta: { name: string }) => {
    if (p.entityId !== undefined && p.entityId === entityId()) seen[meta.name] = (seen[meta.name] ?? 0) + 1;
  });
  return seen;
}

describe('the embedded world and mindlink\'s own avatars', () => {
  it('GIVEN the brand the world knows avatars by THEN it is the one an avatar on the embedded world sends', () => {
    const plugin = createRequire(import.meta.url)('../../src/game/embedded/avatars.cjs') as { AVATAR_BRAND: string };
    expect(plugin.AVATAR_BRAND).toBe(AVATAR_BRAND);
  });

  it('GIVEN an avatar and a person THEN the person gets everyone\'s latency every 5 s and the avatar gets none', async () => {
    const a = await avatar('quiet');
    const p = await person('pat');
    const latency = (bot: Bot): (() => number) => {
      let n = 0;
      bot._client.on('player_info', (packet: { action?: unknown }) => {
        const action = packet.action as Record<string, boolean> | string | undefined;
        if (action === 'update_latency' || (typeof action === 'object' && action?.update_latency && !action.add_player)) n += 1;
      });
      return () => n;
    };
    const ofAvatar = latency(a.bot!);
    const ofPerson = latency(p.bot!);
    await waitFor(() => ofPerson() >= 2, 30_000, 'two latency lists for the person');
    expect(ofAvatar()).toBe(0);
    // Both still know each other (the joins' lists are not latency lists).
    expect(a.bot!.players.pat).toBeDefined();
    expect(p.bot!.players.quiet).toBeDefined();
  }, 60_000);

  it('GIVEN an avatar walking WHEN a person and an avatar near it and an avatar 24 blocks away watch THEN the person gets its moves and looks, the near avatar its moves only, the far one where it is about every 500 ms, and all see it where it stops', async () => {
    const walker = games.find((g) => g.username === 'quiet') ?? (await avatar('quiet'));
    const pat = games.find((g) => g.username === 'pat') ?? (await person('pat'));
    const near = await avatar('nearby');
    const far = await avatar('faraway');
    await teleportAndSettle(shared.world, walker, { x: 0.5, y: 64, z: 0.5 });
    await teleportAndSettle(shared.world, pat, { x: 0.5, y: 64, z: 4.5 });
    await teleportAndSettle(shared.world, near, { x: 3.5, y: 64, z: 3.5 });
    await teleportAndSettle(shared.world, far, { x: 4.5, y: 64, z: 24.5 });
    const w = walker.bot!;
    const idIn = (bot: Bot) => (): number | undefined => bot.players[w.username]?.entity?.id;
    for (const watcher of [pat, near, far]) {
      await waitFor(() => idIn(watcher.bot!)() !== undefined, 30_000, `${watcher.username} to see the walker`);
    }
    const toPerson = packetsAbout(pat.bot!, idIn(pat.bot!));
    const toNear = packetsAbout(near.bot!, idIn(near.bot!));
    const toFar = packetsAbout(far.bot!, idIn(far.bot!));
    const started = Date.now();
    await w.pathfinder.goto(new goals.GoalBlock(10, 64, 0));
    const walkedMs = Date.now() - started;
    const seenBy = (bot: Bot) => (): number => bot.players[w.username]?.entity?.position.distanceTo(w.entity.position) ?? Infinity;
    for (const watcher of [pat, near, far]) {
      await waitFor(() => seenBy(watcher.bot!)() < 0.1, 20_000, () => `${watcher.username} to see the walker where it stopped (${seenBy(watcher.bot!)()} blocks off)`);
    }
    const moves = (seen: Record<string, number>): number => (seen.rel_entity_move ?? 0) + (seen.entity_move_look ?? 0);
    expect(moves(toPerson), JSON.stringify(toPerson)).toBeGreaterThan(0);
    expect((toPerson.entity_move_look ?? 0) + (toPerson.entity_look ?? 0) + (toPerson.entity_head_rotation ?? 0), JSON.stringify(toPerson)).toBeGreaterThan(0);
    expect(moves(toNear), JSON.stringify(toNear)).toBeGreaterThan(0);
    expect((toNear.entity_move_look ?? 0) + (toNear.entity_look ?? 0) + (toNear.entity_head_rotation ?? 0), JSON.stringify(toNear)).toBe(0);
    expect(moves(toFar), JSON.stringify(toFar)).toBe(0);
    const absolute = (toFar.sync_entity_position ?? 0) + (toFar.entity_teleport ?? 0);
    expect(absolute, JSON.stringify(toFar)).toBeGreaterThan(0);
    // One every 500 ms that it moved, give or take the edges.
    expect(absolute, `${JSON.stringify(toFar)} in ${walkedMs} ms`).toBeLessThanOrEqual(Math.ceil(walkedMs / 500) + 2);
  }, 120_000);

  it('GIVEN an avatar digging WHEN a person and an avatar beside it watch THEN the person sees its arm swing and the block crack, and the avatar neither', async () => {
    const digger = games.find((g) => g.username === 'quiet') ?? (await avatar('quiet'));
    const pat = games.find((g) => g.username === 'pat') ?? (await person('pat'));
    const near = games.find((g) => g.username === 'nearby') ?? (await avatar('nearby'));
    await teleportAndSettle(shared.world, digger, { x: 0.5, y: 64, z: 0.5 });
    await teleportAndSettle(shared.world, pat, { x: 0.5, y: 64, z: 4.5 });
    await teleportAndSettle(shared.world, near, { x: 3.5, y: 64, z: 3.5 });
    const d = digger.bot!;
    const idIn = (bot: Bot) => (): number | undefined => bot.players[d.username]?.entity?.id;
    for (const watcher of [pat, near]) {
      await waitFor(() => idIn(watcher.bot!)() !== undefined, 30_000, `${watcher.username} to see the digger`);
    }
    const toPerson = packetsAbout(pat.bot!, idIn(pat.bot!));
    const toNear = packetsAbout(near.bot!, idIn(near.bot!));
    const at = d.entity.position.floored().offset(1, 0, -1);
    // The cracks are told under an id of their own, at the block's position.
    const cracks = (bot: Bot): (() => number) => {
      let n = 0;
      bot._client.on('block_break_animation', (p: { location: { x: number; y: number; z: number } }) => {
        if (p.location.x === at.x && p.location.y === at.y && p.location.z === at.z) n += 1;
      });
      return () => n;
    };
    const personCracks = cracks(pat.bot!);
    const nearCracks = cracks(near.bot!);
    await shared.world.setBlock(at, 'dirt');
    await waitFor(() => d.blockAt(at)?.name === 'dirt', 10_000, 'the dirt to be there');
    await d.dig(d.blockAt(at)!);
    await waitFor(() => personCracks() > 0 && (toPerson.animation ?? 0) > 0, 10_000, () => `the person to see the dig (${personCracks()} cracks; ${JSON.stringify(toPerson)})`);
    expect(nearCracks()).toBe(0);
    expect(toNear.animation ?? 0, JSON.stringify(toNear)).toBe(0);
  }, 60_000);
});
