/**
 * Sorting an owner's chat message into goal / question / direction / stop
 * (README "Talking to an avatar"), and finding which avatar a message addresses.
 */

import { distance } from 'fastest-levenshtein';

/** The longest message accepted from chat, in characters. A longer one is refused whole. */
export const MAX_MESSAGE_LENGTH = 2000;

/** What a chat message is. */
export type MessageKind = 'goal' | 'question' | 'direction' | 'stop';

const STOP = /^\s*stop\s*[!.]*\s*$/i;
const GOAL_PREFIX = /^\s*(?:new\s+goal\s*:|goal\s*:|your\s+goal\s+is(?:\s*:|\s+to\b|(?=\s)|$))\s*/i;
const QUESTION_WORD = /^\s*(?:why|what|how|when|where|who|which)\b/i;

/** Made by the first count (making one loads ICU's break rules: some milliseconds the start need not spend). */
let graphemes: Intl.Segmenter | undefined;

/**
 * How many characters a person sees in a text: an emoji, a flag or an accented letter made of several
 * code points counts as one (JavaScript's `length` would count UTF-16 units: 😀 is 2, 👩‍👩‍👧 is 8).
 *
 * @example
 * characterCount('a😀'); // 2
 */
export function characterCount(text: string): number {
  let n = 0;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/**
 * Whether a message is over {@link MAX_MESSAGE_LENGTH} characters (as a person counts them, see {@link characterCount}).
 *
 * @example
 * if (isTooLong(msg.text)) throw new UserError('too_long', 'That message is too long; nothing was stored.');
 */
export function isTooLong(text: string): boolean {
  // Never more characters than UTF-16 units: short texts need no counting.
  return text.length > MAX_MESSAGE_LENGTH && characterCount(text) > MAX_MESSAGE_LENGTH;
}

/**
 * Classify one owner message. Precedence: stop > goal > question > direction.
 * For a goal, `text` is the goal without its prefix (possibly empty: the caller
 * refuses an empty goal); otherwise it is the whole message, trimmed.
 *
 * @example
 * classifyMessage('Goal: get 30 logs');          // { kind: 'goal', text: 'get 30 logs' }
 * classifyMessage('your goal is to build a hut'); // { kind: 'goal', text: 'build a hut' }
 * classifyMessage('How about wood');             // { kind: 'question', text: 'How about wood' }
 * classifyMessage('STOP!');                      // { kind: 'stop', text: 'STOP!' }
 * classifyMessage('stay near the village');      // { kind: 'direction', text: 'stay near the village' }
 */
export function classifyMessage(text: string): { kind: MessageKind; text: string } {
  const trimmed = text.trim();
  if (STOP.test(trimmed)) return { kind: 'stop', text: trimmed };
  const goal = GOAL_PREFIX.exec(trimmed);
  if (goal) return { kind: 'goal', text: trimmed.slice(goal[0].length).trim() };
  if (trimmed.endsWith('?') || QUESTION_WORD.test(trimmed)) return { kind: 'question', text: trimmed };
  return { kind: 'direction', text: trimmed };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Split an avatar's name off the front of a message: `steve: Goal: x`,
 * `Steve, how are you?`, `@steve what…`, `@steve: …`. Names match
 * case-insensitively; the canonical spelling from `names` is returned. A
 * message that addresses no listed avatar comes back whole (`Goal: x` is not an
 * address unless an avatar is literally called Goal).
 *
 * @example
 * splitAddress('STEVE: Goal: get wood', ['steve', 'alex']); // { name: 'steve', rest: 'Goal: get wood' }
 * splitAddress('Goal: get wood', ['steve']);                // { name: null, rest: 'Goal: get wood' }
 */
export function splitAddress(text: string, names: readonly string[]): { name: string | null; rest: string } {
  const trimmed = text.trim();
  // Longest first, so `steve2:` never reads as `steve` + `2:`.
  const sorted = [...names].filter((n) => n.length > 0).sort((a, b) => b.length - a.length);
  for (const name of sorted) {
    const n = escapeRegExp(name);
    // `@name` may be followed by a space, `:`/`,` or nothing; a bare `name` needs `:` or `,`.
    const re = new RegExp(`^(?:@${n}(?:\\s*[:,]|(?=\\s)|$)|${n}\\s*[:,])\\s*`, 'i');
    const m = re.exec(trimmed);
    if (m) return { name, rest: trimmed.slice(m[0].length).trim() };
  }
  return { name: null, rest: trimmed };
}

/** Characters that show nothing: zero-width spaces and joiners, word joiner, BOM, soft hyphen, fillers. */
const INVISIBLE = /[\u00ad\u034f\u115f\u1160\u180e\u200b-\u200f\u2060-\u2064\u3164\ufeff\uffa0]/g;

/**
 * Why a message (after any address) says nothing worth storing, or null when it says something: an empty
 * or invisible one (`demo:` alone, a lone zero-width space), one with no letter or digit (`/`, `...`), or
 * a `/word` that is no command.
 *
 * @example
 * emptyMessageReason('\u200b');       // 'That message is empty. Nothing was stored.'
 * emptyMessageReason('/');            // 'That has no words in it. Nothing was stored.'
 * emptyMessageReason('stay close');   // null
 */
export function emptyMessageReason(text: string, addressedTo: string | null = null): string | null {
  const visible = text.replace(INVISIBLE, '').trim();
  if (visible === '') {
    return addressedTo
      ? `Say something after "${addressedTo}:", e.g. "${addressedTo}: Goal: collect 10 oak logs". Nothing was stored.`
      : 'That message is empty. Nothing was stored.';
  }
  if (!/[\p{L}\p{N}]/u.test(visible)) return 'That has no words in it. Nothing was stored.';
  const slash = /^\/(\S*)/.exec(visible);
  if (slash) return `"/${slash[1] ?? ''}" is not a command; /help lists them. Nothing was stored.`;
  return null;
}

/** Looks like an avatar name (a Minecraft name) in front of `:`. */
const NAME_PREFIX = /^@?([A-Za-z0-9_]{3,16})\s*:\s*([\s\S]*)$/;

/**
 * A message that starts with a name that is no avatar here, where it was surely meant as an address: the
 * rest is a goal or a stop (`nobody: Goal: …`), or the name is one slip from an avatar's (`demoo: …`).
 * Returns the name and the avatar it is closest to, or null. `note: bring torches` is not an address.
 *
 * @example
 * unknownAddress('nobody: Goal: explore', ['demo']); // { name: 'nobody', closest: null }
 * unknownAddress('demoo: stay close', ['demo']);     // { name: 'demoo', closest: 'demo' }
 * unknownAddress('note: stay close', ['demo']);      // null
 */
export function unknownAddress(text: string, names: readonly string[]): { name: string; closest: string | null } | null {
  const m = NAME_PREFIX.exec(text.trim());
  const name = m?.[1];
  if (!m || !name) return null;
  if (names.some((n) => n.toLowerCase() === name.toLowerCase())) return null;
  const closest = closestName(name, names);
  const { kind } = classifyMessage(m[2] ?? '');
  if (closest || kind === 'goal' || kind === 'stop') return { name, closest };
  return null;
}

/**
 * The avatar name a word is one or two slips from (`demoo`, `dem0` → `demo`; `stevee` → `steve`), or null.
 *
 * @example
 * closestName('demoo', ['demo', 'steve']); // 'demo'
 * closestName('oak', ['demo']);           // null
 */
export function closestName(word: string, names: readonly string[]): string | null {
  const w = word.toLowerCase();
  let best: { name: string; d: number } | null = null;
  for (const n of names) {
    const d = distance(w, n.toLowerCase());
    // One slip in a name of up to 6 letters (`stone` is not a slip of `steve`), two in a longer one; never the name itself.
    const limit = n.length <= 6 ? 1 : 2;
    if (d > 0 && d <= limit && (!best || d < best.d)) best = { name: n, d };
  }
  return best?.name ?? null;
}
