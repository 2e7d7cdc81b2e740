/**
 * What a `MineflayerGame` is built with: its options and their
 * defaults, and what each kind of server supports.
 */
import type { Logger } from '../logger.ts';
import { DefaultDeathWatchOptions } from './death-watch.ts';
import type { GameCapabilities } from './game.ts';
import type { PasswordBook } from './passwords.ts';
import type { MicrosoftSignIn } from './sign-in.ts';

/** What the embedded flying-squid world supports: crafting, smelting, hunger and mobs (mindlink's server plugins). */
export const EMBEDDED_CAPABILITIES: GameCapabilities = Object.freeze({ crafting: true, hunger: true, mobs: true });
/** What a vanilla (or Paper/Spigot) server supports. */
export const VANILLA_CAPABILITIES: GameCapabilities = Object.freeze({ crafting: true, hunger: true, mobs: true });

/**
 * The client brand mindlink's avatars send on the embedded world (`vanilla` elsewhere): the world spares its
 * own avatars what only a person's client shows (src/game/embedded/avatars.cjs).
 */
export const AVATAR_BRAND = 'mindlink';

/**
 * The view distance (chunks) an avatar asks the server for: what its searches reach (64 blocks); a server
 * sends no more than its own. mineflayer asks for 12, which on a server that allows it is 625 chunks for
 * every avatar to read.
 */
export const AVATAR_VIEW_DISTANCE = 4;

/** Options of a `MineflayerGame`. */
export interface MineflayerGameOptions {
  username: string;
  host: string;
  port: number;
  /** The version to speak; empty: found by a status ping before each join. */
  version: string;
  /** `version` was given at `/server add`, not found by a ping (the words of a version that moved name the fix). */
  versionPinned?: boolean;
  /**
   * Check `version` with a status ping before each join, and stop, saying so, when the server runs
   * another one (a server mindlink does not run; the embedded world runs the version it was given).
   */
  checkVersion?: boolean;
  log: Logger;
  capabilities: GameCapabilities;
  /** The server's name in mindlink, for the words of `/status` and stop lines (default `host:port`). */
  server?: string;
  /** The avatar's Microsoft sign-in, for `auth: 'microsoft'`. */
  signIn?: MicrosoftSignIn;
  /** The avatar's passwords for servers' login plugins (AuthMe); without it, prompts go unanswered. */
  passwords?: PasswordBook;
  /** Backoff between connection attempts: doubles from `minMs` up to `maxMs`. */
  reconnect?: { minMs: number; maxMs: number };
  /** Give up on an attempt that has not spawned (and loaded the chunks around it) within this time. */
  spawnTimeoutMs?: number;
  /** `offline` (default; the embedded world and offline-mode servers) or `microsoft`. */
  auth?: 'offline' | 'microsoft';
  /**
   * Crash loop of the connection: this many packet faults (the bot failed on a packet it got) within
   * `windowMs` make the game give up (`failed`) instead of reconnecting again.
   */
  faultLoop?: { count: number; windowMs: number };
  /** A dead avatar asks the server to respawn it every `retryMs`; dead for `stuckMs`, it leaves and joins again. */
  respawn?: { retryMs: number; stuckMs: number };
  /** The client brand sent on joining: `vanilla` (default), or {@link AVATAR_BRAND} on the embedded world. */
  brand?: string;
}

/** Defaults of the optional {@link MineflayerGameOptions}. */
export const DefaultMineflayerGameOptions = {
  reconnect: { minMs: 1000, maxMs: 30_000 },
  spawnTimeoutMs: 30_000,
  auth: 'offline' as 'offline' | 'microsoft',
  faultLoop: { count: 5, windowMs: 10 * 60_000 },
  respawn: DefaultDeathWatchOptions,
  brand: 'vanilla',
} satisfies Required<Pick<MineflayerGameOptions, 'reconnect' | 'spawnTimeoutMs' | 'auth' | 'faultLoop' | 'respawn' | 'brand'>>;
