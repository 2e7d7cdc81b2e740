/**
 * One avatar's mineflayer connection: connect, wait for the world around the
 * spawn point, reconnect with capped exponential backoff, stop for good on a
 * kick or ban, and expose a {@link Snapshot} and the live bot to skills.
 */
import { EventEmitter } from 'node:events';
import mineflayer, { type Bot } from 'mineflayer';
import pf from 'mineflayer-pathfinder';
import { backoffMs } from '../backoff.ts';
import { forAvatar, type Logger } from '../logger.ts';
import { cleanLine } from '../sanitize.ts';
import type { AvatarGame, GameCapabilities, GameEvents, GameState, Snapshot } from './game.ts';
import { guardBot, type PacketFault } from './packet-guard.ts';
import { SkillGate } from './skill-gate.ts';
import { takeSnapshot } from './snapshot.ts';
import { topDownMap, type TopDownMap } from './top-down.ts';
import { joinPathBudget } from './path-budget.ts';
import { cacheBlocks } from './block-cache.ts';
import { rememberMinecraftData } from './minecraft-data-memo.ts';

const { pathfinder, Movements } = pf;

/** What the embedded flying-squid world supports: crafting and hunger (mindlink's server plugins), no mob AI. */
export const EMBEDDED_CAPABILITIES: GameCapabilities = Object.freeze({ crafting: true, hunger: true, mobs: false });
/** What a vanilla (or Paper/Spigot) server supports. */
export const VANILLA_CAPABILITIES: GameCapabilities = Object.freeze({ crafting: true, hunger: true, mobs: true });

/** Options of a {@link MineflayerGame}. */
export interface MineflayerGameOptions {
  username: string;
  host: string;
  port: number;
  version: string;
  log: Logger;
  capabilities: GameCapabilities;
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
}

/** Defaults of the optional {@link MineflayerGameOptions}. */
export const DefaultMineflayerGameOptions = {
  reconnect: { minMs: 1000, maxMs: 30_000 },
  spawnTimeoutMs: 30_000,
  auth: 'offline',
  faultLoop: { count: 5, windowMs: 10 * 60_000 },
} satisfies Required<Pick<MineflayerGameOptions, 'reconnect' | 'spawnTimeoutMs' | 'auth' | 'faultLoop'>>;

/**
 * Whether a kick from the server (mineflayer's `kicked` event: the server sent a disconnect) ends the
 * game for good. Every kick does, whatever its words ("Flying is not enabled", "banned") — except the
 * server going down or restarting, or timing the connection out, which also arrive as a kick and after
 * which mindlink reconnects. A connection that drops without a kick is never final.
 *
 * @example
 * isFinalKick('Flying is not enabled on this server') // → true
 * isFinalKick('Server closed')                        // → false
 */
export function isFinalKick(reason: string): boolean {
  const r = reason.toLowerCase();
  return !/(server (is )?(closed|closing|stopp|shut|restart)|shutting down|shutdown|restart|timed? ?out)/.test(r);
}

/** Plain text of a kick reason, which arrives as a string, JSON chat, or NBT chat (1.20.3+). */
export function reasonText(reason: unknown): string {
  if (reason == null) return '';
  if (typeof reason === 'string') {
    try {
      return reasonText(JSON.parse(reason));
    } catch {
      // Not JSON: the reason is already plain text.
      return reason;
    }
  }
  if (typeof reason !== 'object') return String(reason);
  const r = reason as Record<string, unknown>;
  if (r.type === 'compound' && r.value && typeof r.value === 'object') {
    const v = r.value as Record<string, { value?: unknown }>;
    const parts: string[] = [];
    if (v.text?.value !== undefined) parts.push(String(v.text.value));
    if (v.translate?.value !== undefined) parts.push(String(v.translate.value));
    return parts.join(' ');
  }
  if (r.type === 'string' && 'value' in r) return String(r.value);
  const parts: string[] = [];
  if (typeof r.text === 'string') parts.push(r.text);
  if (typeof r.translate === 'string') parts.push(r.translate);
  if (Array.isArray(r.extra)) for (const e of r.extra) parts.push(reasonText(e));
  if (Array.isArray(r.with)) for (const e of r.with) parts.push(reasonText(e));
  return parts.join(' ').trim();
}

/** Why a connection ended, as a short plain phrase for `/status` (no stack, no error text of ours). */
function downPhrase(fault: PacketFault | undefined, kickReason: string | undefined, lastError: Error | undefined, why: string | undefined): string {
  if (fault) return `it failed on a packet it could not handle: ${fault.packet}`;
  if (kickReason !== undefined) return `the server disconnected it: ${kickReason.slice(0, 120)}`;
  if (lastError) return `the server cannot be reached: ${(lastError as NodeJS.ErrnoException).code ?? 'connection error'}`;
  if (why === 'spawn timeout') return 'it did not spawn in time';
  return 'the connection closed';
}

/**
 * An avatar in a Minecraft server through mineflayer (with the pathfinder plugin).
 *
 * @example
 * const game = new MineflayerGame({ username: 'steve', host: world.host, port: world.port, version: world.version, log, capabilities: EMBEDDED_CAPABILITIES });
 * game.on('connected', () => log.info('in the world'));
 * await game.start();
 * // … later
 * await game.stop();
 */
export class MineflayerGame extends EventEmitter<GameEvents> implements AvatarGame {
  /** The avatar's player name. */
  readonly username: string;
  /** What the server supports (see {@link EMBEDDED_CAPABILITIES}). */
  readonly capabilities: GameCapabilities;
  /** One skill at a time; reflexes pre-empt through it. */
  readonly gate = new SkillGate();
  #opts: MineflayerGameOptions & typeof DefaultMineflayerGameOptions;
  #log: Logger;
  #state: GameState = 'idle';
  #bot: Bot | undefined;
  /** The bot of the current attempt, spawned or not. */
  #attempt: Bot | undefined;
  #stopping = false;
  #failures = 0;
  /** When the recent packet faults happened (epoch ms), for the crash loop. */
  #faults: number[] = [];
  #downReason: string | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #spawnTimer: NodeJS.Timeout | undefined;

  constructor(opts: MineflayerGameOptions) {
    super();
    this.#opts = { ...DefaultMineflayerGameOptions, ...opts } as MineflayerGameOptions & typeof DefaultMineflayerGameOptions;
    this.username = opts.username;
    this.capabilities = opts.capabilities;
    this.#log = forAvatar(opts.log, opts.username, { component: 'game' });
    rememberMinecraftData();
  }

  /** `idle` before start and after stop, `connecting`, `connected`, `down` (retrying), `ended` (kicked/banned). */
  get state(): GameState {
    return this.#state;
  }

  /** Why the game is out of the world while it tries again (see {@link AvatarGame.downReason}). */
  get downReason(): string | undefined {
    return this.#state === 'down' || this.#state === 'connecting' ? this.#downReason : undefined;
  }

  /** The live bot while connected. */
  get bot(): Bot | undefined {
    return this.#state === 'connected' ? this.#bot : undefined;
  }

  /** Connect; resolves once the first attempt has started (listen for `connected`). */
  async start(): Promise<void> {
    if (this.#state !== 'idle' && this.#state !== 'ended') return;
    this.#stopping = false;
    this.#failures = 0;
    this.#faults = [];
    this.#downReason = undefined;
    this.#connect();
  }

  /** Leave the game (quit and wait for the connection to end) and stop reconnecting. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#spawnTimer);
    this.gate.abortCurrent(new Error('the game is stopping'));
    const bot = this.#attempt;
    if (bot) {
      const ended = new Promise<void>((resolve) => bot.once('end', () => resolve()));
      try {
        bot.pathfinder?.stop();
        bot.quit('bye');
      } catch (err) {
        this.#log.debug({ err }, 'quit failed; closing the socket');
        bot._client.end('bye');
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        ended,
        new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            bot._client.socket?.destroy();
            resolve();
          }, 3000);
        }),
      ]);
      clearTimeout(timer);
    }
    this.#attempt = undefined;
    this.#bot = undefined;
    if (this.#state !== 'ended') this.#state = 'idle';
  }

  /** The current snapshot, or undefined while not connected. */
  snapshot(): Snapshot | undefined {
    const bot = this.bot;
    if (!bot?.entity) return undefined;
    return takeSnapshot(bot);
  }

  /** The blocks around the avatar seen from above, or null while not connected. */
  worldMap(radius: number): TopDownMap | null {
    const bot = this.bot;
    return bot?.entity ? topDownMap(bot, radius) : null;
  }

  #connect(): void {
    if (this.#stopping) return;
    this.#state = 'connecting';
    const { host, port, version, username, auth, spawnTimeoutMs } = this.#opts;
    this.#log.debug({ host, port, attempt: this.#failures + 1 }, 'connecting');
    let bot: Bot;
    try {
      bot = mineflayer.createBot({ host, port, version, username, auth, hideErrors: true, logErrors: false });
    } catch (err) {
      this.#log.warn({ err }, 'could not create the bot');
      this.#scheduleRetry('create failed');
      return;
    }
    this.#attempt = bot;
    let kickReason: string | undefined;
    let lastError: Error | undefined;
    let spawned = false;
    let fault: PacketFault | undefined;
    // This bot's packet handling is its own: a throw in it ends this connection, not the process.
    guardBot(bot, bot._client, (f) => {
      if (fault) {
        this.#log.debug({ err: f.error, packet: f.packet }, 'another fault while leaving');
        return;
      }
      fault = f;
      this.#log.error({ err: f.error, packet: f.packet }, 'the bot failed while handling a packet; leaving the game to reconnect');
      bot.end(`failed on ${f.packet}`);
    });
    bot.loadPlugin(pathfinder);

    // Given up only after `spawnTimeoutMs` without progress: the login, the spawn and each chunk that arrives
    // start the wait again. On a busy machine a join can take longer than that and still be on its way; giving
    // it up then and starting from nothing made every join of a large group time out again and again.
    const armSpawnTimer = (): void => {
      clearTimeout(this.#spawnTimer);
      this.#spawnTimer = setTimeout(() => {
        if (!spawned && this.#attempt === bot) {
          this.#log.warn({ ms: spawnTimeoutMs }, 'no spawn in time; retrying');
          bot.end('spawn timeout');
        }
      }, spawnTimeoutMs);
    };
    armSpawnTimer();
    bot.once('login', armSpawnTimer);

    bot.once('spawn', () => {
      armSpawnTimer();
      bot.world.on('chunkColumnLoad', () => {
        if (!spawned) armSpawnTimer();
      });
      cacheBlocks(bot.world);
      void (async () => {
        try {
          await bot.waitForChunksToLoad();
        } catch (err) {
          this.#log.debug({ err }, 'waiting for chunks failed');
        }
        if (this.#attempt !== bot || this.#stopping || !bot.entity) return;
        clearTimeout(this.#spawnTimer);
        spawned = true;
        const movements = new Movements(bot);
        movements.canDig = true;
        movements.allow1by1towers = true;
        bot.pathfinder.setMovements(movements);
        bot.pathfinder.thinkTimeout = 10_000;
        bot.once('end', joinPathBudget(bot));
        this.#bot = bot;
        this.#failures = 0;
        this.#downReason = undefined;
        this.#state = 'connected';
        this.#log.info({ position: bot.entity.position.floored().toString() }, 'spawned');
        this.emit('connected');
      })();
    });
    bot.on('kicked', (reason) => {
      kickReason = reasonText(reason);
      this.#log.info({ reason: kickReason }, 'kicked');
    });
    bot.on('error', (err) => {
      lastError = err;
      this.#log.debug({ err: err.message }, 'connection error');
    });
    bot.on('whisper', (from, text) => {
      if (from !== this.username) this.emit('whispered', cleanLine(from), cleanLine(text));
    });
    bot.once('end', (why) => {
      clearTimeout(this.#spawnTimer);
      if (this.#attempt !== bot) return;
      this.#attempt = undefined;
      this.#bot = undefined;
      this.gate.abortCurrent(new Error('disconnected'));
      const wasConnected = this.#state === 'connected';
      if (this.#stopping) return;
      const reason = fault ? `failed on ${fault.packet}` : (kickReason ?? lastError?.message ?? why ?? 'connection closed');
      if (fault && this.#faultLoopTripped()) {
        const { count, windowMs } = this.#opts.faultLoop;
        const failure = `crash loop in the game connection (${this.#faults.length} failures in ${Math.round(windowMs / 60_000)} minutes; last on packet ${fault.packet})`;
        this.#state = 'ended';
        this.#log.error({ faults: this.#faults.length, count, windowMs, packet: fault.packet }, 'the connection keeps failing; not reconnecting');
        this.emit('failed', failure);
        return;
      }
      this.#downReason = downPhrase(fault, kickReason, lastError, why);
      if (kickReason !== undefined && isFinalKick(kickReason)) {
        this.#state = 'ended';
        this.#log.warn({ reason }, 'kicked for good; not reconnecting');
        this.emit('ended', reason);
        return;
      }
      this.#state = 'down';
      if (wasConnected) {
        this.#log.info({ reason }, 'disconnected');
        this.emit('disconnected', reason);
      }
      this.#scheduleRetry(reason);
    });
  }

  /** Count one more packet fault; whether the crash-loop limit is reached. */
  #faultLoopTripped(): boolean {
    const now = Date.now();
    const { count, windowMs } = this.#opts.faultLoop;
    this.#faults = [...this.#faults.filter((t) => now - t < windowMs), now];
    return this.#faults.length >= count;
  }

  #scheduleRetry(reason: string): void {
    if (this.#stopping) return;
    this.#state = 'down';
    this.#downReason ??= 'it could not join';
    const delay = backoffMs(this.#failures, this.#opts.reconnect);
    this.#failures++;
    this.#log.debug({ reason, delay, attempt: this.#failures }, 'reconnecting later');
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => this.#connect(), delay);
  }
}
