/**
 * The production {@link GameProvider}: mineflayer avatars on the embedded
 * world (started here unless `EMBEDDED=off`, or the one the core runs, for
 * an avatar host) and on any external server,
 * side by side. An avatar on a server with `auth: microsoft` signs in with
 * its own token cache; an avatar on an external server keeps its own
 * passwords for login plugins. Both live in `DATA_DIR/accounts/`.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { UserError } from '../errors.ts';
import type { AvatarGame, GameCapabilities, GameProvider } from './game.ts';
import type { WorldAddress } from './hosts/protocol.ts';
import { AVATAR_BRAND, EMBEDDED_CAPABILITIES, MineflayerGame, VANILLA_CAPABILITIES } from './mineflayer-game.ts';
import { PasswordBook } from './passwords.ts';
import { forgetAccount, renameAccount } from './private-file.ts';
import { MicrosoftSignIn } from './sign-in.ts';
import { addressOf, startEmbeddedWorld } from './embedded/world-start.ts';

export { addressOf, embeddedVersion, startEmbeddedWorld } from './embedded/world-start.ts';

/** Something attached to each new game (the reflexes), stopped when the game is released or the provider closes. */
export type GameAttachment = (game: AvatarGame, log: Logger) => { stop(): void };


/** The folder of the avatars' Microsoft token caches and login-plugin passwords. */
export function accountsDir(config: Config): string {
  return path.join(config.DATA_DIR, 'accounts');
}

/** Options of {@link createGameProvider}. */
export interface GameProviderOptions {
  /** Attached to each new game (the reflexes). */
  attach?: GameAttachment;
  /** An embedded world that runs already (the core's, for an avatar host or beside one): none is started then. */
  world?: WorldAddress | null;
}

/**
 * Start the embedded world (unless it is off) and return the provider.
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
  const accounts = accountsDir(config);
  return {
    create(avatar, server, avatarLog) {
      const embedded = server.host === null;
      if (embedded && !world) {
        throw new UserError('embedded_off', `${avatar.name} is on the embedded world, which is off (EMBEDDED=off): /avatar move ${avatar.name} <server> puts it on another server.`, avatar.name);
      }
      const microsoft = !embedded && server.auth === 'microsoft';
      const game = new MineflayerGame({
        username: avatar.name,
        host: world && embedded ? world.host : (server.host ?? '127.0.0.1'),
        port: world && embedded ? world.port : (server.port ?? 25565),
        version: world && embedded ? world.version : server.version,
        // mindlink runs the embedded world at the version it has; any other server may move to another.
        checkVersion: !embedded,
        versionPinned: server.versionPinned === true,
        log: avatarLog,
        capabilities: capabilitiesOf(server),
        server: server.id,
        auth: microsoft ? 'microsoft' : 'offline',
        // The embedded world spares its own avatars what only people's clients show (the others' latency …).
        ...(embedded ? { brand: AVATAR_BRAND } : {}),
        ...(microsoft ? { signIn: new MicrosoftSignIn({ account: avatar.name, dir: accounts, log: avatarLog }) } : {}),
        ...(embedded ? {} : { passwords: new PasswordBook(accounts, avatar.name) }),
      });
      if (opts.attach) attached.set(game, opts.attach(game, avatarLog));
      return game;
    },
    release(game) {
      attached.get(game)?.stop();
      attached.delete(game);
    },
    renamed: (from, to) => renameAccount(accounts, from, to),
    forget: (name) => forgetAccount(accounts, name),
    embedded: () => (world ? { port: world.port, version: world.version } : undefined),
    async close() {
      for (const a of attached.values()) a.stop();
      attached.clear();
      await supervisor?.stop();
    },
  };
}

/** What a server supports: the embedded world's plugins, or a vanilla server's. */
export function capabilitiesOf(server: { host: string | null }): GameCapabilities {
  return server.host === null ? EMBEDDED_CAPABILITIES : VANILLA_CAPABILITIES;
}
