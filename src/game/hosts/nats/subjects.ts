/**
 * The NATS subjects of one cluster (`NATS_CLUSTER`), all under
 * `mindlink.<cluster>.`, so that a NATS account's permissions can give a
 * cluster's core and each host exactly theirs (docs/many-machines.md): a host
 * speaks only on subjects that carry its id, and the core reads the id from
 * the subject:
 *
 * | subject | from → to | what |
 * | --- | --- | --- |
 * | `core.beat` | core → every host | {@link CoreBeat} every couple of seconds |
 * | `host.<id>.beat` | host → core | {@link HostBeat} every couple of seconds |
 * | `host.<id>.call` | core → one host | calls (request/reply for those answered), aborts, claims, drops |
 * | `host.<id>.out` | host → core | states, snapshots, events, claims |
 * | `core.<session>.reply.<id>` | host → core | the answers of its calls |
 */
import { randomBytes } from 'node:crypto';

/** What a host id (`--id`) and a cluster name may be: one subject token. */
export const SUBJECT_TOKEN = /^[A-Za-z0-9_-]{1,64}$/;

/** The subjects of one cluster. */
export interface Subjects {
  coreBeat: string;
  hostBeat(id: string): string;
  /** Every host's beat. */
  hostBeatAll: string;
  call(id: string): string;
  out(id: string): string;
  /** Every host's `out`. */
  outAll: string;
  reply(coreSession: string, id: string): string;
  /** Every host's replies to one core session. */
  replyAll(coreSession: string): string;
}

/**
 * @example
 * const s = subjects('main');
 * nc.publish(s.call('a'), …); // mindlink.main.host.a.call
 */
export function subjects(cluster: string): Subjects {
  const base = `mindlink.${cluster}`;
  return {
    coreBeat: `${base}.core.beat`,
    hostBeat: (id) => `${base}.host.${id}.beat`,
    hostBeatAll: `${base}.host.*.beat`,
    call: (id) => `${base}.host.${id}.call`,
    out: (id) => `${base}.host.${id}.out`,
    outAll: `${base}.host.*.out`,
    reply: (session, id) => `${base}.core.${session}.reply.${id}`,
    replyAll: (session) => `${base}.core.${session}.reply.*`,
  };
}

/** A new session name: one run of a core, or of a host between leaving its games. */
export function newSession(): string {
  return randomBytes(6).toString('hex');
}
