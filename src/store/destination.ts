/**
 * What a destination says of itself: the platform its chat is on.
 */
import type { Destination } from './schema.ts';

/** A platform a post can go to (the same names as a bridge's `platform`). */
export type OutboxPlatform = 'console' | 'telegram' | 'discord' | 'web';

/**
 * The platform of a destination.
 *
 * @example
 * platformOf('telegram:-100123') // → 'telegram'
 */
export function platformOf(dest: Destination): OutboxPlatform {
  if (dest === 'console') return 'console';
  if (dest.startsWith('telegram:')) return 'telegram';
  if (dest.startsWith('discord:')) return 'discord';
  if (dest.startsWith('web:')) return 'web';
  throw new Error(`not a destination: ${dest}`);
}
