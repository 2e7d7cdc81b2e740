/**
 * Avatars of two Minecraft versions in one process: a 1.18.2 world and a 1.21.4 world (each an embedded world),
 * an avatar on each. What a bot reads of its version (recipes, items, blocks, physics, the pathfinder's moves)
 * must be its own version's, whichever bot joined last: each avatar collects a log, then crafts planks,
 * sticks, a crafting table and a wooden pickaxe, the two taking turns. Once with both games in this process
 * (`AVATAR_HOSTS=1`), once with both on one avatar host (the 1.21.4 world as its embedded world, the
 * 1.18.2 one as an added server).
 */
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSkillRegistry } from '../../skills/index.ts';
import type { EmbeddedWorld } from '../../src/game/embedded/embedded-world.ts';
import type { AvatarGame, GameServer } from '../../src/game/game.ts';
import type { HostedGame } from '../../src/game/hosts/hosted-game.ts';
import { HOST_ENTRY } from '../../src/game/hosts/hosted-provider.ts';
import { HostPool } from '../../src/game/hosts/pool.ts';
import { EMBEDDED_CAPABILITIES } from '../../src/game/mineflayer-game.ts';
import type { SkillResult } from '../../src/game/skill.ts';
import { tempDataDir, waitFor, worldPerFile } from './helpers.ts';

const OLD = '1.18.2';
const old = worldPerFile('versions-old', { version: OLD });
const current = worldPerFile('versions-new');

/** One avatar as the test drives it: its game, the world it is on, and how its skills are run. */
interface Player {
  game: AvatarGame;
  world: EmbeddedWorld;
  run(skill: string, params: Record<string, unknown>): Promise<SkillResult>;
}

/** Each step is taken by every player in turn before the next step. */
const STEPS: Array<[skill: string, params: Record<string, unknown>]> = [
  ['collect', { item: 'oak_log', count: 1 }],
  ['craft', { item: 'oak_planks', count: 12 }],
  ['craft', { item: 'stick', count: 4 }],
  ['craft', { item: 'crafting_table', count: 1 }],
  ['craft', { item: 'wooden_pickaxe', count: 1 }],
];

/** The player's inventory as its server holds it, by item name (the server's own registry names them). */
async function serverInventory(p: Player): Promise<Record<string, number>> {
  const inv = await p.world.inventory(p.game.username);
  const out: Record<string, number> = {};
  for (const item of Object.values(inv.slots)) out[item.name] = (out[item.name] ?? 0) + item.count;
  return out;
}

/** Item counts as one string, in name order (to compare two inventories). */
const counts = (inv: Record<string, number> | undefined): string =>
  JSON.stringify(Object.entries(inv ?? {}).sort(([a], [b]) => a.localeCompare(b)));

/** Every step, the players taking turns; then each holds a pickaxe, and its game names its items as its server does. */
async function takeTurns(players: Player[]): Promise<void> {
  for (const [skill, params] of STEPS) {
    for (const p of players) {
      const r = await p.run(skill, params);
      expect(r, `${p.game.username} on ${p.world.version}, ${skill} ${JSON.stringify(params)}: ${r.detail}`).toMatchObject({ ok: true });
    }
  }
  for (const p of players) {
    const server = await serverInventory(p);
    expect(server.wooden_pickaxe, `${p.game.username}'s inventory on the server: ${JSON.stringify(server)}`).toBe(1);
    await waitFor(() => counts(p.game.snapshot()?.inventory) === counts(server), 10_000, () => `${p.game.username}'s snapshot ${counts(p.game.snapshot()?.inventory)} to read as the server's ${counts(server)}`);
  }
}

describe('GIVEN a 1.18.2 world and a 1.21.4 world', () => {
  it('GIVEN an avatar on each, both in this process (AVATAR_HOSTS=1) THEN each collects and crafts a pickaxe by its own version, taking turns', async () => {
    // The 1.18.2 bot joins first: the 1.21.4 bot's tables are the last loaded.
    const ann = await old.avatar('ann', 2, 2, [['oak_log', 3]]);
    const ben = await current.avatar('ben', 2, 2, [['oak_log', 3]]);
    expect([ann.bot.version, ben.bot.version]).toEqual([OLD, '1.21.4']);
    const player = (game: AvatarGame, world: EmbeddedWorld): Player => {
      const skills = createSkillRegistry(game);
      return { game, world, run: (skill, params) => skills.run(skill, params, new AbortController().signal) };
    };
    try {
      await takeTurns([player(ann.game, old.world), player(ben.game, current.world)]);
    } finally {
      // Out of the worlds the next case plays in: a player standing by the tree would pick up the drops of its logs.
      await Promise.all([ann.game.stop(), ben.game.stop()]);
    }
  }, 300_000);

  describe('GIVEN one avatar host', () => {
    const data = tempDataDir('versions-host');
    let pool: HostPool | undefined;
    const games: HostedGame[] = [];
    const dataDirBefore = process.env.DATA_DIR;

    beforeAll(async () => {
      // The host reads its configuration from the environment, as mindlink's own process does.
      process.env.LOG_LEVEL = process.env.TEST_LOG ?? 'silent';
      process.env.DATA_DIR = data.dir;
      const w = current.world;
      pool = await HostPool.start({ count: 1, entry: HOST_ENTRY, world: { host: w.host, port: w.port, version: w.version }, log: current.log });
    }, 120_000);

    afterAll(async () => {
      await Promise.all(games.map((g) => g.stop()));
      await pool?.close();
      if (dataDirBefore === undefined) delete process.env.DATA_DIR;
      else process.env.DATA_DIR = dataDirBefore;
      data.remove();
    }, 120_000);

    /** A game on the host, started and in the world, holding `logs` oak logs. */
    const hosted = async (name: string, server: GameServer, world: EmbeddedWorld, logs: number): Promise<Player> => {
      const game = pool!.game(name, server, EMBEDDED_CAPABILITIES);
      games.push(game);
      const connected = once(game, 'connected');
      await game.start();
      await connected;
      await world.give(name, 'oak_log', logs);
      await waitFor(() => game.snapshot()?.inventory.oak_log === logs, 20_000, () => `${name}'s logs (${JSON.stringify(game.snapshot()?.inventory)})`);
      return { game, world, run: (skill, params) => game.runSkill(skill, params, new AbortController().signal) };
    };

    it('GIVEN an avatar on the embedded 1.21.4 world and one on an added 1.18.2 server THEN both play on that host, and each collects and crafts a pickaxe by its own version, taking turns', async () => {
      // The 1.21.4 bot joins first this time: the 1.18.2 bot's tables are the last loaded.
      const cy = await hosted('cy', { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' }, current.world, 3);
      const di = await hosted('di', { id: 'old', host: old.world.host, port: old.world.port, version: OLD, auth: 'offline' }, old.world, 3);
      expect(games.map((g) => pool!.slotOf(g))).toEqual([0, 0]);
      await takeTurns([cy, di]);
    }, 300_000);
  });
});
