/**
 * The one message contract between the core and its avatar hosts.
 *
 * An avatar host is a child process that owns the mineflayer games of the
 * avatars placed on it, their skills and their reflexes. The core keeps
 * chat, router, store, outbox, the goal loops and the engines, and reaches an
 * avatar's game only through these messages, over the host's IPC channel
 * (docs/avatar-hosts.md). Every message names its avatar, or the call it
 * answers; a host answers every call it was given, in order.
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
export type GameEventMessage = { [K in GameEventName]: { type: 'event'; avatar: string; event: K; args: GameEvents[K] } }[GameEventName];

/** The core asks a host. */
export type CoreToHost =
  /** Where the embedded world listens (`null`: none), once it does: sent first to a host started without it. */
  | { type: 'world'; world: WorldAddress | null }
  /** Build the avatar's game (with its reflexes) and join, as `AvatarGame.start`; `hear`: it reports the public chat it hears. */
  | { type: 'start'; avatar: string; server: GameServer; hear: boolean }
  /** Report the public chat the avatar hears (`heard` events), or stop, as `AvatarGame.hearChat`. */
  | { type: 'hear'; avatar: string; on: boolean }
  /** Say one line in the game's chat, paced, as `AvatarGame.say`; answered by `said`. */
  | { type: 'say'; avatar: string; call: number; line: string }
  /** Leave the game, as `AvatarGame.stop`, and drop it; answered by `stopped`. */
  | { type: 'stop'; avatar: string; call: number }
  /** Run a skill on the avatar's game; answered by `skillResult`. `aborted`: its signal had aborted already. */
  | { type: 'skill'; avatar: string; call: number; skill: string; params: unknown; aborted: boolean }
  /** The signal of a running skill call aborted (owner stop, new goal): the skill stops. */
  | { type: 'abort'; call: number; reason: string }
  /** The blocks around the avatar seen from above; answered by `map`. */
  | { type: 'map'; avatar: string; call: number; radius: number }
  /** Where the avatar stands and looks, who is near and, with `blocks`, the blocks around it (the 3D view); answered by `scene`. */
  | { type: 'scene'; avatar: string; call: number; radius: number; blocks: boolean }
  /** An avatar of another host claimed a block it goes for (`until`: epoch ms) or let it go (`null`). */
  | ClaimMessage
  /** Leave every game and exit. */
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
  state: GameState;
  downReason: string | null;
  /** Why it gave up for good, once `ended` (`AvatarGame.endReason`). */
  endReason: string | null;
}

/** A host tells the core. */
export type HostToCore =
  /** The host is up and takes messages. */
  | { type: 'ready'; pid: number }
  /** Sent every couple of seconds: the host is alive (a host silent for long is taken as hung). */
  | { type: 'alive' }
  | GameStateMessage
  /** The avatar's snapshot: after every state change and skill, and whenever it changed (at most a few times a second). */
  | { type: 'snapshot'; avatar: string; snapshot: Snapshot | null }
  | GameEventMessage
  | { type: 'skillResult'; call: number; result: SkillResult }
  | { type: 'stopped'; call: number }
  | { type: 'said'; call: number; outcome: SayOutcome }
  | { type: 'map'; call: number; map: TopDownMap | null }
  | { type: 'scene'; call: number; scene: Scene | null }
  /** An avatar of this host claimed a block or let it go. */
  | ClaimMessage;
