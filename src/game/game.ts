/**
 * The game contract: what the goal loop and the engines see of Minecraft.
 *
 * The loop knows only {@link AvatarGame} (connected or not, a {@link Snapshot},
 * a few events); skills and the scripted engine also use the live mineflayer
 * `bot` of a connected game.
 */
import type { EventEmitter } from 'node:events';
import type { Bot } from 'mineflayer';
import type { Logger } from 'pino';
import type { SignInCode } from './sign-in.ts';
import type { SkillGate } from './skill-gate.ts';
import type { TopDownMap } from './top-down.ts';

/** A block position or point in the world. */
export interface Vec3Like {
  x: number;
  y: number;
  z: number;
}

/** An entity near the avatar. */
export interface NearbyEntity {
  name: string;
  kind: 'player' | 'hostile' | 'passive' | 'other';
  distance: number;
  position: Vec3Like;
}

/** What the avatar sees and carries, read at one instant. Plain data, safe to serialise. */
export interface Snapshot {
  position: Vec3Like;
  health: number;
  food: number;
  xp: { level: number; points: number };
  /** Item name (registry name, e.g. `oak_log`) → count over all inventory slots. */
  inventory: Record<string, number>;
  /** 0–24000 ticks. */
  timeOfDay: number;
  dimension: string;
  /** Notable block name → distance of the nearest one (logs, ores, water, crafting table…). */
  nearbyBlocks: Record<string, number>;
  nearbyEntities: NearbyEntity[];
  /**
   * Free-standing columns near the avatar (`src/game/columns.ts`): what a goal such as "build a pillar of 3 dirt"
   * is checked against. Absent where the game does not read them (a test double).
   */
  columns?: BlockColumn[];
  /** Epoch ms. */
  takenAt: number;
}

/** Where the avatar stands (its feet) and looks (the dashboard's 3D view, `scene.ts`): yaw 0 faces north (−z) and grows counter-clockwise seen from above; pitch > 0 looks up (radians). */
export interface ScenePose extends Vec3Like {
  yaw: number;
  pitch: number;
}

/** The blocks of a box around the avatar that can be seen: those with air, water, glass, leaves … on a side. */
export interface SceneBlocks {
  /** When they were read (epoch ms): one reading, one `takenAt`. */
  takenAt: number;
  /** The box read, its lowest and highest corner (world block coordinates, inclusive). */
  from: Vec3Like;
  to: Vec3Like;
  /** The block names the entries use. */
  palette: string[];
  /** Four numbers per block: x, y, z (world block coordinates) and its index into `palette`. */
  blocks: number[];
}

/** One look at the avatar's surroundings. Plain data, safe to serialise. */
export interface Scene {
  pose: ScenePose;
  /** Players and mobs within the radius, nearest first (at most 20). */
  entities: NearbyEntity[];
  /** The blocks, when asked for (the last reading when asked again soon, `scene.ts`). */
  blocks: SceneBlocks | null;
}

/** A free-standing column of one kind of block: at least 2 high, nothing solid beside any of its blocks. */
export interface BlockColumn {
  /** The block's registry name (`dirt`). */
  block: string;
  height: number;
  /** Its lowest block. */
  x: number;
  y: number;
  z: number;
}

/**
 * The connection state of one avatar's game. `dead`: in the game but dead (health 0), its respawn asked for;
 * it acts again once it is back (`respawned`).
 */
export type GameState = 'idle' | 'connecting' | 'connected' | 'dead' | 'down' | 'ended';

/** A death of the avatar. Plain data. */
export interface Death {
  /** What killed it, in a few plain words from the server's death message (`slain by Zombie`, `killed`). */
  cause: string;
  /** Where it died (the block). */
  position: Vec3Like;
}

/**
 * A line of the game's public chat the avatar heard: a player's (`from` their name) or the server's (`from`
 * null: joins, deaths, announcements). Never a whisper, a team message or the avatar's own line. Plain data.
 */
export interface HeardLine {
  from: string | null;
  text: string;
}

/** What became of a line the avatar was to say: said, not said because it is out of the game, or not said because too many wait. */
export type SayOutcome = 'said' | 'not_in_game' | 'busy';

/** Events of an {@link AvatarGame}, in the past tense. */
export interface GameEvents {
  /** Spawned in the world (first time or after a reconnect). */
  connected: [];
  /** The connection dropped; it is retried with backoff. */
  disconnected: [reason: string];
  /** Kicked for a reason mindlink has no words for: the game will not reconnect on its own (`reason`: the server's words). */
  ended: [reason: string];
  /**
   * The game gave up and will not reconnect on its own; `reason` is a whole phrase saying why and what to
   * do (a crash loop of its connection, a whitelist, a ban, a failed sign-in …).
   */
  failed: [reason: string];
  /** The avatar died in the game (it is `dead` until it respawns). */
  died: [death: Death];
  /** The avatar is back in the game after a death (at its respawn point), ready to act. */
  respawned: [death: Death];
  /** A player whispered to the avatar. */
  whispered: [from: string, text: string];
  /** A line of the public chat, heard while {@link AvatarGame.hearChat} is on. */
  heard: [line: HeardLine];
  /** A Microsoft sign-in needs its owner: the code to type at Microsoft's page (it goes to the owner only). */
  signInCode: [code: SignInCode];
  /** Joined under another name than the avatar's (its Microsoft account's Minecraft profile name). */
  playingAs: [player: string];
}

/**
 * One avatar's presence in a Minecraft server.
 *
 * @example
 * game.on('connected', () => loop.wake());
 * const snap = game.snapshot(); // undefined while not connected
 */
export interface AvatarGame extends EventEmitter<GameEvents> {
  readonly username: string;
  readonly state: GameState;
  /**
   * While the game is out of the world and trying again (`down` or `connecting` after a drop): why it
   * left, in a short plain phrase for `/status` ("the server cannot be reached: ECONNREFUSED").
   */
  readonly downReason?: string | undefined;
  /** What it waits for that is not a dropped connection, for `/status` (`signing in: code sent to the owner`). */
  readonly waitReason?: string | undefined;
  /** After it gave up for good (`ended`): why, in a short phrase for `/status`. */
  readonly endReason?: string | undefined;
  /** Connect (and keep reconnecting with backoff until {@link AvatarGame.stop}). Resolves once the first attempt started. */
  start(): Promise<void>;
  /** Leave the game and stop reconnecting. */
  stop(): Promise<void>;
  /** The current snapshot, or undefined while not connected (while `dead`: where it lies, at health 0). */
  snapshot(): Snapshot | undefined;
  /** The live mineflayer bot while connected (for skills), else undefined. */
  readonly bot: Bot | undefined;
  /** What the server supports (the embedded flying-squid world crafts, smelts, has hunger and mobs; see docs/world.md). */
  readonly capabilities: GameCapabilities;
  /**
   * The blocks around the avatar seen from above (the dashboard's world view), or null while it is out of
   * the world. A game on an avatar host answers with the map its host drew last and asks for a new one.
   */
  worldMap?(radius: number): TopDownMap | null;
  /**
   * Where the avatar stands and looks, who is near and (with `withBlocks`) the blocks around it that can be
   * seen (the dashboard's 3D view, `src/game/scene.ts`), or null while it is out of the world. Read only when
   * asked; a game on an avatar host asks its host.
   */
  scene?(radius: number, withBlocks: boolean): Promise<Scene | null>;
  /**
   * Report the public chat the avatar hears as `heard` events (on), or not (off, as a game starts): only an
   * avatar whose chat is relayed somewhere hears, so a hundred others send nothing. A game without chat (a
   * test double) has none.
   */
  hearChat?(on: boolean): void;
  /**
   * Say one line in the game's chat, paced to what servers allow (at most one line a second): resolves once
   * it is said, or with why not. The line is one chat line already (`chatLineProblem` of
   * `src/game/in-game-chat.ts` finds none); a game without chat (a test double) has none.
   */
  say?(line: string): Promise<SayOutcome>;
  /**
   * The avatar's skill gate, when the game has one (the mineflayer game does): skills run one at a time
   * through it and reflexes pre-empt them. A game without one (a test fake) runs skills directly.
   */
  readonly gate?: SkillGate;
}

/** The server an avatar plays on: `host` null means the embedded world; an empty `version` is found by a ping. */
export interface GameServer {
  /** Its name in mindlink (`embedded`, `survival`). */
  id: string;
  host: string | null;
  port: number | null;
  version: string;
  auth: 'offline' | 'microsoft';
  /** The version was given at `/server add` (a server that takes several), not found by its ping. */
  versionPinned?: boolean | undefined;
}

/**
 * Builds and tears down the games of avatars (mineflayer in production, `src/game/provider.ts`).
 *
 * @example
 * const game = games.create({ name: 'demo' }, { id: 'embedded', host: null, port: null, version: '1.21.4', auth: 'offline' }, log);
 * await game.start();
 */
export interface GameProvider {
  /**
   * The game of one avatar on its server (not started). Everything the game keeps of the avatar (its
   * Microsoft tokens, its login-plugin passwords) is keyed by `avatar.name`. Throws UserError when the
   * server cannot be played from here (the embedded world is off).
   */
  create(avatar: { readonly name: string }, server: GameServer, log: Logger): AvatarGame;
  /** The avatar is done with a game (moved to another server, removed): what the provider attached to it stops. */
  release?(game: AvatarGame): void;
  /** An avatar was renamed: what the provider keeps of it (sign-in tokens, passwords) follows the name. */
  renamed?(from: string, to: string): void;
  /** An avatar was removed: what the provider keeps of it (sign-in tokens, passwords) is deleted. */
  forget?(name: string): void;
  /** Where the embedded world listens, while it runs. */
  embedded?(): { port: number; version: string } | undefined;
  /** Stop whatever the provider started (the embedded world). */
  close(): Promise<void>;
}

/** Features a server may lack; skills refuse quickly with `unsupported_by_server` instead of timing out. */
export interface GameCapabilities {
  crafting: boolean;
  hunger: boolean;
  mobs: boolean;
}

/**
 * A fingerprint of what a turn can change: position (to the block), XP, inventory.
 * Two equal fingerprints mean the turn changed nothing in the world.
 */
export function worldFingerprint(s: Snapshot | undefined): string {
  if (!s) return 'offline';
  const pos = `${Math.floor(s.position.x)},${Math.floor(s.position.y)},${Math.floor(s.position.z)}`;
  const inv = inventoryKey(s.inventory);
  return `${pos}|${s.xp.level}:${s.xp.points}|${inv}`;
}

/** An inventory as one comparable string (names sorted, empty stacks left out). */
export function inventoryKey(inventory: Record<string, number>): string {
  return Object.entries(inventory)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, n]) => `${k}:${n}`)
    .join(',');
}

/** A snapshot to plan with while the game is not connected: spawn, full health and food, nothing held. */
export function emptySnapshot(): Snapshot {
  return {
    position: { x: 0, y: 64, z: 0 },
    health: 20,
    food: 20,
    xp: { level: 0, points: 0 },
    inventory: {},
    timeOfDay: 0,
    dimension: 'overworld',
    nearbyBlocks: {},
    nearbyEntities: [],
    columns: [],
    takenAt: Date.now(),
  };
}
