/**
 * collect: gather `count` more of a block's drop (logs, stone → cobblestone, dirt, sand, coal…).
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Entity } from 'prismarine-entity';
import type { Vec3 } from 'vec3';
import { z } from 'zod';
import { findBlocksFast } from '../src/game/block-search.ts';
import type { Skill } from '../src/game/skill.ts';
import { keepUnderRoof, minedUnderground } from '../src/game/night.ts';
import { claim, crowding, markOutOfReach, outOfReach } from './claims.ts';
import { roofOver, toSurface } from './climb.ts';
import { digIn, dugIn, roofLine } from './dig-in.ts';
import { digSurely, done, equipToDig, fail, goals, itemIds, newDropNear, onBot, sleep, toolDigMs, UnreachableError, walk } from './common.ts';
import { blocksYielding, countCarried, itemQuery } from './items.ts';
import { ownTableNear } from './place.ts';

const params = z.object({
  item: z.string().min(1).max(64).describe('block or item name or group: log, oak_log, stone, cobblestone, dirt, sand, gravel, coal…'),
  count: z.number().int().min(1).max(256).default(1),
});

/** How far collect looks for blocks. */
const SEARCH_RADIUS = 64;
/** How many of the nearest blocks collect looks at first, and then at most (when none of the first is free). */
const FIRST_LOOK = 32;
const MOST_LOOK = 4096;
/** Blocks that could not be reached are skipped; this many in a row ends the skill. */
const MAX_UNREACHABLE = 5;
/** Digs in a row that gave nothing before the skill gives up: few for blocks that always drop, many for leaves. */
const MAX_FRUITLESS = 4;
const MAX_FRUITLESS_BY_CHANCE = 300;
/** How long after a dig to wait for its drop to appear (and for the server to send the block back) before going on. */
const DROP_APPEARS_MS = 1000;
/** Blocks the server sent back after every try of a dig, in a row, before the skill gives up. */
const MAX_SENT_BACK = 3;

/** Leaves drop saplings, sticks and apples only now and then (an apple 1 in 200). */
function dropsByChance(name: string): boolean {
  return name.endsWith('_leaves');
}

/** Blocks whose top is at most this far above the feet can be dug standing on the ground. */
const GROUND_REACH = 3;

/** The six blocks next to a block. */
const SIDES: ReadonlyArray<readonly [number, number, number]> = [
  [1, 0, 0],
  [-1, 0, 0],
  [0, 1, 0],
  [0, -1, 0],
  [0, 0, 1],
  [0, 0, -1],
];

/**
 * Whether block `p` is shut in above the bot's head: every side against a full block (a log at the top of a trunk,
 * inside the canopy, with the trunk under it). No face of it can be seen from anywhere, so the path search, asked
 * for a spot to dig it from, searched until its time was up (10 s) and found none. Below that height the bot digs its
 * way to a block (a tunnel); up there it would have to build its way.
 */
function shutInAbove(bot: Bot, p: Vec3, feetY: number): boolean {
  if (p.y <= feetY + 1) return false;
  return SIDES.every(([dx, dy, dz]) => bot.blockAt(p.offset(dx, dy, dz))?.boundingBox === 'block');
}

/**
 * The block to go for next: the nearest that nobody else is going for, that this avatar could get to lately and that
 * is not shut in above its head (leaves: within reach from the ground first). Each of these only puts a block after
 * the others, in that order of weight; the nearest of the best is taken.
 */
function nearestTarget(bot: Bot, ids: number[], skip: Set<string>, maxY = Infinity): Block | undefined {
  const me = bot.entity.position;
  const feetY = Math.floor(me.y);
  // Leaves grow in canopies: take those within reach from the ground first.
  const lowFirst = ids.every((id) => dropsByChance(bot.registry.blocks[id]?.name ?? ''));
  // Under a roof every block is shut in, and dug to.
  const underRoof = roofOver(bot) !== null;
  // Nearest first, the nearest few and then, when none of them is free on every count, many more: with a hundred
  // avatars collecting around one spot, the 16 nearest logs were all claimed and every avatar that came later went
  // for the same claimed one. (Not all of them: the stone within the radius is 230,000 blocks.)
  let best: { block: Block; rank: number; d2: number } | undefined;
  const most = MOST_LOOK + skip.size;
  for (let count = FIRST_LOOK + skip.size, from = 0; ; count = most) {
    const found = findBlocksFast(bot, ids, { maxDistance: SEARCH_RADIUS, count });
    for (const p of found.slice(from)) {
      if (p.y > maxY || skip.has(p.toString())) continue;
      const crowded = crowding(bot, p);
      let rank = (crowded === 2 ? 16 : 0) + (outOfReach(bot, p) ? 8 : 0) + (crowded === 1 ? 2 : 0) + (lowFirst && p.y - feetY > GROUND_REACH ? 1 : 0);
      // Between blocks as good, the nearest from where the bot stands (not from its block): in a pit, the stone
      // beside the feet before the one under them, so it does not dig itself deeper than it needs to.
      const d2 = p.distanceSquared(me);
      const worse = (): boolean => !!best && (rank > best.rank || (rank === best.rank && d2 >= best.d2));
      if (worse()) continue;
      // Read only for a block that could still be the best (six block reads).
      if (!underRoof && shutInAbove(bot, p, feetY)) rank += 4;
      if (worse()) continue;
      const block = bot.blockAt(p);
      if (block && ids.includes(block.type)) best = { block, rank, d2 };
    }
    if (best?.rank === 0 || found.length < count || count >= most) break;
    from = found.length;
  }
  return best?.block;
}

/** Whether the bot can harvest the block with something it carries (vanilla rules). */
function hasHarvestTool(bot: Bot, block: Block): boolean {
  const tools = block.harvestTools;
  if (!tools) return true;
  return bot.inventory.items().some((i) => tools[i.type]);
}

async function equipFor(bot: Bot, block: Block): Promise<void> {
  const tool = bot.pathfinder.bestHarvestTool(block);
  if (tool && bot.heldItem?.type !== tool.type) await bot.equip(tool, 'hand');
}

/** Walk over the drops near `at` until the count rises or a few seconds pass. Drops out of reach (on leaves) are left. */
async function pickUp(bot: Bot, query: string, before: number, at: Vec3, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + 3000;
  let chasing: Entity | undefined;
  try {
    while (Date.now() < deadline) {
      if (countCarried(bot, query) > before) return;
      const feetY = bot.entity.position.y;
      const drop: Entity | null = bot.nearestEntity(
        (e) => e.name === 'item' && e.position.distanceTo(at) < 6 && Math.abs(e.position.y - feetY) < 1.5,
      );
      if (drop && drop !== chasing) {
        chasing = drop;
        bot.pathfinder.setGoal(new goals.GoalNear(drop.position.x, drop.position.y, drop.position.z, 1));
      }
      await sleep(100, signal);
    }
  } finally {
    if (chasing) bot.pathfinder.setGoal(null);
  }
}

/**
 * How much more than its straight-line distance a step under ground is reckoned to cost: a tunnel step digs two
 * blocks. Told only the distance, the path search looked at every block around (10,000 and more) before it dug
 * ahead, and ran out of time for ore 15 blocks away.
 */
const TUNNEL_WEIGHT = 4;

type Goal = InstanceType<typeof goals.Goal>;
let tunnelGoal: (new (spots: Goal[]) => Goal) | undefined;

/**
 * A goal whose distance estimate counts each block as a tunnel step (a weighted search: quick, near the best). Its
 * class is made on first use: it extends the pathfinder's, which is loaded only when a skill first walks.
 */
function newTunnelGoal(spots: Goal[]): Goal {
  tunnelGoal ??= class TunnelGoal extends goals.GoalCompositeAny<Goal> {
    override heuristic(node: Parameters<Goal['heuristic']>[0]): number {
      return super.heuristic(node) * TUNNEL_WEIGHT;
    }
  };
  return new tunnelGoal(spots);
}

/**
 * Where to dig `block` from: anywhere within reach with a face of it in sight, or right beside it. A block inside
 * solid ground has no face in sight from anywhere the world has air yet (the pathfinder plans its tunnel in blocks
 * still standing), so only the spot beside it ends a tunnel; looking for a view alone, the search ran to its time
 * limit every time. Under ground the search is weighted toward digging ahead.
 */
function digSpot(bot: Bot, block: Block, tunnel: boolean): Goal {
  const { x, y, z } = block.position;
  const spots = [new goals.GoalLookAtBlock(block.position, bot.world, { reach: 4 }), new goals.GoalGetToBlock(x, y, z)];
  return tunnel ? newTunnelGoal(spots) : new goals.GoalCompositeAny(spots);
}

/** Wait (briefly) until the bot stands on the ground: digging in the air takes five times as long. */
async function settle(bot: Bot, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + 1500;
  while (!bot.entity.onGround && Date.now() < deadline) await sleep(50, signal);
}

/** Ores and what they drop (raw iron, coal…): lying deep, where a table up here is out of reach. */
function isOre(query: string): boolean {
  return query.endsWith('_ore') || query.startsWith('raw_') || ['coal', 'diamond', 'emerald', 'redstone', 'lapis_lazuli'].includes(query);
}

/** How far from the eyes a table is taken along (vanilla's reach for a block). */
const TABLE_REACH = 4.5;

/**
 * Going down for ore, take the crafting table along that this avatar placed beside it (what it crafts down there
 * needs one, and the planner counts on it): dig it and pick it up. Nothing happens without one, or with one carried.
 */
async function takeTableAlong(bot: Bot, signal: AbortSignal): Promise<void> {
  if (countCarried(bot, 'crafting_table') > 0) return;
  const table = ownTableNear(bot, TABLE_REACH);
  if (!table) return;
  await equipToDig(bot, table);
  const how = await digSurely(bot, table, signal, { withinMs: toolDigMs(bot, table) + 5000 });
  if (how !== 'dug') return;
  await pickUp(bot, 'crafting_table', 0, table.position.offset(0.5, 0.5, 0.5), signal);
}

/** The `collect` skill. */
export const collect: Skill<typeof params> = {
  id: 'collect',
  description:
    'Gather N more of a block drop: finds the nearest matching block within 64 blocks, walks to it, digs it and picks up the drop. ' +
    'item: log (any log), oak_log, stone/cobblestone, dirt, sand, gravel, coal, …',
  params,
  timeoutMs: 180_000,
  run(game, { item, count }, signal) {
    // Counted from the first attempt: a run a reflex interrupted takes up again toward the same total.
    let start: number | undefined;
    return onBot(game, 'collect', signal, async (bot, sig) => {
      const query = itemQuery(item);
      const ids = blocksYielding(bot, query);
      if (ids.length === 0) return fail('no_target', `no block gives ${item}`);
      start ??= countCarried(bot, query);
      const goal = start + count;
      if (isOre(query)) await takeTableAlong(bot, sig);
      // At night where monsters roam, what lies under ground is mined from under a roof: dug in first (what that
      // digs counts), then every block taken and every step kept under the roof line.
      let below: number | undefined;
      if (game.capabilities.mobs && bot.time && keepUnderRoof(bot.time.timeOfDay) && minedUnderground(query)) {
        if (!dugIn(bot)) {
          const why = await digIn(bot, sig);
          if (why) return fail('unreachable', `${why} before mining in the dark`);
        }
        below = roofLine(bot) ?? undefined;
      }
      const skip = new Set<string>();
      let unreachable = 0;
      let fruitless = 0;
      let sentBack = 0;
      while (countCarried(bot, query) < goal) {
        const got = countCarried(bot, query) - start;
        const block = nearestTarget(bot, ids, skip, below);
        if (!block) {
          const where = below === undefined ? '' : ' under ground';
          return fail('no_target', `no ${item}${where} within ${SEARCH_RADIUS} blocks (got ${got} of ${count})`);
        }
        // Without the right tool a block drops nothing (on vanilla, and on the embedded world's tools plugin).
        if (game.capabilities.crafting && !hasHarvestTool(bot, block)) {
          return fail('missing_tool', `${block.name} needs a tool I do not carry (got ${got} of ${count})`);
        }
        // A block well above, from under ground (logs after mining): out of the mine first, the way a player climbs.
        if (below === undefined && block.position.y > bot.entity.position.y + 6) {
          const stuck = await toSurface(bot, sig);
          if (stuck) return fail('unreachable', `could not get out from under ground to the ${block.name}: ${stuck}`);
        }
        const key = block.position.toString();
        // Claimed while walking and digging: another avatar collecting now picks another block.
        const release = claim(bot, block.position);
        let gained = false;
        try {
          try {
            const far = block.position.distanceTo(bot.entity.position);
            // A block below, or any from under ground, is reached by digging a tunnel (two blocks a step): allow for it.
            const tunnel = block.position.y < bot.entity.position.y - 2 || roofOver(bot) !== null;
            const perBlock = tunnel ? 1000 + 2 * Math.min(toolDigMs(bot, block), 3000) : 1000;
            await walk(bot, digSpot(bot, block, tunnel), sig, `to the ${block.name}`, 10_000 + far * perBlock, below === undefined ? {} : { below });
          } catch (err) {
            if (!(err instanceof UnreachableError)) throw err;
            skip.add(key);
            markOutOfReach(bot, block.position);
            if (++unreachable >= MAX_UNREACHABLE) return fail('unreachable', `cannot reach any ${item} (got ${got} of ${count})`);
            continue;
          }
          unreachable = 0;
          const target = bot.blockAt(block.position);
          // Someone else dug it meanwhile: not a dig that gave nothing, just the next block.
          if (!target || !ids.includes(target.type)) continue;
          // Arrived where the path search could get nearest, and still out of reach (the pathfinder's goto takes a
          // search whose best spot is where the bot stands as arrived): the next runs take it last too.
          if (!bot.canDigBlock(target)) {
            skip.add(key);
            markOutOfReach(bot, block.position);
            continue;
          }
          const before = countCarried(bot, query);
          await equipFor(bot, target);
          await settle(bot, sig);
          const at = target.position.offset(0.5, 0.5, 0.5);
          const earlier = itemIds(bot);
          const dropped = (): boolean => countCarried(bot, query) > before || newDropNear(bot, at, earlier);
          // Watched for as long as a drop takes to appear: a block that drops by chance gave nothing when none did.
          const how = await digSurely(bot, target, sig, { withinMs: bot.digTime(target) + 5000, taken: dropped, watchMs: DROP_APPEARS_MS });
          if (how === 'failed') {
            skip.add(key);
            continue;
          }
          // Sent back (the server took the dig as too fast): not a dig that gave nothing; the block is dug again.
          if (how === 'sent_back') {
            if (++sentBack >= MAX_SENT_BACK) return fail('no_drop', `the server sent every ${block.name} I dug back (got ${got} of ${count})`);
            continue;
          }
          sentBack = 0;
          if (!dropsByChance(target.name) || dropped()) await pickUp(bot, query, before, at, sig);
          gained = countCarried(bot, query) > before;
        } finally {
          release();
        }
        if (gained) fruitless = 0;
        else if (++fruitless >= (dropsByChance(block.name) ? MAX_FRUITLESS_BY_CHANCE : MAX_FRUITLESS)) return fail('no_drop', `digging ${block.name} gave me nothing (got ${got} of ${count})`);
      }
      const total = countCarried(bot, query);
      return done(`collected ${total - (start ?? total)} ${item} (now carrying ${total})`);
    });
  },
};
