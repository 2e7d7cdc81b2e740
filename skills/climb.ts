/**
 * Climbing straight up, as a player does out of a hole or a mine: dig what is above the head, jump, and place a
 * block under the feet, one level at a time. The pathfinder finds such a way too, but from deep under ground its
 * search (and the tunnel it digs sideways) takes longer than any walk allows.
 */
import type { Bot } from 'mineflayer';
import type { Item } from 'prismarine-item';
import { Vec3 } from 'vec3';
import { equipToDig, sleep, toolDigMs } from './common.ts';

/** Blocks to stand on, best first (planks when there is nothing else). */
const SCAFFOLD = ['dirt', 'cobblestone', 'cobbled_deepslate', 'stone', 'sand', 'gravel', 'netherrack'];
/** Ground above that takes longer than this to dig with what is carried stops the climb. */
const MAX_DIG_MS = 5000;
/** How far above the head the surface is looked for. */
const SURFACE_SCAN = 48;
/** Open blocks in a row above a solid one that mean open air (not a cave or a tunnel crossing). */
const OPEN_RUN = 4;

/** A block to place under the feet, or undefined. */
export function scaffoldItem(bot: Bot): Item | undefined {
  const items = bot.inventory.items();
  for (const name of SCAFFOLD) {
    const item = items.find((i) => i.name === name);
    if (item) return item;
  }
  return items.find((i) => i.name.endsWith('_planks'));
}

/** Ground: a solid block that is not part of a tree (a canopy overhead is no mine). */
function ground(bot: Bot, at: Vec3): boolean {
  const b = bot.blockAt(at);
  return !!b && b.boundingBox === 'block' && !b.name.endsWith('_leaves') && !b.name.endsWith('_log');
}

/** The top of the ground over (x, z) above height `from`: the highest solid block with open air above it, or null. */
function groundTop(bot: Bot, x: number, z: number, from: number): number | null {
  let top: number | null = null;
  let open = 0;
  for (let y = from; y <= from + SURFACE_SCAN; y++) {
    if (ground(bot, new Vec3(x, y, z))) {
      top = y;
      open = 0;
    } else if (++open >= OPEN_RUN && top !== null) return top;
  }
  return top;
}

/** The top of the ground in the bot's own column over its head, or null when the sky is open above it. */
export function roofOver(bot: Bot): number | null {
  const feet = bot.entity.position.floored();
  return groundTop(bot, feet.x, feet.z, feet.y + 2);
}

/**
 * The feet height of the surface above the bot, or null when it is not under ground: ground over its head (a
 * tunnel), or walls of ground on all four sides up past its head (the bottom of its own shaft).
 */
export function surfaceAbove(bot: Bot): number | null {
  const feet = bot.entity.position.floored();
  const own = roofOver(bot);
  if (own !== null) return own + 1;
  const sides = [[1, 0], [-1, 0], [0, 1], [0, -1]].map(([dx, dz]) => groundTop(bot, feet.x + (dx ?? 0), feet.z + (dz ?? 0), feet.y + 1));
  if (sides.some((t) => t === null)) return null;
  return Math.min(...(sides as number[])) + 1;
}

/** Climb until the feet are at height `y`. Returns why it could not, or null. */
export async function pillarUp(bot: Bot, y: number, sig: AbortSignal): Promise<string | null> {
  // Two rounds a level at most: a round whose jump came down before the block was placed is tried again.
  for (let round = 0; round < 2 * (SURFACE_SCAN + 4) && bot.entity.position.y < y - 0.01; round++) {
    const feet = bot.entity.position.floored();
    const above = bot.blockAt(feet.offset(0, 2, 0));
    if (above && above.boundingBox === 'block') {
      if (!bot.canDigBlock(above) || toolDigMs(bot, above) > MAX_DIG_MS) return `the ${above.name} above me is too hard to dig`;
      await equipToDig(bot, above);
      await bot.dig(above, true);
    }
    const stack = scaffoldItem(bot);
    if (!stack) return 'I had no block left to climb with';
    await bot.equip(stack, 'hand');
    const below = bot.blockAt(feet.offset(0, -1, 0));
    if (!below || below.boundingBox !== 'block') return 'there was nothing under me to climb from';
    const ground = Date.now() + 1500;
    while (!bot.entity.onGround && Date.now() < ground) await sleep(25, sig);
    bot.setControlState('jump', true);
    try {
      const deadline = Date.now() + 1500;
      while (bot.entity.position.y < feet.y + 1 && Date.now() < deadline) await sleep(25, sig);
      // Placed only once the feet are out of the block (a jump cut short is tried again on the next round).
      if (bot.entity.position.y >= feet.y + 1) {
        try {
          await bot.placeBlock(below, new Vec3(0, 1, 0));
        } catch (err) {
          // The server did not take it (the jump came down first): the round is tried again.
          if (!/did not fire|not answer/i.test((err as Error).message)) throw err;
        }
      }
    } finally {
      bot.setControlState('jump', false);
    }
    const settled = Date.now() + 1500;
    while (!bot.entity.onGround && Date.now() < settled) await sleep(25, sig);
  }
  return bot.entity.position.y >= y - 0.01 ? null : 'I could not climb up';
}

/**
 * Climb to the surface when more than `deeperThan` blocks of ground are over the bot (a mine). Returns why it
 * could not, or null (also when it was not deep).
 */
export async function toSurface(bot: Bot, sig: AbortSignal, deeperThan = 4): Promise<string | null> {
  const surface = surfaceAbove(bot);
  if (surface === null || surface - bot.entity.position.y <= deeperThan) return null;
  return pillarUp(bot, surface, sig);
}
