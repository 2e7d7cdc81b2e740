/**
 * Counts as owners write them in goals: digits (`1k`, never `1e+20`), number
 * words (`twenty-one`), "a", "a dozen", "2 stacks of" — read off the front of a
 * phrase, with the reason in words when a count cannot be.
 */
import { own } from '../keyed.ts';

/** The most a count-goal may ask for: a full inventory of stacks (36 × 64). */
export const MAX_COUNT = 2304;

const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

/** Fixed quantity phrases, longest first. */
const QUANTITY_PHRASES: [RegExp, number | null][] = [
  [/^a\s+couple\s+(?:of\s+)?/, 2],
  [/^a\s+few\s+/, 3],
  [/^a\s+dozen\s+(?:of\s+)?/, 12],
  [/^a\s+(?:full\s+)?stack\s+(?:of\s+)?/, 64],
  [/^a\s+handful\s+(?:of\s+)?/, 5],
  [/^(?:a|an|one|single)\s+/, 1],
  [/^(?:some|more|lots\s+of|a\s+lot\s+of|plenty\s+of|enough|any)\s+/, null],
];

export type CountRead = { ok: true; count: number | null; rest: string } | { ok: false; reason: string };

/** A count as the owner wrote it, for replies: `99999999999999999999` stays that, never `1e+20`. */
function shownCount(count: number, written: string): string {
  return Number.isSafeInteger(count) ? String(count) : written;
}

/** Why a count is refused, in words. */
export const COUNT_RANGE = `a count must be a whole number from 1 to ${MAX_COUNT}`;

/**
 * A leading numeral: `1000`, `1,000`, `1 000` (also with a no-break or thin space, `_` or `'` between
 * groups of three), `1k` / `1.5k`, `2.0`; then an optional `x` (`3x`).
 */
const NUMERAL =
  /^(-?)(\d{1,3}(?:,\d{3})+(?![\d,])|\d{1,3}(?:[ \u00a0\u202f_']\d{3})+(?![\d.,])|\d+(?:[.,]\d+)?)(?:\s*(k)\b)?\s*(?:x\b\s*)?/;

/**
 * The value of a numeral matched by {@link NUMERAL}, or why it is refused. Every reader of a goal (the
 * scripted engine, the completion check) goes through here, so a count is read one way or refused,
 * never shortened: `1,000` is a thousand, not 1; `1.000` (a thousand or one?) is refused.
 */
function numeralValue(sign: string, digits: string, kilo: string | undefined): { ok: true; n: number } | { ok: false; reason: string } {
  let n: number;
  if (/^\d{1,3}(?:,\d{3})+$/.test(digits) || /^\d{1,3}(?:[ \u00a0\u202f_']\d{3})+$/.test(digits)) {
    n = Number(digits.replace(/[^\d]/g, ''));
  } else if (/^\d+$/.test(digits)) {
    n = Number(digits);
  } else {
    const [whole = '', fraction = ''] = digits.split(/[.,]/);
    // `1.000`, `1,0000`: a separator we cannot be sure of; refused rather than read as 1.
    if (!kilo && fraction.length >= 3) {
      return { ok: false, reason: `"${digits}" could be a thousand-something or a fraction: write a whole number, e.g. 1000 or 1,000` };
    }
    n = Number(`${whole}.${fraction}`);
  }
  if (kilo) n = Math.round(n * 1000 * 1e6) / 1e6;
  if (sign || !Number.isInteger(n) || n < 1) return { ok: false, reason: COUNT_RANGE };
  return { ok: true, n };
}

/** Read a leading count (digits, number words, "a", "a dozen", "2 stacks of") off a lower-case phrase. */
export function readCount(phrase: string): CountRead {
  let p = phrase.trim().replace(/^(?:a|one)\s+(hundred|thousand)\b/, 'one $1');
  const digits = NUMERAL.exec(p);
  if (digits) {
    const value = numeralValue(digits[1] ?? '', digits[2] ?? '', digits[3]);
    if (!value.ok) return value;
    const n = value.n;
    p = p.slice(digits[0].length);
    const stacks = /^stacks?\s+(?:of\s+)?/.exec(p);
    const count = stacks ? n * 64 : n;
    if (stacks) p = p.slice(stacks[0].length);
    const written = `${digits[2] ?? ''}${digits[3] ?? ''}${stacks ? ' stacks' : ''}`;
    if (count > MAX_COUNT) return { ok: false, reason: `${shownCount(count, written)} is more than a full inventory holds; ${COUNT_RANGE}` };
    return { ok: true, count, rest: p };
  }
  const words = p.split(/[\s-]+/);
  let total = 0;
  let used = 0;
  let any = false;
  for (const w of words) {
    const unit = own(UNITS, w);
    const ten = own(TENS, w);
    if (unit !== undefined) total += unit;
    else if (ten !== undefined) total += ten;
    else if (w === 'hundred' && any) total = total * 100;
    else if (w === 'hundred' && !any) total = 100;
    else if (w === 'thousand') total = (any ? total : 1) * 1000;
    else if (w === 'and' && any) {
      used += 1;
      continue;
    } else break;
    any = true;
    used += 1;
  }
  if (any) {
    let rest = words.slice(used).join(' ');
    const stacks = /^stacks?\s+(?:of\s+)?/.exec(rest);
    const count = stacks ? total * 64 : total;
    if (stacks) rest = rest.slice(stacks[0].length);
    if (count < 1) return { ok: false, reason: COUNT_RANGE };
    if (count > MAX_COUNT) return { ok: false, reason: `${count} is more than a full inventory holds; ${COUNT_RANGE}` };
    return { ok: true, count, rest };
  }
  for (const [re, n] of QUANTITY_PHRASES) {
    const m = re.exec(p);
    if (m) return { ok: true, count: n, rest: p.slice(m[0].length) };
  }
  return { ok: true, count: null, rest: p };
}
