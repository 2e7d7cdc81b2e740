/**
 * Goals about blocks standing in the world, checked against the snapshot's
 * free-standing columns (`src/game/columns.ts`): "build a pillar of 3 dirt",
 * "a column of 4 cobblestone at 10 64 -5". No engine's goal language plays
 * them (the scripted engine does not build); a model or a skill it wrote
 * does, and the completion check and a skill's postcondition verify them
 * against the blocks the server sent, so a claim cannot stand in for them.
 */
import type { BlockColumn, Snapshot } from '../game/game.ts';
import { COLUMN_RADIUS, COLUMN_REACH } from '../game/columns.ts';
import { itemLabel, knownItem, matchesItem, normaliseItem } from '../game/items.ts';
import { readCount } from './counts.ts';

/** A column goal: `count` blocks of `block` stacked, standing free, anywhere near or with its lowest block at `at`. */
export interface ColumnGoal {
  block: string;
  count: number;
  at: { x: number; y: number; z: number } | null;
}

/** A check's answer, as `check.ts` gives it (that module asks this one, so the shape is repeated here). */
type ColumnCheck = { checkable: false } | { checkable: true; met: boolean; says: string };

/** The shortest column a goal may ask for (one block is not a column). */
const MIN_HEIGHT = 2;

const COLUMN_GOAL = /^(?:(?:build|make|place|stack|raise|erect|construct|put\s+up)\s+)?(?:an?\s+)?(?:pillar|column|tower)\s+of\s+(.+?)(?:\s+at\s+(-?\d+)[\s,]+(-?\d+)[\s,]+(-?\d+))?[.!]*$/i;

/**
 * A column goal read from its text, or null when the text is none (or asks for more than the check can see:
 * a column shorter than 2 or taller than {@link COLUMN_REACH} blocks, or a block Minecraft has not).
 *
 * @example
 * readColumnGoal('build a pillar of 3 dirt') // → { block: 'dirt', count: 3, at: null }
 * readColumnGoal('a column of 4 cobblestone at 10 64 -5') // → { block: 'cobblestone', count: 4, at: { x: 10, y: 64, z: -5 } }
 */
export function readColumnGoal(text: string): ColumnGoal | null {
  const m = COLUMN_GOAL.exec(text.replace(/\s+/g, ' ').trim().replace(/^goal\s*:\s*/i, ''));
  if (!m) return null;
  const read = readCount((m[1] ?? '').toLowerCase());
  if (!read.ok || read.count === null || read.count < MIN_HEIGHT || read.count > COLUMN_REACH) return null;
  const block = normaliseItem(read.rest.replace(/^(?:blocks?\s+of\s+)/, ''));
  if (!block || !knownItem(block)) return null;
  const at = m[2] !== undefined ? { x: Number(m[2]), y: Number(m[3]), z: Number(m[4]) } : null;
  return { block, count: read.count, at };
}

function where(c: { x: number; y: number; z: number }): string {
  return `${c.x} ${c.y} ${c.z}`;
}

/**
 * Check a column goal against a snapshot: met when a free-standing column of at least `count` of its block
 * stands within {@link COLUMN_RADIUS} blocks of the avatar (with its lowest block at `at`, when given). Not
 * checkable when the text is no column goal or the snapshot carries no columns.
 *
 * @example
 * checkColumnGoal('build a pillar of 3 dirt', snap)
 * // → { checkable: true, met: true, says: 'a pillar of 3 dirt stands at 12 64 -3' }
 */
export function checkColumnGoal(text: string, snap: Snapshot): ColumnCheck {
  const goal = readColumnGoal(text);
  if (!goal || !snap.columns) return { checkable: false };
  const label = itemLabel(goal.block, 1);
  const mine = snap.columns.filter((c) => matchesItem(goal.block, c.block) && (!goal.at || (c.x === goal.at.x && c.y === goal.at.y && c.z === goal.at.z)));
  const tallest: BlockColumn | undefined = [...mine].sort((a, b) => b.height - a.height)[0];
  if (tallest && tallest.height >= goal.count) {
    return { checkable: true, met: true, says: `a pillar of ${tallest.height} ${label} stands at ${where(tallest)} (${goal.count} needed)` };
  }
  const place = goal.at ? ` at ${where(goal.at)}` : ` within ${COLUMN_RADIUS} blocks of you`;
  if (tallest) return { checkable: true, met: false, says: `the tallest free-standing column of ${label}${place} is ${tallest.height} high (${goal.count} needed)` };
  return { checkable: true, met: false, says: `no free-standing column of ${label} stands${place} (${goal.count} high needed, nothing solid beside it)` };
}
