/**
 * Where the pool's avatar hosts come from, and how it reaches them: the seam
 * between placement (`pool.ts`, the same for every transport) and the
 * transport. Two sources: child processes on IPC channels (`child-hosts.ts`,
 * the default) and hosts on any machine over NATS (`nats/nats-hosts.ts`,
 * `HOSTS=nats://…`, docs/many-machines.md).
 */
import type { EventEmitter } from 'node:events';
import type { CoreToHost, HostToCore, LeaseState } from './protocol.ts';

/** A host that is up and takes messages. */
export interface HostInfo {
  /** Names it for as long as it is the same host: a child's slot (kept across restarts), a NATS host's id and session. */
  key: string;
  /** How it is shown in logs: the slot number, or the NATS host's id. */
  name: string | number;
  /** Its process id (on its own machine). */
  pid: number;
  /** How many avatars it takes (null: no limit, placement only balances). */
  capacity: number | null;
  /** Whether it can hold its avatars' leases (a NATS host with a database; absent: it has none). */
  leases?: LeaseState | undefined;
}

/** How a host went down. */
export interface HostDown {
  /**
   * `restarting`: it comes back under the same key and its avatars wait for it there (a child in its slot);
   * `gone`: it does not, and its avatars are placed on other hosts.
   */
  kind: 'restarting' | 'gone';
  /** Why its avatars are out of the world meanwhile, for `/status` (`its avatar host stopped and is starting again`). */
  reason: string;
  /** It said it stops (or started again under a new session): its avatars' leases may be taken from it at once. */
  planned?: boolean;
}

/** Events of a {@link HostSource}. */
export interface HostSourceEvents {
  up: [host: HostInfo];
  /** A host that was up is down; a `restarting` one may later be reported `gone` (it was given up). */
  down: [key: string, how: HostDown];
  message: [key: string, message: HostToCore];
}

/**
 * @example
 * source.on('up', (host) => place waiting avatars on it);
 * source.on('message', (key, m) => …);
 * await source.start();
 * source.send(host.key, { type: 'start', avatar: 'demo', placement: 1, server });
 */
export interface HostSource extends EventEmitter<HostSourceEvents> {
  /** Whether a host may still come up (a source whose hosts were all given up says no: its avatars fail). */
  readonly canGrow: boolean;
  /** Start: resolves once the hosts there are at first are up (`up` was emitted for each). */
  start(): Promise<void>;
  /** Send to a host that is up; false when it is not (the pool then answers for it). */
  send(key: string, msg: CoreToHost): boolean;
  /** Stop: children leave their games and exit; NATS hosts are told nothing and keep running for the next core. */
  close(): Promise<void>;
}
