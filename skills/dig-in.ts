/**
 * Going under ground as a player does before dark: straight down from where the avatar stands, one block at a
 * time, closing the shaft over its head once it is three blocks down, so nothing walking on the surface falls in.
 * Deep enough, monsters on the surface lose it (the embedded world's zombies follow a player at most 16 blocks
 * up or down, and spawn within 16 blocks of its height). Under ground, walks keep a roof of ground over the head
 * ({@link roofLine}): a tunnel never opens onto the surface.
 */
import type { Bot } from 'mineflayer';
import type { Vec3 } from 'vec3';
import { roofOver, scaffoldItem, surfaceAbove } from './climb.ts';
import { digSurely, equipToDig, sleep, toolDigMs } from './common.ts';

/** Blocks of ground over the feet once dug in: 17, one more than a zombie's reach up or down on the embedded world. */
export const DIG_IN_DEPTH = 17;
/** Ground a tunnel keeps over the head: the feet stay this far under the surface's feet height. */
const ROOF_DEPTH = 4;
/** Ground that takes longer than this to dig with what is carried is not dug into. */
const MAX_DIG_MS = 4000;
/** The shaft is closed once the feet are this far down (the lid goes right over the head). */
const LID_AFTER = 3;
const SIDES: ReadonlyArray<readonly [number, number]> = [[1, 0], [-1, 0], [0, 1], [0, -1]];

/** A solid block (not air, water, lava or a plant). */
function solid(bot: Bot, at: Vec3): boolean {
  return bot.blockAt(at)?.boundingBox === 'block';
}

/**
 * Dig the block at `at` (under the feet) and wait to land on the next. Returns why it could not, or null.
 * Nothing is dug that the best tool carried takes longer than 4 s for.
 */
export async function digDown(bot: Bot, at: Vec3, sig: AbortSignal): Promise<string | null> {
  const block = bot.blockAt(at);
  if (!block) return 'the ground below is not loaded';
  if (block.boundingBox !== 'block') return null;
  if (!bot.canDigBlock(block) || toolDigMs(bot, block) > MAX_DIG_MS) return `the ${block.name} below is too hard to dig into`;
  await equipToDig(bot, block);
  // Digging from the air takes five times as long: on the ground first (a knockback, the last fall).
  const ground = Date.now() + 1500;
  while (!bot.entity.onGround && Date.now() < ground) await sleep(50, sig);
  // Landed a block lower: the dig went through.
  const landed = (): boolean => bot.entity.onGround && bot.entity.position.y <= at.y + 0.01;
  const how = await digSurely(bot, block, sig, { taken: landed });
  if (how !== 'dug') return how === 'sent_back' ? `the ${block.name} below would not break` : `I could not dig the ${block.name} below`;
  // Its drop may show before the fall ends.
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline && !landed()) await sleep(50, sig);
  return null;
}

/**
 * Close the shaft at `lid` (right over the head) with a block carried, against a solid side. Returns why it could
 * not (with a skill result code), or null.
 */
export async function closeAbove(bot: Bot, lid: Vec3): Promise<{ code: string; why: string } | null> {
  if (solid(bot, lid)) return null;
  const stack = scaffoldItem(bot);
  if (!stack) return { code: 'missing_material', why: 'I have nothing to close the hole with' };
  const side = SIDES.map(([dx, dz]) => bot.blockAt(lid.offset(dx, 0, dz))).find((b) => b?.boundingBox === 'block');
  if (!side) return { code: 'no_target', why: 'nothing beside the hole to put a lid against' };
  await bot.equip(stack, 'hand');
  await bot.placeBlock(side, lid.minus(side.position));
  return solid(bot, lid) ? null : { code: 'not_placed', why: 'the lid did not stay' };
}

/**
 * The highest a walk under ground may put the body (feet or head): two blocks of ground stay over the head, so a
 * zombie standing on the surface cannot reach down to it. Null when the bot is not under ground.
 */
export function roofLine(bot: Bot): number | null {
  const surface = surfaceAbove(bot);
  return surface === null ? null : surface - ROOF_DEPTH + 1;
}

/** Whether the bot is dug in: ground over its own head, and at least `depth` blocks of it over its feet. */
export function dugIn(bot: Bot, depth = DIG_IN_DEPTH): boolean {
  const surface = surfaceAbove(bot);
  return roofOver(bot) !== null && surface !== null && surface - bot.entity.position.y >= depth;
}

/**
 * Dig in: straight down until `depth` blocks of ground are over the feet, the shaft closed over the head three
 * blocks down (or right away, in a shaft open to the sky). Stops short, dug in as far as it got, above a hollow or
 * water (a cave, on vanilla) or ground too hard to dig. Returns why it could not get under a roof at all, or null.
 *
 * @example
 * const why = await digIn(bot, signal); // → null: under ground, the shaft closed above
 */
export async function digIn(bot: Bot, sig: AbortSignal, depth = DIG_IN_DEPTH): Promise<string | null> {
  const top = bot.entity.position.floored();
  const surface = surfaceAbove(bot) ?? top.y;
  // Open to the sky above (the surface, an open shaft): the lid goes at the height the digging started from.
  let lid: Vec3 | null = roofOver(bot) === null ? top.offset(0, -1, 0) : null;
  let stopped: string | null = null;
  for (;;) {
    const feet = bot.entity.position.floored();
    if (lid && lid.y - feet.y >= LID_AFTER - 1) {
      const closed = await closeAbove(bot, lid);
      if (closed) return closed.why;
      lid = null;
    }
    if (!lid && surface - feet.y >= depth) break;
    // What the feet would land on after the next block: solid ground, not a hollow (a fall) or water.
    if (!solid(bot, feet.offset(0, -2, 0))) {
      stopped = 'a hollow or water below';
      break;
    }
    const why = await digDown(bot, feet.offset(0, -1, 0), sig);
    if (why) {
      stopped = why;
      break;
    }
    if (bot.entity.position.y > feet.y - 0.5) {
      stopped = 'I did not get down';
      break;
    }
  }
  if (lid) {
    // Stopped before the lid's depth: still under the open sky.
    return `I could not dig in (${stopped ?? 'too shallow'})`;
  }
  return null;
}
