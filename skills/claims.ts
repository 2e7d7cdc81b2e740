/**
 * Who is going for which block. The avatars of one process on one server
 * share these claims (and, through the core, the avatars of the other avatar
 * hosts: {@link shareClaims}, {@link foreignClaim}), so when several collect at once each takes a block of
 * its own instead of all walking to the nearest log, where one digs it and
 * the others get nothing. Players the avatar sees standing at a block (other
 * processes' bots, people) count the same way. Both only reorder: a block
 * someone else is at is taken last, never refused.
 *
 * Each avatar also remembers, for a while, the blocks it could not get to
 * ({@link markOutOfReach}): its next runs take them last too, instead of
 * walking (and searching a path) to the same block run after run.
 */
import type { Bot } from 'mineflayer';
import type { Vec3 } from 'vec3';

/** A claim lapses after this long (an avatar that left or hung does not hold its block for ever). */
export const CLAIM_MS = 60_000;
/** How long an avatar takes a block it could not get to last (the world around it changes: a tree is cut down). */
export const OUT_OF_REACH_MS = 120_000;
/** A player within this many blocks (horizontally) of a block is at it. */
const AT_BLOCK = 2.5;

const claims = new Map<string, { by: string; until: number }>();
/** Per avatar (and server), the blocks it could not get to, each until when. */
const outOfReachOf = new Map<string, Map<string, number>>();

/** Told of every claim this process's avatars make (`until`: epoch ms) or release (`null`). */
export type ClaimListener = (key: string, by: string, until: number | null) => void;

let shared: ClaimListener | undefined;

/**
 * Tell `listener` of this process's claims, so other processes (the other avatar hosts) hear of them.
 *
 * @example
 * shareClaims((key, by, until) => process.send?.({ type: 'claim', key, by, until }));
 */
export function shareClaims(listener: ClaimListener | undefined): void {
  shared = listener;
}

/** A claim made (`until`: epoch ms) or released (`null`) by an avatar of another process. */
export function foreignClaim(key: string, by: string, until: number | null): void {
  if (until !== null) claims.set(key, { by, until });
  else if (claims.get(key)?.by === by) claims.delete(key);
}

/** The server a bot plays on, as far as claims go: its connection's remote address. */
function serverOf(bot: Bot): string {
  const socket = bot._client.socket as { remoteAddress?: string; remotePort?: number } | undefined;
  return `${socket?.remoteAddress ?? '?'}:${socket?.remotePort ?? '?'}`;
}

function keyOf(bot: Bot, p: Vec3): string {
  return `${serverOf(bot)}|${p.x},${p.y},${p.z}`;
}

/**
 * How much someone else is at block `p`: 2 when another avatar of this process claimed it,
 * 1 when another player stands by it, else 0. Lower is better.
 */
export function crowding(bot: Bot, p: Vec3, now = Date.now()): number {
  const claim = claims.get(keyOf(bot, p));
  if (claim && claim.by !== bot.username && claim.until > now) return 2;
  const cx = p.x + 0.5;
  const cz = p.z + 0.5;
  for (const player of Object.values(bot.players)) {
    const e = player.entity;
    if (!e || player.username === bot.username) continue;
    if (Math.hypot(e.position.x - cx, e.position.z - cz) <= AT_BLOCK && Math.abs(e.position.y - p.y) <= 4) return 1;
  }
  return 0;
}

/**
 * Claim block `p` for this bot until the returned release is called (or {@link CLAIM_MS} pass).
 *
 * @example
 * const release = claim(bot, block.position);
 * try { await dig(block); } finally { release(); }
 */
export function claim(bot: Bot, p: Vec3, now = Date.now()): () => void {
  if (claims.size > 1000) for (const [k, c] of claims) if (c.until <= now) claims.delete(k);
  const key = keyOf(bot, p);
  const mine = { by: bot.username, until: now + CLAIM_MS };
  claims.set(key, mine);
  shared?.(key, mine.by, mine.until);
  return () => {
    if (claims.get(key) !== mine) return;
    claims.delete(key);
    shared?.(key, mine.by, null);
  };
}

function avatarKey(bot: Bot): string {
  return `${serverOf(bot)}|${bot.username}`;
}

/**
 * Remember that this bot could not get to block `p` (no path, or none in time), for {@link OUT_OF_REACH_MS}.
 *
 * @example
 * try { await walk(bot, goal, signal); } catch (err) { if (err instanceof UnreachableError) markOutOfReach(bot, block.position); }
 */
export function markOutOfReach(bot: Bot, p: Vec3, now = Date.now()): void {
  const key = avatarKey(bot);
  let mine = outOfReachOf.get(key);
  if (!mine) {
    mine = new Map();
    outOfReachOf.set(key, mine);
  }
  if (mine.size > 200) for (const [k, until] of mine) if (until <= now) mine.delete(k);
  mine.set(`${p.x},${p.y},${p.z}`, now + OUT_OF_REACH_MS);
}

/** Whether this bot could not get to block `p` within the last {@link OUT_OF_REACH_MS}. */
export function outOfReach(bot: Bot, p: Vec3, now = Date.now()): boolean {
  return (outOfReachOf.get(avatarKey(bot))?.get(`${p.x},${p.y},${p.z}`) ?? 0) > now;
}
