/**
 * The production {@link GameProvider}: mineflayer avatars on the embedded
 * world (started here when `MC_HOST` is unset) or on an external server.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { WorldSupervisor } from './world-supervisor.ts';
import type { AvatarGame, GameProvider } from './game.ts';
import { EMBEDDED_CAPABILITIES, MineflayerGame, VANILLA_CAPABILITIES } from './mineflayer-game.ts';

/** Something attached to each new game (the reflexes), stopped when the provider closes. */
export type GameAttachment = (game: AvatarGame, log: Logger) => { stop(): void };

/**
 * Start the embedded world if needed and return the provider.
 *
 * @example
 * const games = await createGameProvider(config, log, (game, l) => {
 *   const reflexes = new Reflexes(game, l);
 *   reflexes.start();
 *   return reflexes;
 * });
 * const core = await Mindlink.start({ config, log, games, engines, skills, commands });
 */
export async function createGameProvider(config: Config, log: Logger, attach?: GameAttachment): Promise<GameProvider> {
  const world = config.MC_HOST
    ? undefined
    : await WorldSupervisor.start({ dataDir: config.DATA_DIR, ...(config.MC_PORT ? { port: config.MC_PORT } : {}), version: config.MC_VERSION, healthMs: config.HEALTH_LOG_MS, log });
  if (world) log.info({ port: world.port, version: world.version }, 'embedded world ready');
  const attached: { stop(): void }[] = [];
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
        capabilities: embedded ? EMBEDDED_CAPABILITIES : VANILLA_CAPABILITIES,
      });
      if (attach) attached.push(attach(game, avatarLog));
      return game;
    },
    async close() {
      for (const a of attached) a.stop();
      await world?.stop();
    },
  };
}
