/**
 * What avatar hosts said under placements that are over, which the pool drops (its fence): a host cut off that
 * comes back, a host whose lease on an avatar was lost, an answer to a call that was ended already. The first
 * message of each placement is logged at info, each one after it with its count at debug.
 */
import type { Logger } from 'pino';
import { remember } from '../../bounded-map.ts';
import type { HostInfo } from './source.ts';

/**
 * @example
 * const late = new LateMessages(log);
 * late.dropped(slot.info, 'demo', 3, 4, 'state'); // logs once: demo is at placement 4 now
 */
export class LateMessages {
  #log: Logger;
  /** How many were dropped, by host, avatar and placement (the latest 1000). */
  #counts = new Map<string, number>();

  constructor(log: Logger) {
    this.#log = log;
  }

  /** One dropped: from `host`, about `avatar` (null: an answer to a call ended already) under `placement`; `current` is the avatar's placement now. */
  dropped(host: Pick<HostInfo, 'key' | 'name'>, avatar: string | null, placement: number, current: number | null, message: string): void {
    const key = `${host.key}/${avatar ?? ''}/${placement}`;
    const dropped = (this.#counts.get(key) ?? 0) + 1;
    remember(this.#counts, key, dropped, 1000);
    const entry = { avatarHost: host.name, avatar, placement, current, message, dropped };
    if (dropped === 1) this.#log.info(entry, 'dropped a late message of an avatar host: it no longer plays that avatar under that number');
    else this.#log.debug(entry, 'dropped a late message of an avatar host');
  }
}
