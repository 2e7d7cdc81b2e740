/**
 * A new bot for one join attempt, fitted out as every avatar's is: mineflayer's options for an avatar (the
 * view distance its searches need, no respawn of its own, the client brand), its packet handling guarded
 * (`packet-guard.ts`), the pathfinder, the answers to a server's login prompts (`server-asks.ts`) and no
 * light levels kept (`light.ts`); once it spawns, cheap block reads (`block-cache.ts`) and the meter of
 * its physics ticks (`tick-meter.ts`).
 */
import type { Bot } from 'mineflayer';
import type { Logger } from '../logger.ts';
import type { BotCode } from './bot-code.ts';
import { cacheBlocks } from './block-cache.ts';
import { AVATAR_VIEW_DISTANCE } from './game-options.ts';
import { dropLight } from './light.ts';
import { guardBot, type PacketFault } from './packet-guard.ts';
import type { PasswordBook } from './passwords.ts';
import { answerServerAsks } from './server-asks.ts';
import { sessionAuth, type JavaSession } from './sign-in.ts';
import { meterTicks } from './tick-meter.ts';

/** What {@link createAvatarBot} needs to know of the join. */
export interface NewBotOptions {
  host: string;
  port: number;
  version: string;
  username: string;
  /** The Microsoft session to join with; none: offline. */
  session: JavaSession | undefined;
  brand: string;
  /** The server's name in mindlink (its login prompts' answers are kept by it). */
  server: string;
  passwords: PasswordBook | undefined;
  log: Logger;
  /** A listener of the bot threw while it handled a packet or an event (see `packet-guard.ts`). */
  fault(fault: PacketFault): void;
}

/**
 * Create the bot (throws what mineflayer's `createBot` throws) and fit it out.
 *
 * @example
 * const bot = createAvatarBot(await loadBotCode(), { host, port, version, username, session: undefined, brand: 'vanilla', server: 'alpha', passwords: undefined, log, fault: (f) => bot.end(`failed on ${f.packet}`) });
 */
export function createAvatarBot(code: BotCode, o: NewBotOptions): Bot {
  // Respawns are asked for by the death watch (mineflayer's own asks once and never again).
  const options = {
    host: o.host,
    port: o.port,
    version: o.version,
    username: o.username,
    auth: o.session ? sessionAuth(o.session) : 'offline',
    hideErrors: true,
    logErrors: false,
    respawn: false,
    brand: o.brand,
    viewDistance: AVATAR_VIEW_DISTANCE,
    // minecraft-protocol would check the version's whole protocol schema (ajv) for every bot it makes, for the
    // plugin channels: a fifth of a second of the host's one thread per join, for a schema that does not change.
    validateChannelProtocol: false,
  };
  const bot = code.mineflayer.createBot(options as Parameters<typeof code.mineflayer.createBot>[0]);
  // This bot's packet handling is its own: a throw in it ends this connection, not the process.
  guardBot(bot, bot._client, o.fault);
  dropLight(bot);
  bot.loadPlugin(code.pathfinder);
  answerServerAsks(bot, { server: o.server, passwords: o.passwords, log: o.log });
  bot.once('spawn', () => {
    cacheBlocks(bot.world, bot.registry.version['>=']('1.18'));
    meterTicks(bot);
  });
  return bot;
}
