/**
 * Splitting a post at a platform's message length limit.
 *
 * Lengths are counted in UTF-16 code units (JavaScript `length`), which is
 * what Telegram counts and never less than what Discord counts, so a part
 * that fits here fits there.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Blank lines at the start or the end of a part carry nothing and some platforms reject a blank message. */
function trimBlankLines(part: string): string {
  return part.replace(/^(?:[ \t\r]*\n)+/, '').replace(/(?:\n[ \t\r]*)+$/, '');
}

/**
 * The largest cut position `1 ≤ cut ≤ max` that does not split a grapheme
 * (an emoji, a letter with its combining marks), or, when the first grapheme
 * alone is longer than `max`, one that at least does not split a surrogate pair.
 */
function hardCut(line: string, max: number): number {
  // A window a little past max is enough to see whether the grapheme at the edge ends before max.
  const window = line.slice(0, max + 64);
  let cut = 0;
  for (const { index, segment } of segmenter.segment(window)) {
    const end = index + segment.length;
    if (end > max) break;
    cut = end;
  }
  if (cut > 0) return cut;
  cut = max;
  const code = line.charCodeAt(cut - 1);
  if (cut > 1 && code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}

/** Split one line longer than `max`: at the last space that fits, else hard. */
function splitLongLine(line: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const head = space > 0 ? rest.slice(0, space).trimEnd() : '';
    if (head.trim() !== '') {
      pieces.push(head);
      rest = rest.slice(space + 1).trimStart();
    } else {
      const cut = hardCut(rest, max);
      pieces.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
  }
  if (rest.trim() !== '') pieces.push(rest);
  return pieces;
}

/**
 * Split `text` into parts of at most `max` characters, on line boundaries.
 *
 * Lines are kept whole and joined back with `\n` while they fit; a single line
 * longer than `max` is split at its last space that fits, else hard (never
 * inside a surrogate pair or a grapheme that fits in `max`). No part is empty
 * or blank: blank lines at a part's edges are dropped, and a blank text gives
 * no parts at all.
 *
 * @param text the post's text
 * @param max the platform's limit (e.g. 4096 on Telegram, 2000 on Discord); at least 1
 * @returns the parts, in order
 *
 * @example
 * splitMessage('one\ntwo\nthree', 8) // → ['one\ntwo', 'three']
 */
export function splitMessage(text: string, max: number): string[] {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`splitMessage: max must be a positive integer, got ${max}`);
  if (text.trim() === '') return [];
  if (text.length <= max) return [text];

  const parts: string[] = [];
  let current: string | null = null;
  const push = (part: string | null): void => {
    if (part === null) return;
    const trimmed = trimBlankLines(part);
    if (trimmed.trim() !== '') parts.push(trimmed);
  };

  for (const line of text.split('\n')) {
    if (line.length > max) {
      push(current);
      const pieces = splitLongLine(line, max);
      // The last piece may still take the following short lines.
      current = pieces.pop() ?? null;
      for (const piece of pieces) push(piece);
    } else if (current === null) {
      current = line;
    } else if (current.length + 1 + line.length <= max) {
      current += `\n${line}`;
    } else {
      push(current);
      current = line;
    }
  }
  push(current);
  return parts;
}

/**
 * A post's parts refitted to a platform's limit once the `[avatar] ` prefix (every part) and the
 * mention (the first part) are added: a part that no longer fits is split again.
 *
 * @example
 * fitParts(['a'.repeat(2000)], 2000, 8, 0) // → two parts, each ≤ 1992 long
 */
export function fitParts(parts: readonly string[], maxLength: number, prefixLength: number, mentionLength: number): string[] {
  const out: string[] = [];
  parts.forEach((part, i) => {
    const room = maxLength - prefixLength - (i === 0 ? mentionLength : 0);
    if (part.length <= room) out.push(part);
    else out.push(...splitMessage(part, Math.max(1, room)));
  });
  return out;
}
