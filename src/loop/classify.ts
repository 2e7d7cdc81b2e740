/**
 * Sorting an owner's chat message into goal / question / direction / stop
 * (SPEC "Messages from chat"), and finding which avatar a message addresses.
 */

/** The longest message accepted from chat, in characters. A longer one is refused whole. */
export const MAX_MESSAGE_LENGTH = 2000;

/** What a chat message is. */
export type MessageKind = 'goal' | 'question' | 'direction' | 'stop';

const STOP = /^\s*stop\s*[!.]*\s*$/i;
const GOAL_PREFIX = /^\s*(?:new\s+goal\s*:|goal\s*:|your\s+goal\s+is(?:\s*:|\s+to\b|(?=\s)|$))\s*/i;
const QUESTION_WORD = /^\s*(?:why|what|how|when|where|who|which)\b/i;

/**
 * Whether a message is over {@link MAX_MESSAGE_LENGTH} characters (counted as Unicode code points).
 *
 * @example
 * if (isTooLong(msg.text)) throw new UserError('too_long', 'That message is too long; nothing was stored.');
 */
export function isTooLong(text: string): boolean {
  if (text.length <= MAX_MESSAGE_LENGTH) return false;
  let count = 0;
  for (const _ of text) if (++count > MAX_MESSAGE_LENGTH) return true;
  return false;
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
