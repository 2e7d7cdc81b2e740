/**
 * The production {@link GameProvider}: mineflayer avatars on the embedded
 * world (started here when `MC_HOST` is unset, or the one the core runs, for
 * an avatar host) or on an external server.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { WorldSupervisor } from './world-supervisor.ts';
import type { AvatarGame, GameCapabilities, GameProvider } from './game.ts';
import { EMBEDDED_CAPABILITIES, MineflayerGame, VANILLA_CAPABILITIES } from './mineflayer-game.ts';
import type { WorldAddress } from './hosts/protocol.ts';

/** Something attached to each new game (the reflexes), stopped when the game is released or the provider closes. */
export type GameAttachment = (game: AvatarGame, log: Logger) => { stop(): void };

/** Options of {@link createGameProvider}. */
export interface GameProviderOptions {
  /** Attached to each new game (the reflexes). */
  attach?: GameAttachment;
  /** An embedded world that runs already (an avatar host uses the core's): none is started then. */
  world?: WorldAddress | null;
}

/**
 * Start the embedded world if needed and return the provider.
 *
 * @example
 * const games = await createGameProvider(config, log, { attach: (game, l) => {
 *   const reflexes = new Reflexes(game, l);
 *   reflexes.start();
 *   return reflexes;
 * } });
 * const core = await Mindlink.start({ config, log, games, engines, skills, commands });
 */
export async function createGameProvider(config: Config, log: Logger, opts: GameProviderOptions = {}): Promise<GameProvider> {
  const supervisor = opts.world !== undefined ? undefined : await startEmbeddedWorld(config, log);
  const world: WorldAddress | null = supervisor ? addressOf(supervisor) : (opts.world ?? null);
  const attached = new Map<AvatarGame, { stop(): void }>();
  return {
    create(avatar, server, avatarLog) {
      const embedded = server.host === null;
      if (embedded && !world) throw new Error(`avatar ${avatar.name} is on the embedded world, but MC_HOST points elsewhere`);
      const game = new MineflayerGame({
        username: avatar.name,
        host: embedded && world ? world.host : (server.host ?? '127.0.0.1'),
        port: embedded && world ? world.port : (server.port ?? 25565),
        version: embedded && world ? world.version : server.version,
        log: avatarLog,
        capabilities: capabilitiesOf(server),
      });
      if (opts.attach) attached.set(game, opts.attach(game, avatarLog));
      return game;
    },
    release(game) {
      attached.get(game)?.stop();
      attached.delete(game);
    },
    async close() {
      for (const a of attached.values()) a.stop();
      attached.clear();
      await supervisor?.stop();
    },
  };
}

/** The embedded world, started unless `MC_HOST` points elsewhere (it restarts by itself when it dies). */
export async function startEmbeddedWorld(config: Config, log: Logger): Promise<WorldSupervisor | undefined> {
  if (config.MC_HOST) return undefined;
  const world = await WorldSupervisor.start({ dataDir: config.DATA_DIR, ...(config.MC_PORT ? { port: config.MC_PORT } : {}), version: config.MC_VERSION, healthMs: config.HEALTH_LOG_MS, log });
  log.info({ port: world.port, version: world.version }, 'embedded world ready');
  return world;
}

/** Where a running embedded world listens. */
export function addressOf(world: WorldSupervisor): WorldAddress {
  return { host: world.host, port: world.port, version: world.version };
}

/** What a server supports: the embedded world's plugins, or a vanilla server's. */
export function capabilitiesOf(server: { host: string | null }): GameCapabilities {
  return server.host === null ? EMBEDDED_CAPABILITIES : VANILLA_CAPABILITIES;
}
