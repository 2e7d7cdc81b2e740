/**
 * place: put a block from the inventory next to the avatar, or at x y z.
 */
import type { Bot } from 'mineflayer';
import type { Block } from 'prismarine-block';
import type { Item } from 'prismarine-item';
import type { Vec3 } from 'vec3';
import { z } from 'zod';
import type { Skill, SkillResult } from '../src/game/skill.ts';
import { digSurely, done, EYE_HEIGHT, fail, goals, onBot, equipToDig, toolDigMs, walk } from './common.ts';
import { matchesItem } from './items.ts';

const params = z.object({
  item: z.string().min(1).max(64),
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  z: z.number().int().optional(),
});

const FACES: Array<[number, number, number]> = [
  [0, -1, 0],
  [1, 0, 0],
  [-1, 0, 0],
  [0, 0, 1],
  [0, 0, -1],
  [0, 1, 0],
];

function isFree(block: Block | null): boolean {
  return !!block && (block.name === 'air' || block.name === 'cave_air' || block.boundingBox === 'empty') && block.name !== 'water' && block.name !== 'lava';
}

/** A solid neighbour of `at` to place against, and the face vector from it to `at`. */
function reference(bot: Bot, at: Vec3): { ref: Block; face: Vec3 } | undefined {
  for (const [dx, dy, dz] of FACES) {
    const ref = bot.blockAt(at.offset(dx, dy, dz));
    if (ref && ref.boundingBox === 'block') return { ref, face: at.minus(ref.position) };
  }
  return undefined;
}

/** A free spot next to the bot with solid ground under it, not where the bot stands. */
function spotNextTo(bot: Bot): Vec3 | undefined {
  const feet = bot.entity.position.floored();
  for (const [dx, dz] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1], [2, 0], [0, 2], [-2, 0], [0, -2]] as const) {
    const p = feet.offset(dx, 0, dz);
    const below = bot.blockAt(p.offset(0, -1, 0));
    if (isFree(bot.blockAt(p)) && below?.boundingBox === 'block') return p;
  }
  return undefined;
}

/** The crafting tables each bot placed itself, by position: its own to take along (skills/collect.ts). */
const ownTables = new WeakMap<Bot, Set<string>>();

/**
 * A crafting table this bot placed itself within `reach` blocks of its eyes and about level with its feet (its drop
 * falls within reach), if any.
 */
export function ownTableNear(bot: Bot, reach: number): Block | undefined {
  const eyes = bot.entity.position.offset(0, EYE_HEIGHT, 0);
  for (const key of ownTables.get(bot) ?? []) {
    const [x, y, z] = key.split(',').map(Number) as [number, number, number];
    const block = bot.blockAt(bot.entity.position.floored().set(x, y, z));
    if (block?.name !== 'crafting_table') {
      ownTables.get(bot)?.delete(key);
      continue;
    }
    if (Math.abs(y - Math.floor(bot.entity.position.y)) <= 1 && eyes.distanceTo(block.position.offset(0.5, 0.5, 0.5)) <= reach) return block;
  }
  return undefined;
}

/** Ground this slow to dig with what is carried is not dug to make room. */
const MAX_ROOM_DIG_MS = 3000;

/**
 * Make a free spot next to a bot that is boxed in (at the bottom of a shaft, in a one-block tunnel end): dig the
 * quickest block beside its feet that has solid ground under it. Returns the spot, or undefined.
 */
async function digRoom(bot: Bot, sig: AbortSignal): Promise<Vec3 | undefined> {
  const feet = bot.entity.position.floored();
  const options = [[1, 0], [-1, 0], [0, 1], [0, -1]]
    .map(([dx, dz]) => bot.blockAt(feet.offset(dx ?? 0, 0, dz ?? 0)))
    .filter((b): b is Block => !!b && b.boundingBox === 'block' && bot.canDigBlock(b) && bot.blockAt(b.position.offset(0, -1, 0))?.boundingBox === 'block')
    .sort((a, b) => toolDigMs(bot, a) - toolDigMs(bot, b));
  const block = options[0];
  // Timed with the best tool carried, not what the hand holds (a plank after crafting).
  if (!block || toolDigMs(bot, block) > MAX_ROOM_DIG_MS) return undefined;
  await equipToDig(bot, block);
  if ((await digSurely(bot, block, sig)) !== 'dug') return undefined;
  return isFree(bot.blockAt(block.position)) ? block.position : undefined;
}

/**
 * Place a block of `item` from the inventory next to the bot, or at x y z (walking there if needed). A bot boxed in
 * digs room beside it first. For skills that already hold the skill gate (craft places its table with it); others
 * run the `place` skill.
 */
export async function placeItem(bot: Bot, sig: AbortSignal, { item, x, y, z: zz }: z.infer<typeof params>): Promise<SkillResult> {
  const carried = (): Item | undefined => bot.inventory.items().find((i) => matchesItem(item, i.name) && bot.registry.blocksByName[i.name]);
  let stack = carried();
  if (!stack) return fail('missing_material', `I have no ${item} to place`);
  let at: Vec3 | undefined;
  if (x !== undefined && y !== undefined && zz !== undefined) {
    at = bot.entity.position.floored().set(x, y, zz);
    if (!isFree(bot.blockAt(at))) return fail('precondition_failed', `${x} ${y} ${zz} is not free`);
    if (bot.entity.position.distanceTo(at.offset(0.5, 0.5, 0.5)) > 4) {
      // Not up on the block to place: the pathfinder builds with dirt first, and the caller counted on every one.
      await walk(bot, new goals.GoalNear(x, y, zz, 3), sig, `near ${x} ${y} ${zz}`, undefined, { spare: [stack.type] });
      // The stack as it is now (the one found before the walk is a record of its slot then).
      stack = carried();
      if (!stack) return fail('missing_material', `I have no ${item} left to place`);
    }
  } else {
    at = spotNextTo(bot) ?? (await digRoom(bot, sig));
    if (!at) return fail('no_target', 'no free spot next to me');
  }
  const r = reference(bot, at);
  if (!r) return fail('no_target', `nothing to place the ${stack.name} against at ${at.x} ${at.y} ${at.z}`);
  await bot.equip(stack, 'hand');
  await bot.placeBlock(r.ref, r.face);
  const placed = bot.blockAt(at);
  if (placed?.name !== stack.name) return fail('not_placed', `the ${stack.name} did not stay at ${at.x} ${at.y} ${at.z}`);
  if (stack.name === 'crafting_table') ownTables.set(bot, (ownTables.get(bot) ?? new Set<string>()).add(`${at.x},${at.y},${at.z}`));
  return { ...done(`placed ${stack.name} at ${at.x} ${at.y} ${at.z}`), placed: { block: stack.name, x: at.x, y: at.y, z: at.z } };
}

/** The `place` skill. */
export const place: Skill<typeof params> = {
  id: 'place',
  description: 'Place a block from the inventory next to me, or at x y z.',
  params,
  timeoutMs: 60_000,
  run(game, p, signal) {
    return onBot(game, 'place', signal, (bot, sig) => placeItem(bot, sig, p));
  },
};
