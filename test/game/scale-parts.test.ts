/**
 * The parts that let many avatars share a process and a world: the block cache, one walk for the
 * snapshot's nearest blocks, minecraft-data's remembered lookup, and the world sending players' moves
 * at vanilla's rate.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Vec3 } from 'vec3';
import { findBlocksFast, nearestOfEach } from '../../src/game/block-search.ts';
import { rememberMinecraftData } from '../../src/game/minecraft-data-memo.ts';
import { connectedGame, teleportAndSettle, waitFor, worldPerFile } from './helpers.ts';
import pf from 'mineflayer-pathfinder';
import type { Block } from 'prismarine-block';
import { goals } from '../../skills/common.ts';

const { Movements } = pf;

const shared = worldPerFile('scale-parts', { mobs: true });
const { log, games } = shared;

describe('many avatars in one process and one world', () => {
  it('GIVEN a bot in the world WHEN a block it has read is changed on the server THEN it reads the new block, and reads of an unchanged block give the one it built', async () => {
    const game = await connectedGame(shared.world, 'cachy', log);
    games.push(game);
    const bot = game.bot!;
    const at = bot.entity.position.floored().offset(3, 0, 0);
    const first = bot.blockAt(at);
    expect(bot.blockAt(at)).toBe(first);
    expect(first?.name).toBe('air');
    const changed = new Promise<void>((resolve) => bot.world.once(`blockUpdate:${at}`, () => resolve()));
    await shared.world.setBlock(at, 'stone');
    await changed;
    expect(bot.blockAt(at)?.name).toBe('stone');
    await shared.world.setBlock(at, 'air');
    await waitFor(() => bot.blockAt(at)?.name === 'air', 10_000, 'the block to be air again');
  });

  it('GIVEN blocks read through the cache THEN each has what a block prismarine-chunk builds has: the same fields, methods, dig time and properties', async () => {
    const game = games[0] ?? (await connectedGame(shared.world, 'cachy', log));
    const bot = game.bot!;
    const origin = bot.entity.position.floored();
    const column = (x: number, z: number) => (bot.world as unknown as { getColumn(x: number, z: number): { getBlock(p: object): Block } }).getColumn(x >> 4, z >> 4);
    const states = new Set<number>();
    for (let dx = -12; dx <= 12; dx += 3) {
      for (let dy = -6; dy <= 8; dy++) {
        for (let dz = -12; dz <= 12; dz += 4) {
          const at = origin.offset(dx, dy, dz);
          const read = bot.blockAt(at, false);
          const built = column(at.x, at.z).getBlock({ x: at.x & 15, y: at.y, z: at.z & 15 });
          built.position = at;
          const where = `${at} (${built.name})`;
          expect(read, where).toBeInstanceOf(Object.getPrototypeOf(built).constructor);
          const own = Object.fromEntries(Object.entries(read!).filter(([, v]) => v !== undefined));
          expect(own, where).toEqual(Object.fromEntries(Object.entries(built).filter(([, v]) => v !== undefined)));
          expect(read!.digTime(null, false, false, false, [], []), where).toBe(built.digTime(null, false, false, false, [], []));
          expect(read!.getProperties(), where).toEqual(built.getProperties());
          states.add(built.stateId);
        }
      }
    }
    expect(states.size, 'air, ground and more').toBeGreaterThan(3);
  });

  it('GIVEN the avatar\'s movements and the library\'s WHEN both search for the same goals THEN they find the same paths at the same cost', async () => {
    const game = games[0] ?? (await connectedGame(shared.world, 'cachy', log));
    const bot = game.bot!;
    await teleportAndSettle(shared.world, game, { x: 0.5, y: 64, z: 0.5 });
    const library = new Movements(bot);
    library.canDig = true;
    library.allow1by1towers = true;
    const search = (movements: InstanceType<typeof Movements>, goal: InstanceType<typeof goals.GoalNear>) => {
      let last: { status: string; cost: number; path: Vec3[] } | undefined;
      // The library moves the nodes of a partial path in place when it smooths the path, and the process's path
      // budget cuts searches into partial ones at moments that vary: compare the searches themselves.
      for (const { result } of bot.pathfinder.getPathFromTo(movements, bot.entity.position, goal, { tickTimeout: 60_000, timeout: 60_000, optimizePath: false })) {
        last = result as unknown as typeof last;
      }
      return { status: last?.status, cost: last?.cost, path: last?.path.map((p) => p.toString()) };
    };
    for (const [x, y, z] of [[12, 64, 9], [-14, 64, 6], [9, 60, -11], [5, 64, 14]] as const) {
      const goal = new goals.GoalNear(x, y, z, 1);
      const ours = search(bot.pathfinder.movements, goal);
      expect(ours.status, `to ${x} ${y} ${z}`).toBe('success');
      expect(ours, `to ${x} ${y} ${z}`).toEqual(search(library, goal));
    }
  });

  it('GIVEN groups of blocks WHEN the nearest of each is looked up in one walk THEN each is as near as the nearest a search of that group alone finds', async () => {
    const game = games[0] ?? (await connectedGame(shared.world, 'cachy', log));
    const bot = game.bot!;
    const names = [['oak_log'], ['stone', 'dirt'], ['coal_ore', 'iron_ore'], ['grass_block'], ['water'], ['crafting_table']];
    const groups = names.map((g) => g.map((n) => bot.registry.blocksByName[n]!.id));
    for (const to of [null, { x: 40.5, y: 64, z: -23.5 }]) {
      if (to) await teleportAndSettle(shared.world, game, to);
      await bot.waitForChunksToLoad();
      const origin = bot.entity.position.floored();
      const together = nearestOfEach(bot, groups, 32);
      groups.forEach((ids, i) => {
        const alone = findBlocksFast(bot, ids, { maxDistance: 32, count: 1 })[0];
        const got = together[i];
        const where = `${names[i]!.join('/')} from ${origin}`;
        if (!alone) {
          expect(got, where).toBeUndefined();
          return;
        }
        expect(got, where).toBeDefined();
        expect(got!.position.distanceSquared(origin), where).toBe(alone.distanceSquared(origin));
        expect(ids, where).toContain(bot.registry.blocksByStateId[got!.stateId]!.id);
        expect(bot.blockAt(got!.position)?.stateId, where).toBe(got!.stateId);
      });
      expect(together[0], 'a tree within 32 blocks').toBeDefined();
    }
  });

  it('GIVEN stone under a bot WHEN the 32 nearest stone blocks are looked up THEN a few chunk sections are read, not all the stone within 64 blocks, and they are the nearest of a full search', async () => {
    const game = games[0] ?? (await connectedGame(shared.world, 'cachy', log));
    const bot = game.bot!;
    await teleportAndSettle(shared.world, game, { x: 0.5, y: 64, z: 0.5 });
    await bot.waitForChunksToLoad();
    const ids = [bot.registry.blocksByName.stone!.id];
    // Block reads counted on the loaded sections' own containers (their classes' get).
    const world = bot.world as unknown as { getColumn(x: number, z: number): { sections?: Array<{ data?: object } | null> } | undefined };
    const protos = new Set<{ get(i: number): number }>();
    for (let cx = -5; cx <= 5; cx++) for (let cz = -5; cz <= 5; cz++) for (const s of world.getColumn(cx, cz)?.sections ?? []) if (s?.data) protos.add(Object.getPrototypeOf(s.data));
    let reads = 0;
    const originals = [...protos].map((proto) => [proto, proto.get] as const);
    for (const [proto, get] of originals) {
      proto.get = function counted(this: unknown, i: number): number {
        reads += 1;
        return get.call(this, i);
      };
    }
    let nearest: Vec3[];
    try {
      nearest = findBlocksFast(bot, ids, { maxDistance: 64, count: 32 });
    } finally {
      for (const [proto, get] of originals) proto.get = get;
    }
    expect(nearest).toHaveLength(32);
    // The nearest stone lies in the four columns round the origin; a section or more beside them may be read too, as
    // where the bot settled and what earlier tests changed decide: a few sections, not the thirty and more within 64.
    expect(reads, 'blocks read for the 32 nearest stone').toBeLessThanOrEqual(8 * 4096);
    const origin = bot.entity.position.floored();
    const all = findBlocksFast(bot, ids, { maxDistance: 64 });
    expect(all.length, 'stone within 64 blocks').toBeGreaterThan(100_000);
    expect(nearest.map((p) => p.distanceSquared(origin))).toEqual(all.slice(0, 32).map((p) => p.distanceSquared(origin)));
  });

  it('GIVEN minecraft-data remembered WHEN prismarine-physics asks it for a version again THEN it gets the same data, and the rest of minecraft-data is as it was', () => {
    rememberMinecraftData();
    const fromMineflayer = createRequire(createRequire(import.meta.url).resolve('mineflayer'));
    const fromPhysics = createRequire(fromMineflayer.resolve('prismarine-physics'));
    const mcData = fromPhysics('minecraft-data') as ((v: string) => { version: { minecraftVersion: string } } | null) & { versionsByMinecraftVersion: object };
    const a = mcData('1.21.4');
    expect(a?.version.minecraftVersion).toBe('1.21.4');
    expect(mcData('1.21.4')).toBe(a);
    expect(mcData('0.0.0-no-such')).toBeNull();
    expect(Object.keys(mcData.versionsByMinecraftVersion)).toContain('pc');
  });

  it('GIVEN alice walking WHEN bob watches her THEN he gets her moves at most at half the rate she sends them, and sees her where she stops', async () => {
    const alice = games[0]!;
    const bob = await connectedGame(shared.world, 'watcher', log);
    games.push(bob);
    const a = alice.bot!;
    const b = bob.bot!;
    await teleportAndSettle(shared.world, alice, { x: 0.5, y: 64, z: 0.5 });
    await teleportAndSettle(shared.world, bob, { x: 0.5, y: 64, z: 5.5 });
    // What bob has when he does not see her: the players he knows of and the player entities he holds.
    const bobsView = (): string =>
      `bob to see alice (his players: ${Object.keys(b.players).join(', ')}; his player entities: ${Object.values(b.entities)
        .filter((e) => e.type === 'player')
        .map((e) => `${e.id} ${e.username ?? '(no name)'} at ${e.position.floored()}`)
        .join('; ')}; alice is ${a.entity.id} at ${a.entity.position.floored()})`;
    await waitFor(() => Object.values(b.entities).some((e) => e.username === a.username), 60_000, bobsView);
    let sent = 0;
    let received = 0;
    const onSent = (name: string): void => {
      if (name === 'position' || name === 'position_look' || name === 'look') sent += 1;
    };
    const write = a._client.write.bind(a._client);
    a._client.write = (name: string, params: unknown) => {
      onSent(name);
      write(name, params);
    };
    const aliceId = b.players[a.username]?.entity?.id;
    b._client.on('packet', (p: { entityId?: number }, meta: { name: string }) => {
      if (p.entityId === aliceId && ['rel_entity_move', 'entity_move_look', 'entity_look', 'sync_entity_position', 'entity_teleport'].includes(meta.name)) received += 1;
    });
    await a.pathfinder.goto(new goals.GoalBlock(10, 64, 0));
    const seen = (): Vec3 | undefined => b.players[a.username]?.entity?.position;
    await waitFor(() => (seen()?.distanceTo(a.entity.position) ?? Infinity) < 0.1, 60_000, () => `bob to see alice where she stopped (${a.entity.position}; he sees ${seen()})`);
    a._client.write = write;
    expect(sent, 'alice sent her moves').toBeGreaterThan(20);
    // At most one per 100 ms against her one per 50 ms, give or take the edges (a move flushed at once before
    // another packet about her, the last one when she stops); relayed one by one it would be 2–3 per move.
    expect(received, `bob got ${received} moves for the ${sent} alice sent`).toBeLessThanOrEqual(sent / 2 + 2);
    expect(received).toBeGreaterThan(0);
  }, 180_000);

  it('GIVEN a bot that goes where it has no columns yet WHEN the world sends them with their light THEN the bot keeps the blocks and none of the light', async () => {
    const game = games[0] ?? (await connectedGame(shared.world, 'cachy', log));
    const bot = game.bot!;
    let withLight = 0;
    // 'packet' comes before the packet's own name, where the light is dropped: what the world sent.
    const count = (p: { skyLight?: unknown[] }, meta: { name: string }): void => {
      if ((meta.name === 'map_chunk' || meta.name === 'update_light') && (p.skyLight?.length ?? 0) > 0) withLight += 1;
    };
    bot._client.on('packet', count);
    await teleportAndSettle(shared.world, game, { x: -150.5, y: 64, z: 150.5 });
    await bot.waitForChunksToLoad();
    bot._client.off('packet', count);
    expect(withLight, 'columns sent with their light').toBeGreaterThan(0);
    const columns = Object.values((bot.world as unknown as { async: { columns: Record<string, { skyLightSections: unknown[]; blockLightSections: unknown[] }> } }).async.columns);
    expect(columns.length).toBeGreaterThan(0);
    const kept = columns.reduce((n, c) => n + [...c.skyLightSections, ...c.blockLightSections].filter((s) => s !== null).length, 0);
    expect(kept, `light sections kept in ${columns.length} columns`).toBe(0);
    const below = bot.blockAt(bot.entity.position.offset(0, -1, 0));
    expect(below?.name, 'the ground under it').toMatch(/grass_block|sand|gravel|dirt/);
    expect([below?.light, below?.skyLight]).toEqual([0, 0]);
  }, 120_000);
});
