/**
 * Which host an avatar is placed on (docs/avatar-hosts.md, docs/many-machines.md): the live host with the lowest
 * load (avatars over capacity; the fewest avatars, the first host on a tie) and room left. With leases, only a
 * host that can hold the avatar's lease: its beat says its database answers, and it was heard lately (a host
 * whose beats stopped may be dead or cut off long before the silence bound takes it as gone); and not the host
 * the avatar just lost its lease on, while there is another.
 */
import type { HostInfo } from './source.ts';

/** A host as the pool knows it. */
export interface HostSlot<G> {
  info: HostInfo;
  up: boolean;
  /** When it last said it is alive. */
  heard: number;
  /** Games placed here, by avatar name. */
  games: Map<string, G>;
}

/** The rules with leases: a host heard within this long takes new avatars. Absent: no leases. */
export interface LeaseRule {
  heardWithinMs: number;
}

/** Whether a host can hold an avatar's lease now (always, without leases). */
export function canHoldLeases(s: HostSlot<unknown>, leases: LeaseRule | undefined, now = Date.now()): boolean {
  return !leases || (s.info.leases === 'ok' && now - s.heard <= leases.heardWithinMs);
}

/**
 * @example
 * const slot = chooseHost(slots.values(), leases, lostOn.get(game)); // undefined: every host is full (or none is up)
 */
export function chooseHost<S extends HostSlot<unknown>>(slots: Iterable<S>, leases: LeaseRule | undefined, avoid?: string): S | undefined {
  const load = (s: S): number => (s.info.capacity ? s.games.size / s.info.capacity : s.games.size);
  const now = Date.now();
  const open = [...slots].filter((s) => s.up && (s.info.capacity === null || s.games.size < s.info.capacity) && canHoldLeases(s, leases, now));
  const others = open.filter((s) => s.info.key !== avoid);
  let best: S | undefined;
  for (const s of others.length > 0 ? others : open) {
    if (!best || load(s) < load(best) || (load(s) === load(best) && s.games.size < best.games.size)) best = s;
  }
  return best;
}
