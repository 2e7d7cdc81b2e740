/**
 * Splitting a post at a platform's message length limit.
 *
 * Lengths are counted in UTF-16 code units (JavaScript `length`), which is
 * what Telegram counts and never less than what Discord counts, so a part
 * that fits here fits there. A cut prefers, in this order, a paragraph break,
 * a line break, the end of a sentence, a space, and only then a hard cut
 * (never inside a grapheme or an escape); no part but the last is shorter
 * than {@link MIN_PART}, and the last is not either when the text allows.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The shortest part a split leaves, but the last (a quarter of the limit when that is smaller). */
export const MIN_PART = 200;

/** Where a part may end: the boundary kinds, best first, and how each is found. */
const BOUNDARIES: readonly RegExp[] = [
  /\n[ \t\r]*\n\s*/g, // a paragraph break
  /\n\s*/g, // a line break
  /(?<=[.!?…])[ \t]+/g, // the end of a sentence
  /[ \t]+/g, // a space
];

/** Blank lines at the start or the end of a part carry nothing and some platforms reject a blank message. */
function trimBlankLines(part: string): string {
  return part.replace(/^(?:[ \t\r]*\n)+/, '').replace(/(?:\n[ \t\r]*)+$/, '');
}

/**
 * The largest cut position `1 ≤ cut ≤ max` that does not split a grapheme (an emoji, a letter with
 * its combining marks) or a backslash escape (`\[`), or, when the first grapheme alone is longer
 * than `max`, one that at least does not split a surrogate pair.
 */
function hardCut(text: string, max: number): number {
  // A window a little past max is enough to see whether the grapheme at the edge ends before max.
  const window = text.slice(0, max + 64);
  let cut = 0;
  for (const { index, segment } of segmenter.segment(window)) {
    const end = index + segment.length;
    if (end > max) break;
    cut = end;
  }
  if (cut > 1 && text.charAt(cut - 1) === '\\' && text.charAt(cut - 2) !== '\\') cut -= 1;
  if (cut > 0) return cut;
  cut = max;
  const code = text.charCodeAt(cut - 1);
  if (cut > 1 && code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}

/** The last boundary of `re` that ends a part of length in [lo, hi]: where the part ends and where the rest starts. */
function lastBoundary(text: string, re: RegExp, lo: number, hi: number): { end: number; next: number } | null {
  let found: { end: number; next: number } | null = null;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m.index > hi) break;
    if (m.index >= lo && m.index > 0) found = { end: m.index, next: m.index + m[0].length };
    if (m[0].length === 0) re.lastIndex += 1;
  }
  return found;
}

/**
 * Where the next part of `text` (longer than `max`) ends: at the best boundary in the last two thirds
 * of the room, else anywhere past `minPart`, else a hard cut; never so late that the rest would be a
 * crumb shorter than `minPart`.
 */
function nextCut(text: string, max: number, minPart: number): { end: number; next: number } {
  const lo = minPart;
  const hi = text.length - max < minPart ? Math.max(lo, text.length - minPart) : max;
  for (const from of [Math.max(lo, Math.floor(hi / 3)), lo]) {
    for (const re of BOUNDARIES) {
      const b = lastBoundary(text, re, from, hi);
      if (b) return b;
    }
  }
  const cut = hardCut(text, hi);
  return { end: cut, next: cut };
}

/**
 * Split `text` into parts of at most `max` characters (the first at most `first`, when given).
 *
 * A cut falls on a paragraph break, a line break, a sentence end or a space, best first (the
 * white space at the cut is dropped); a text with none of them is cut hard, never inside a
 * surrogate pair, a grapheme that fits in `max`, or a backslash escape. No part but the last is
 * shorter than {@link MIN_PART} (or a quarter of `max`), and the last is not either while the
 * text allows. No part is empty or blank: blank lines at a part's edges are dropped, and a blank
 * text gives no parts at all.
 *
 * @param text the post's text
 * @param max the platform's limit (e.g. 4096 on Telegram, 2000 on Discord); at least 1
 * @param first the limit of the first part, when it must leave room (for a mention)
 * @returns the parts, in order
 *
 * @example
 * splitMessage('one\ntwo\nthree', 8) // → ['one\ntwo', 'three']
 */
export function splitMessage(text: string, max: number, first = max): string[] {
  for (const [name, n] of [['max', max], ['first', first]] as const) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`splitMessage: ${name} must be a positive integer, got ${n}`);
  }
  if (text.trim() === '') return [];
  if (text.length <= first) return [text];

  const parts: string[] = [];
  const push = (part: string): void => {
    const trimmed = trimBlankLines(part);
    if (trimmed.trim() !== '') parts.push(trimmed);
  };
  let rest = text;
  for (let room = first; rest.length > room; room = max) {
    const { end, next } = nextCut(rest, room, Math.min(MIN_PART, Math.max(1, Math.floor(room / 4))));
    push(rest.slice(0, end));
    rest = rest.slice(next);
  }
  push(rest);
  return parts;
}

/**
 * A post's parts refitted to a platform's limit once the `[avatar] ` prefix (every part) and the
 * mention (the first part) are added: when one no longer fits, the post's whole `text` is split
 * again with that room, so no crumb is left behind.
 *
 * @example
 * fitParts('a'.repeat(2000), ['a'.repeat(2000)], 2000, 8, 0) // → two parts, each ≤ 1992 long
 */
export function fitParts(text: string, parts: readonly string[], maxLength: number, prefixLength: number, mentionLength: number): string[] {
  const room = Math.max(1, maxLength - prefixLength);
  const firstRoom = Math.max(1, room - mentionLength);
  if (parts.every((p, i) => p.length <= (i === 0 ? firstRoom : room))) return [...parts];
  return splitMessage(text, room, firstRoom);
}
