/**
 * Text shaping, one way for everyone: one line, cut to a length (visibly,
 * with `…`), and a goal as shown outside the loop: plain text, secrets
 * scrubbed, markup removed, one line, cut on a word.
 */
import { scrubSecrets } from './logger.ts';

/**
 * Make any text one line: every run of white space (line breaks, tabs, NEL …) becomes one space, ends trimmed.
 *
 * @example
 * oneLine('go\nto\t10 64 10 ') // → 'go to 10 64 10'
 */
export function oneLine(text: string): string {
  return text.replace(/[\s\u0085]+/g, ' ').trim();
}

/**
 * Cut a string to at most `max` UTF-16 units without splitting a character, ending with `…` when cut.
 *
 * @example
 * cutText('abcdef', 4) // → 'abc…'
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let out = '';
  for (const ch of text) {
    if (out.length + ch.length > max - 1) break;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}

/**
 * Like {@link cutText}, but at the end of a word when one ends in the second half of the room.
 *
 * @example
 * cutOnWord('collect ten oak logs', 16) // → 'collect ten oak…'
 */
export function cutOnWord(text: string, max: number): string {
  const cut = cutText(text, max);
  if (cut === text || cut === '') return cut;
  const body = cut.slice(0, -1);
  const nextIsBreak = /\s/.test(text.charAt(body.length));
  if (nextIsBreak) return cut;
  const space = body.lastIndexOf(' ');
  return space >= max / 2 ? `${body.slice(0, space).trimEnd()}…` : cut;
}

/**
 * A goal as shown in chat (`/status`, `/avatars`): plain text, secrets scrubbed, markup removed, one line,
 * at most `max` characters, cut on a word.
 *
 * @example
 * plainGoal('**collect** [logs](http://x) <b>now</b>') // → 'collect logs now'
 */
export function plainGoal(text: string, max = 200): string {
  const plain = scrubSecrets(text)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // markdown links → their text
    .replace(/<[^>]*>/g, '') // HTML tags
    .replace(/[*_`~|>#]+/g, '') // emphasis, code, quotes, headings
    .replace(/https?:\/\/\S+/g, '[link]');
  return cutOnWord(oneLine(plain), max);
}
