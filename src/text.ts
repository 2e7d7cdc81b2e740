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

/** HTML elements that format text; a tag of one is markup, any other `<word>` (a placeholder such as `<player>`) is text. */
const HTML_TAGS =
  'a|abbr|b|big|blockquote|br|center|code|del|details|div|em|font|h[1-6]|hr|i|img|ins|kbd|li|mark|ol|p|pre|q|s|samp|small|span|strike|strong|sub|summary|sup|tg-emoji|tg-spoiler|tt|u|ul';
const HTML_TAG = new RegExp(`</?(?:${HTML_TAGS})(?:\\s[^<>]*)?/?>`, 'gi');

/**
 * Markup removed, text kept: markdown links become their text, HTML formatting tags go, and so do emphasis, code,
 * strike-through and spoiler marks, a quote's `>` and a heading's `#` at the start of a line. Only what is markup
 * goes: an underscore inside a word (`oak_planks`, `bad_params`) is not emphasis, `<player>` is no HTML tag, and
 * `#3` or `a > b` inside a line stay as written.
 */
function withoutMarkup(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(HTML_TAG, '')
    .replace(/^[ \t]*(?:>[ \t]?)+/gm, '')
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
    .replace(/\*+|~~+|\|\|+|`+/g, '')
    .replace(/(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu, '');
}

/**
 * A goal as shown in chat (`/status`, `/avatars`, `/parked`): plain text, secrets scrubbed, markup removed (see
 * {@link withoutMarkup}), one line, at most `max` characters, cut on a word.
 *
 * @example
 * plainGoal('**collect** [logs](http://x) <b>now</b>') // → 'collect logs now'
 * plainGoal('oak_planks cannot be crafted (bad_params)') // → the same
 */
export function plainGoal(text: string, max = 200): string {
  const plain = withoutMarkup(scrubSecrets(text)).replace(/https?:\/\/\S+/g, '[link]');
  return cutOnWord(oneLine(plain), max);
}
