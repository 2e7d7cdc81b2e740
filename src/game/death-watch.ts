/**
 * The avatar's deaths, on any server: when its bot dies, what killed it and
 * where, and its way back. The bot asks the server to respawn it at once and
 * again every `retryMs` while it stays dead (mineflayer asks once, on a health
 * packet; a request that is lost or ignored left the avatar dead for ever);
 * after `stuckMs` dead the game is told, to join again. What killed it is the
 * death message the server sends (`death_combat_event`; vanilla's "demo was
 * slain by Zombie" becomes "slain by Zombie"), else the last thing that hurt
 * it.
 */
import type { Bot } from 'mineflayer';
import { createRequire } from 'node:module';
import type prismarineChat from 'prismarine-chat';
import type { Entity } from 'prismarine-entity';
import type { Logger } from '../logger.ts';
import { cleanLine } from '../sanitize.ts';
import type { Death } from './game.ts';

/** Options of {@link watchDeaths}. */
export interface DeathWatchOptions {
  log: Logger;
  /** Ask the server to respawn the bot again this often while it is dead. */
  retryMs?: number;
  /** Dead this long: {@link DeathWatchOptions.stuck}. */
  stuckMs?: number;
  /** Wait at most this long after a respawn for the bot to move (a server that sends no position then). */
  moveWaitMs?: number;
  /** The bot died (its health reached 0, or it joined dead); `death.cause` is what is known so far. */
  died(death: Death): void;
  /** The bot is alive again (it spawned, the chunks around it came and it can move), back from `death` (its cause as the server said it). */
  alive(death: Death): void;
  /** The bot has been dead for `stuckMs`: the server does not respawn it. */
  stuck(): void;
}

/** Defaults of {@link DeathWatchOptions}. */
export const DefaultDeathWatchOptions = { retryMs: 5000, stuckMs: 60_000, moveWaitMs: 5000 } satisfies Required<Pick<DeathWatchOptions, 'retryMs' | 'stuckMs' | 'moveWaitMs'>>;

const requireHere = createRequire(import.meta.url);

/**
 * prismarine-chat's types declare an ES default export; its CommonJS module is the loader itself. Loaded with the
 * first bot watched (a core whose avatars all play on hosts never loads it).
 */
const chatLoader = (registry: Bot['registry']): typeof prismarineChat.ChatMessage =>
  (requireHere('prismarine-chat') as (r: Bot['registry']) => typeof prismarineChat.ChatMessage)(registry);

/** How long a cause may be, in characters. */
const CAUSE_MAX = 80;

/** A bot's death watch: whether it is dead now. */
export interface DeathWatch {
  readonly dead: boolean;
}

/**
 * What killed a player, from the server's death message, in a few words: the player's name and a leading
 * "was" left out, on one line, at most 80 characters.
 *
 * @example
 * deathCause('demo was slain by Zombie', 'demo') // → 'slain by Zombie'
 * deathCause('demo starved to death', 'demo')    // → 'starved to death'
 */
export function deathCause(message: string, player: string): string {
  let text = cleanLine(message).trim();
  if (text.toLowerCase().startsWith(`${player.toLowerCase()} `)) text = text.slice(player.length + 1).trimStart();
  text = text.replace(/^was\s+/i, '').replace(/[.!]+$/, '');
  return text.length > CAUSE_MAX ? `${text.slice(0, CAUSE_MAX - 1)}…` : text || 'cause unknown';
}

/**
 * @example
 * watchDeaths(bot, { log, died: (d) => game.emit('died', d), alive: (d) => game.emit('respawned', d), stuck: () => bot.end('respawn timeout') });
 */
export function watchDeaths(bot: Bot, options: DeathWatchOptions): DeathWatch {
  const o = { ...DefaultDeathWatchOptions, ...options };
  const ChatMessage = chatLoader(bot.registry);
  let death: Death | undefined;
  /** What killed it, as the server said it, since it was last alive. */
  let said: string | undefined;
  /** The last thing that hurt it, since it was last alive. */
  let hurtBy: string | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stuck: NodeJS.Timeout | undefined;

  const cause = (): string => said ?? (hurtBy ? `killed by ${hurtBy}` : 'cause unknown');
  const ask = (): void => {
    try {
      bot.respawn();
    } catch (err) {
      o.log.debug({ err }, 'asking to respawn failed');
    }
  };
  const settle = (): void => {
    clearInterval(retry);
    clearTimeout(stuck);
    death = undefined;
    said = undefined;
    hurtBy = undefined;
  };

  // 1.17+ (`death_combat_event`, with the player's entity id on 1.20+); before, `combat_event`'s `entity_dead`.
  const onDeathMessage = (packet: { playerId?: number; event?: unknown; message?: unknown }): void => {
    if ('event' in packet && packet.event !== 'entity_dead' && packet.event !== 2) return;
    if (packet.playerId !== undefined && bot.entity && packet.playerId !== bot.entity.id) return;
    try {
      said = deathCause(ChatMessage.fromNotch(packet.message as string).toString(), bot.username);
    } catch (err) {
      o.log.debug({ err }, 'the death message could not be read');
    }
  };
  bot._client.on('death_combat_event', onDeathMessage);
  bot._client.on('combat_event', onDeathMessage);
  bot.on('entityHurt', (entity: Entity, source?: Entity) => {
    if (entity === bot.entity && source) hurtBy = source.username ?? source.displayName ?? source.name ?? undefined;
  });
  bot.on('death', () => {
    if (death) return;
    const p = bot.entity?.position;
    death = { cause: cause(), position: p ? { x: Math.floor(p.x), y: Math.floor(p.y), z: Math.floor(p.z) } : { x: 0, y: 0, z: 0 } };
    // At once (the pathfinder's own stop waits for a physics tick, which a dead bot has none of, and then
    // stopped the first path after the respawn instead).
    bot.pathfinder?.setGoal(null);
    bot.clearControlStates();
    o.died(death);
    ask();
    retry = setInterval(ask, o.retryMs);
    stuck = setTimeout(() => o.stuck(), o.stuckMs);
  });
  // mineflayer holds its physics after a respawn until it has answered the server's position (1.5 s after a
  // death): the bot cannot move before that.
  let moving = true;
  bot.on('respawn', () => {
    moving = false;
  });
  bot.on('forcedMove', () => {
    moving = true;
  });
  const canMove = (): Promise<void> =>
    moving
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = (): void => {
            clearTimeout(bound);
            bot.off('forcedMove', done);
            resolve();
          };
          const bound = setTimeout(done, o.moveWaitMs);
          bot.on('forcedMove', done);
        });
  bot.on('spawn', () => {
    if (!death) return;
    const back = { ...death, cause: cause() };
    settle();
    // Back once the world around the respawn point is there and it can move (and only if it did not die again meanwhile).
    void Promise.all([bot.waitForChunksToLoad().catch((err: unknown) => o.log.debug({ err }, 'waiting for chunks failed')), canMove()]).then(() => {
      if (!death) o.alive(back);
    });
  });
  bot.once('end', settle);
  return {
    get dead() {
      return death !== undefined;
    },
  };
}
