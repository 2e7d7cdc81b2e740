/**
 * How a goal is shown outside the loop (seed 000 "Your avatar's goal"):
 * plain text, secrets scrubbed, markup removed, at most 200 characters, one line.
 */
import { scrubSecrets } from '../logger.ts';

/**
 * @example
 * plainGoal('**collect** [logs](http://x) <b>now</b>') // → 'collect logs now'
 */
export function plainGoal(text: string, max = 200): string {
  const plain = scrubSecrets(text)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // markdown links → their text
    .replace(/<[^>]*>/g, '') // HTML tags
    .replace(/[*_`~|>#]+/g, '') // emphasis, code, quotes, headings
    .replace(/https?:\/\/\S+/g, '[link]')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}
