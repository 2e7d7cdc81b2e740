/**
 * One avatar's mineflayer connection: find or check the server's version and
 * sign in with Microsoft when the server needs it (`join-prep.ts`), connect (a
 * bot fitted out as every avatar's is: `new-bot.ts`), wait
 * for the world around the spawn point, reconnect with capped exponential
 * backoff, stop for good on a kick the server means (a whitelist, a ban …,
 * said in words by `refusals.ts`), and expose a {@link Snapshot} and the
 * live bot to skills.
 */
import { EventEmitter } from 'node:events';
import type { Bot } from 'mineflayer';
import { backoffMs } from '../backoff.ts';
import { forAvatar, type Logger } from '../logger.ts';
import { cleanLine } from '../sanitize.ts';
import { formatAddress } from '../servers/address.ts';
import type { AvatarGame, Death, GameCapabilities, GameEvents, GameState, SayOutcome, Scene, Snapshot } from './game.ts';
import { InGameChat } from './in-game-chat.ts';
import { DefaultMineflayerGameOptions, type MineflayerGameOptions } from './game-options.ts';
import type { PacketFault } from './packet-guard.ts';
import { classifyKick, downPhrase, reasonText, serverWords } from './refusals.ts';
import { prepareJoin } from './join-prep.ts';
import type { JavaSession } from './sign-in.ts';
import { SkillGate } from './skill-gate.ts';
import { takeSnapshot } from './snapshot.ts';
import { sceneOf } from './scene.ts';
import { topDownMap, type TopDownMap } from './top-down.ts';
import { watchJoin, type JoinWatch } from './join-watch.ts';
import { watchDeaths, type DeathWatch } from './death-watch.ts';
import { leaveBot } from './leave-bot.ts';
import { loadBotCode, type BotCode } from './bot-code.ts';
import { createAvatarBot } from './new-bot.ts';
import { prepareLibraries } from './library-state.ts';

export { AVATAR_BRAND, DefaultMineflayerGameOptions, EMBEDDED_CAPABILITIES, VANILLA_CAPABILITIES, type MineflayerGameOptions } from './game-options.ts';
export { isFinalKick, reasonText } from './refusals.ts';

/** What `/status` says while a Microsoft sign-in waits for the owner. */
export const SIGNING_IN = 'signing in: code sent to the owner';

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
  /** Counts attempts, so a slow preparation (a sign-in) that ends after a stop or a newer attempt does nothing. */
  #attemptNo = 0;
  #stopping = false;
  #failures = 0;
  /** When the recent packet faults happened (epoch ms), for the crash loop. */
  #faults: number[] = [];
  #downReason: string | undefined;
  #endReason: string | undefined;
  /** The name the server knows the player by (a Microsoft account's profile name), once joined. */
  #player: string | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #joinWatch: JoinWatch | undefined;
  /** The last death not said yet (`respawned`): said once the avatar is back, by the join when it joined dead. */
  #unsaid: Death | undefined;
  /** The stop under way, if any: a second stop and a start wait for it. */
  #leaving: Promise<void> | undefined;
  /** The lines it says, paced, and the public lines it hears while asked to. */
  #chat = new InGameChat({ self: () => this.username, bot: () => this.bot, heard: (line) => this.emit('heard', line) });

  constructor(opts: MineflayerGameOptions) {
    super();
    this.#opts = { ...DefaultMineflayerGameOptions, ...opts } as MineflayerGameOptions & typeof DefaultMineflayerGameOptions;
    this.capabilities = opts.capabilities;
    this.#log = forAvatar(opts.log, opts.username, { component: 'game' });
    prepareLibraries();
  }

  /** The player's name in the game: the avatar's, or its Microsoft account's Minecraft name once signed in. */
  get username(): string {
    return this.#player ?? this.#opts.username;
  }

  /** `idle` before start and after stop, `connecting`, `connected`, `dead` (respawning), `down` (retrying), `ended` (refused for good). */
  get state(): GameState {
    return this.#state;
  }

  /** Why the game is out of the world while it tries again (see {@link AvatarGame.downReason}). */
  get downReason(): string | undefined {
    return this.#state === 'down' || this.#state === 'connecting' ? this.#downReason : undefined;
  }

  /** What the game waits for that is not a dropped connection: a Microsoft sign-in. */
  get waitReason(): string | undefined {
    return this.#state === 'connecting' && this.#opts.signIn?.waitingForCode ? SIGNING_IN : undefined;
  }

  /** Why the game ended for good (a refusal it explained), while it is `ended`. */
  get endReason(): string | undefined {
    return this.#state === 'ended' ? this.#endReason : undefined;
  }

  /** The live bot while connected. */
  get bot(): Bot | undefined {
    return this.#state === 'connected' ? this.#bot : undefined;
  }

  /** Connect; resolves once the first attempt has started (listen for `connected`). */
  async start(): Promise<void> {
    // A start right after a stop joins once the old connection has left (the stop's own bound caps the wait).
    if (this.#leaving) await this.#leaving;
    if (this.#state !== 'idle' && this.#state !== 'ended') return;
    this.#stopping = false;
    this.#failures = 0;
    this.#faults = [];
    this.#downReason = undefined;
    this.#endReason = undefined;
    this.#connect();
  }

  /** Leave the game (quit and wait for the connection to end) and stop reconnecting. */
  stop(): Promise<void> {
    this.#leaving ??= this.#leave().finally(() => {
      this.#leaving = undefined;
    });
    return this.#leaving;
  }

  async #leave(): Promise<void> {
    this.#stopping = true;
    this.#attemptNo += 1;
    clearTimeout(this.#retryTimer);
    this.#joinWatch?.done();
    this.gate.abortCurrent(new Error('the game is stopping'));
    const bot = this.#attempt;
    if (bot) await leaveBot(bot, { joined: this.#bot === bot, log: this.#log });
    this.#attempt = undefined;
    this.#bot = undefined;
    if (this.#state !== 'ended') this.#state = 'idle';
  }

  /** The current snapshot, or undefined while not connected (while dead: where it lies). */
  snapshot(): Snapshot | undefined {
    const bot = this.#state === 'dead' ? this.#bot : this.bot;
    if (!bot?.entity) return undefined;
    return takeSnapshot(bot);
  }

  /** The blocks around the avatar seen from above, or null while not connected. */
  worldMap(radius: number): TopDownMap | null {
    const bot = this.bot;
    return bot?.entity ? topDownMap(bot, radius) : null;
  }

  /** The 3D view's look around the avatar, or null while not connected. */
  async scene(radius: number, withBlocks: boolean): Promise<Scene | null> {
    const bot = this.bot;
    return bot?.entity ? sceneOf(bot, radius, withBlocks) : null;
  }

  /** Report the public chat it hears as `heard` events, or not. */
  hearChat(on: boolean): void {
    this.#chat.hearing = on;
  }

  /** Say one line in the game's chat, paced (see {@link AvatarGame.say}). */
  say(line: string): Promise<SayOutcome> {
    return this.#chat.say(line);
  }

  /** The server's name in the words of `/status` and stop lines. */
  get #server(): string {
    return this.#opts.server ?? `${this.#opts.host}:${this.#opts.port}`;
  }

  /** Stop for good with a line that says why (`failed`); `/status` shows `status` meanwhile. */
  #giveUp(line: string, status: string): void {
    this.#state = 'ended';
    this.#endReason = status;
    this.#log.warn({ reason: status }, 'refused; not reconnecting');
    this.emit('failed', line);
  }

  #connect(): void {
    if (this.#stopping) return;
    this.#state = 'connecting';
    const attempt = ++this.#attemptNo;
    const { host, port, username, version, versionPinned, checkVersion, auth, signIn } = this.#opts;
    const target = { host, port, username, server: this.#server, version, versionPinned: versionPinned ?? false, checkVersion: checkVersion ?? false, signIn: auth === 'microsoft' ? signIn : undefined };
    void Promise.all([prepareJoin(target, (code) => this.emit('signInCode', code)), loadBotCode()]).then(
      ([prep, code]) => {
        if (attempt !== this.#attemptNo || this.#stopping) return;
        if (prep.kind === 'ready') this.#join(prep.version, prep.session, code);
        else if (prep.kind === 'stop') this.#giveUp(prep.line, prep.status);
        else {
          this.#downReason = prep.reason;
          this.#scheduleRetry(prep.why);
        }
      },
      (err: unknown) => {
        this.#log.error({ err }, 'preparing the connection failed');
        if (attempt === this.#attemptNo) this.#scheduleRetry('preparation failed');
      },
    );
  }

  #join(version: string, session: JavaSession | undefined, code: BotCode): void {
    const { host, port, username, spawnTimeoutMs, brand } = this.#opts;
    this.#log.debug({ host, port, version, attempt: this.#failures + 1 }, 'connecting');
    let fault: PacketFault | undefined;
    let bot: Bot;
    try {
      const server = this.#server;
      bot = createAvatarBot(code, { host, port, version, username, session, brand, server, passwords: this.#opts.passwords, log: this.#log, fault: (f) => {
        if (fault) {
          this.#log.debug({ err: f.error, packet: f.packet }, 'another fault while leaving');
          return;
        }
        fault = f;
        this.#log.error({ err: f.error, packet: f.packet }, 'the bot failed while handling a packet; leaving the game to reconnect');
        bot.end(`failed on ${f.packet}`);
      } });
    } catch (err) {
      this.#log.warn({ err }, 'could not create the bot');
      this.#scheduleRetry('create failed');
      return;
    }
    this.#attempt = bot;
    let kickReason: string | undefined;
    let lastError: Error | undefined;
    let spawned = false;

    const deaths = this.#watchDeaths(bot);
    const watch = watchJoin(bot, spawnTimeoutMs, () => {
      if (!spawned && this.#attempt === bot) {
        this.#log.warn({ ms: spawnTimeoutMs, dead: deaths.dead }, 'no spawn in time; retrying');
        bot.end(deaths.dead ? 'respawn timeout' : 'spawn timeout');
      }
    });
    this.#joinWatch = watch;

    bot.once('spawn', () => {
      void (async () => {
        try {
          await bot.waitForChunksToLoad();
        } catch (err) {
          this.#log.debug({ err }, 'waiting for chunks failed');
        }
        if (this.#attempt !== bot || this.#stopping || !bot.entity) return;
        watch.done();
        spawned = true;
        bot.pathfinder.setMovements(new code.AvatarMovements(bot));
        bot.pathfinder.thinkTimeout = 10_000;
        this.#bot = bot;
        this.#failures = 0;
        this.#downReason = undefined;
        this.#state = 'connected';
        this.#player = bot.username;
        this.#log.info({ position: bot.entity.position.floored().toString(), player: bot.username }, 'spawned');
        if (session && !session.known && bot.username !== username) this.emit('playingAs', bot.username); // once per profile
        this.emit('connected');
        const back = this.#unsaid;
        this.#unsaid = undefined;
        if (back) this.emit('respawned', back);
      })();
    });
    bot.on('kicked', (reason) => {
      kickReason = serverWords(reasonText(reason));
      this.#log.info({ reason: kickReason }, 'kicked');
    });
    bot.on('error', (err) => {
      lastError = err;
      this.#log.debug({ err: err.message }, 'connection error');
    });
    bot.on('whisper', (from, text) => {
      if (from !== this.username) this.emit('whispered', cleanLine(from), cleanLine(text));
    });
    this.#chat.attach(bot);
    bot.once('end', (why) => {
      if (this.#attempt !== bot) return;
      this.#attempt = undefined;
      const wasConnected = this.#bot === bot;
      this.#bot = undefined;
      this.gate.abortCurrent(new Error('disconnected'));
      if (this.#stopping) return;
      const reason = fault ? `failed on ${fault.packet}` : (kickReason ?? lastError?.message ?? why ?? 'connection closed');
      if (fault && this.#faultLoopTripped()) {
        const { count, windowMs } = this.#opts.faultLoop;
        const failure = `crash loop in the game connection (${this.#faults.length} failures in ${Math.round(windowMs / 60_000)} minutes; last on packet ${fault.packet})`;
        this.#log.error({ faults: this.#faults.length, count, windowMs, packet: fault.packet }, 'the connection keeps failing; not reconnecting');
        this.#giveUp(failure, failure);
        return;
      }
      this.#downReason = downPhrase(fault, kickReason, lastError, why);
      if (kickReason !== undefined) {
        const refusal = classifyKick(kickReason, { server: this.#server, avatar: username, player: this.username, version, auth: session ? 'microsoft' : 'offline', address: formatAddress({ host, port }) });
        if (refusal.final && refusal.kind === 'other') {
          this.#state = 'ended';
          this.#endReason = refusal.status;
          this.#log.warn({ reason }, 'kicked for good; not reconnecting');
          this.emit('ended', reason);
          return;
        }
        if (refusal.final) {
          this.#giveUp(refusal.line, refusal.status);
          return;
        }
        this.#downReason = refusal.status;
      }
      this.#state = 'down';
      if (wasConnected) {
        this.#log.info({ reason }, 'disconnected');
        this.emit('disconnected', reason);
      }
      this.#scheduleRetry(reason);
    });
  }

  /** A bot's deaths: `dead` until it is back (`respawned`); one that joined dead goes on joining once it is alive. */
  #watchDeaths(bot: Bot): DeathWatch {
    return watchDeaths(bot, {
      ...this.#opts.respawn,
      log: this.#log,
      died: (death) => {
        if (this.#attempt !== bot || this.#stopping) return;
        const joined = this.#bot === bot;
        this.#log.info({ ...death }, joined ? 'died' : 'joined dead; asking to respawn');
        this.#state = 'dead';
        // Joined dead: the death it left with (it stayed dead), else one while mindlink was away.
        this.#unsaid = joined ? death : (this.#unsaid ?? { ...death, cause: 'while I was away' });
        if (!joined) return;
        this.gate.abortCurrent(new Error('died'));
        this.emit('died', death);
      },
      alive: (death) => {
        if (this.#attempt !== bot || this.#stopping) return;
        // One that joined dead goes on joining: its join says it is back, once it is in the game.
        if (this.#bot !== bot) this.#state = 'connecting';
        if (this.#bot !== bot || !this.#unsaid) return;
        this.#unsaid = undefined;
        this.#state = 'connected';
        this.#log.info({ position: bot.entity.position.floored().toString() }, 'respawned');
        this.emit('respawned', death);
      },
      stuck: () => {
        this.#log.warn('still dead: the server does not respawn it; joining again');
        bot.end('respawn timeout');
      },
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
