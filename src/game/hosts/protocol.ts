/**
 * The one message contract between the core and its avatar hosts.
 *
 * An avatar host is a process that owns the mineflayer games of the avatars
 * placed on it, their skills and their reflexes. The core keeps chat, router,
 * store, outbox, the goal loops and the engines, and reaches an avatar's game
 * only through these messages: over a child host's IPC channel
 * (docs/avatar-hosts.md), or over NATS to a host on any machine
 * (docs/many-machines.md; the beats and resets below are NATS only). Every
 * message names its avatar, or the call it answers; a host answers every call
 * it was given, in order.
 *
 * Each time the core places an avatar on a host it numbers that placement:
 * every call about the avatar carries the number, and every message and answer
 * about it carries it back, so the core drops what a host says about an avatar
 * it no longer holds there. Over NATS with a database (`DATABASE_URL`), the
 * number is the epoch of the avatar's lease, which the host renews while it
 * plays it: a host cut off that comes back late speaks under an older epoch,
 * and is not heard (fencing, docs/many-machines.md).
 */
import type { GameEvents, GameServer, GameState, SayOutcome, Scene, Snapshot } from '../game.ts';
import type { SkillResult } from '../skill.ts';
import type { TopDownMap } from '../top-down.ts';

/** Where the embedded world listens (the core runs it; hosts connect their games to it). */
export interface WorldAddress {
  host: string;
  port: number;
  version: string;
}

/** What a host is started with (its one command-line argument, as JSON). */
export interface HostConfig {
  /** Its slot: 0 … AVATAR_HOSTS − 1 (a restarted host keeps its slot). */
  index: number;
  /**
   * The embedded world, when the core runs one; absent when the host is started while the world still starts:
   * a `world` message then comes before any other.
   */
  world?: WorldAddress | null;
}

/** The names of the game events a host passes on. */
export type GameEventName = keyof GameEvents;

/** Every game event a host passes on, with its arguments (plain data). */
export type GameEventMessage = { [K in GameEventName]: { type: 'event'; avatar: string; placement: number; event: K; args: GameEvents[K] } }[GameEventName];

/** The core asks a host. */
export type CoreToHost =
  /**
   * Where the embedded world listens (`null`: none), once it does: sent first to a child host started without it.
   * Never over NATS: the core's beat names its world ({@link CoreBeat}), and a NATS host builds its games only then.
   */
  | { type: 'world'; world: WorldAddress | null }
  /**
   * Build the avatar's game (with its reflexes) and join, as `AvatarGame.start`; from now on it is this placement.
   * `hear`: it reports the public chat it hears.
   */
  | { type: 'start'; avatar: string; placement: number; server: GameServer; hear: boolean }
  /** Report the public chat the avatar hears (`heard` events), or stop, as `AvatarGame.hearChat`. */
  | { type: 'hear'; avatar: string; placement: number; on: boolean }
  /** Say one line in the game's chat, paced, as `AvatarGame.say`; answered by `said`. */
  | { type: 'say'; avatar: string; placement: number; call: number; line: string }
  /** Leave the game, as `AvatarGame.stop`, and drop it; answered by `stopped`. */
  | { type: 'stop'; avatar: string; placement: number; call: number }
  /** Run a skill on the avatar's game; answered by `skillResult`. `aborted`: its signal had aborted already. */
  | { type: 'skill'; avatar: string; placement: number; call: number; skill: string; params: unknown; aborted: boolean }
  /** The signal of a running skill call aborted (owner stop, new goal): the skill stops. */
  | { type: 'abort'; call: number; reason: string }
  /** The blocks around the avatar seen from above; answered by `map`. */
  | { type: 'map'; avatar: string; placement: number; call: number; radius: number }
  /** Where the avatar stands and looks, who is near and, with `blocks`, the blocks around it (the 3D view); answered by `scene`. */
  | { type: 'scene'; avatar: string; placement: number; call: number; radius: number; blocks: boolean }
  /** The avatar plays elsewhere now: leave its game if it is still that placement here (no answer). */
  | { type: 'drop'; avatar: string; placement: number }
  /** An avatar of another host claimed a block it goes for (`until`: epoch ms) or let it go (`null`). */
  | ClaimMessage
  /** Leave every game: a child host then exits, a host over NATS waits for the next core. */
  | { type: 'shutdown' };

/** A block claim (`skills/claims.ts`), passed by the core from the host it was made on to the others. */
export interface ClaimMessage {
  type: 'claim';
  key: string;
  by: string;
  until: number | null;
}

/** The game's connection state and its reasons, as {@link AvatarGame} shows them. */
export interface GameStateMessage {
  type: 'state';
  avatar: string;
  placement: number;
  state: GameState;
  downReason: string | null;
  /** Why it gave up for good, once `ended` (`AvatarGame.endReason`). */
  endReason: string | null;
}

/**
 * Whether a NATS host can hold its avatars' leases now: `ok`, or `failing` when its database did not answer its
 * last renewal (absent: it has no database).
 */
export type LeaseState = 'ok' | 'failing';

/** A host tells the core. */
export type HostToCore =
  /** The host is up and takes messages. */
  | { type: 'ready'; pid: number }
  /**
   * Sent every couple of seconds: the host is alive (a host silent for long is taken as hung), and the avatars
   * it plays, each with its placement (the core tells it to drop one it placed elsewhere since).
   */
  | { type: 'alive'; avatars: Array<[avatar: string, placement: number]>; leases?: LeaseState | undefined }
  | GameStateMessage
  /** The avatar's snapshot: after every state change and skill, and whenever it changed (at most a few times a second). */
  | { type: 'snapshot'; avatar: string; placement: number; snapshot: Snapshot | null }
  | GameEventMessage
  | { type: 'skillResult'; call: number; placement: number; result: SkillResult }
  | { type: 'stopped'; call: number; placement: number }
  | { type: 'said'; call: number; placement: number; outcome: SayOutcome }
  | { type: 'map'; call: number; placement: number; map: TopDownMap | null }
  | { type: 'scene'; call: number; placement: number; scene: Scene | null }
  /** An avatar of this host claimed a block or let it go. */
  | ClaimMessage
  /** Over NATS with leases: the host left the avatar's game on its own, its lease lost (`why`); the core places it elsewhere. */
  | { type: 'left'; avatar: string; placement: number; why: string };

/** Over NATS, every couple of seconds to every host: the core is there, where its world is and how long a host may be silent. */
export interface CoreBeat {
  type: 'core';
  /** This run of the core: a host that hears another one leaves the games the old one gave it. */
  session: string;
  world: WorldAddress | null;
  /** A host not heard from for this long is taken as gone (its avatars move); a host that does not hear the core for this long leaves its games. */
  silenceMs: number;
  /** The host sessions it holds: a host once named here and no longer was taken as gone, and leaves its games. */
  hosts: string[];
  /**
   * The number ({@link ToHost.seq}) of the last message sent to each host session it holds. They travel in
   * order, so one numbered up to here that the host has not had was lost on the way (a NATS connection dropped).
   */
  sent: Record<string, number>;
  /**
   * For each host session the core found it missed messages from ({@link FromHost.seq}): a mark that grows each
   * time it does. A host that has not answered that mark yet says again where each of its avatars is
   * ({@link AvatarAgain}).
   */
  missed: Record<string, number>;
  /**
   * With a database: every avatar is held by a lease this long (ms), `avatar:<name>`, taken for the host session
   * (`<id>/<session>`) at the placement's number as its epoch; the host renews it while it hears the core.
   */
  leaseMs?: number;
}

/** Over NATS, every couple of seconds (and at once when it hears a new core): a host is there, with room for how many and what it plays. */
export interface HostBeat {
  type: 'host';
  /** Its name (`--id`): the subjects it takes calls on. */
  id: string;
  /** This run of the host: a new one after a restart or after it left its games. */
  session: string;
  /** The core session it plays for (null until it heard one). */
  core: string | null;
  pid: number;
  /** How many avatars it takes. */
  capacity: number;
  avatars: Array<[avatar: string, placement: number]>;
  /** The avatars among them that report the public chat they hear: a `hear` it has not had was lost (absent: none). */
  hearing?: string[];
  /** Its process's event-loop delay p99 and CPU over the last couple of seconds. */
  load: { loopDelayP99Ms: number; cpuPct: number };
  /** Whether it can hold leases now (absent: it has no database, and takes no avatar from a core that holds them by leases). */
  leases?: LeaseState;
  /** It is leaving (stopped on purpose): its avatars move at once. */
  leaving?: true;
  /**
   * The highest message number ({@link ToHost.seq}) it has had from the core, or that the core's beat says was
   * sent: up to it, a call not in `open` was answered or lost, and a start not in `avatars` was lost.
   */
  seen: number;
  /** The calls it has had and not answered yet. */
  open: number[];
  /** The number ({@link FromHost.seq}) of the last message it sent: one up to here the core has not had was lost. */
  said: number;
}

/** Over NATS, to one host session the core does not hold: leave every game and start again as a new session (`duplicate`: another host runs with this id; exit). */
export interface HostReset {
  type: 'reset';
  reason: 'unknown' | 'duplicate';
}

/** Over NATS, a call to one host session (a message for an older session of the same id is dropped). */
export interface ToHost {
  to: string;
  /** Numbers the messages to one host session, 1, 2, … (0: a reset, not counted). */
  seq: number;
  m: CoreToHost | HostReset;
}

/** Over NATS, one avatar as it is now, said again because the core missed messages: its state and snapshot. */
export interface AvatarAgain {
  type: 'again';
  state: GameStateMessage;
  snapshot: Snapshot | null;
}

/** Over NATS, what one host session tells the core. */
export interface FromHost {
  from: string;
  /** Numbers what one host session says, 1, 2, … (its beat says the last). */
  seq: number;
  m: HostToCore | AvatarAgain;
}
